import * as assert from 'node:assert/strict';
import { parsedYaml, yamlError as fails } from './helpers/evaYaml';

/**
 * A block scalar that is the whole document, as libyaml 0.2.5 (serde_yaml 0.9, eva.md §2.1)
 * reads it: its content is indented at least one column. Every expected value and position
 * below is libyaml's own (PyYAML 6.0.3's CSafeLoader on the same texts, problem_mark + 1).
 */
describe('Eva YAML: a block scalar at the root as libyaml reads it', () => {
  const ok = (text: string) => parsedYaml(text).value;
  const at = (detail: string, line: number, column: number) =>
    `failed to parse YAML: ${detail} at line ${line} column ${column}`;

  it('has no content in column 0: a token there is refused (the library read it as the text)', () => {
    assert.equal(fails('|\nabc\n').message, at('did not find expected <document start>', 2, 1));
    assert.equal(fails('--- |\nabc').message, at('did not find expected <document start>', 2, 1));
    assert.equal(fails('>\n\nx: 1').message, at('did not find expected <document start>', 3, 1));
    assert.equal(fails('|\n#c\n  abc').message, at('did not find expected <document start>', 3, 3));
    assert.equal(fails('|\n  \nabc').message, at('did not find expected <document start>', 3, 1));
  });

  it('followed in column 0 by comments alone is empty (the library read the comments as its text)', () => {
    assert.equal(ok('>#c\n#\n# text'), '');
    assert.equal(ok('|-\n#c\n'), '');
    assert.equal(ok('|\n# c\n #d\n'), '');
    assert.equal(ok('--- |\n#c\n...\n'), '');
    // `+` keeps the leading line breaks.
    assert.equal(ok('|+\n\n#c\n'), '\n');
  });

  it('is read as before where its content is indented or its indentation is given', () => {
    assert.equal(ok('|\n abc\n'), 'abc\n');
    assert.equal(ok('|1\n abc'), 'abc');
    assert.equal(fails('|1\nabc').message, at('did not find expected <document start>', 2, 1));
    assert.deepEqual(JSON.parse(JSON.stringify(ok('k: |\n  a\n#c\n'))), { k: 'a\n' });
  });
});
