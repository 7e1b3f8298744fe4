import * as assert from 'node:assert/strict';
import { parsedYaml as ok, yamlError as fails } from './helpers/evaYaml';

/**
 * What libyaml's reader and scanner decide before any YAML structure (eva.md §2.1: Eva
 * reads with serde_yaml 0.9, which is libyaml 0.2.5). Expected values are libyaml's own,
 * taken from PyYAML's CParser over libyaml 0.2.5.
 */
describe("Eva YAML: libyaml's line breaks and refused characters", () => {
  it('breaks lines at a lone CR and at NEL (U+0085), as libyaml does', () => {
    // libyaml: {'name': 'x', 'transport': 'skill'} for both.
    assert.deepEqual({ ...(ok('name: x\rtransport: skill\r').value as object) }, { name: 'x', transport: 'skill' });
    assert.deepEqual({ ...(ok('name: x\u0085transport: skill').value as object) }, { name: 'x', transport: 'skill' });
    // libyaml: ['a', 'b', 'c'].
    assert.deepEqual(ok('- a\n- b\u0085- c').value, ['a', 'b', 'c']);
  });

  it('breaks lines at LS and PS (U+2028, U+2029) in the structure', () => {
    // libyaml: {'name': 'x', 'transport': 'skill', 'k': 'v'}.
    assert.deepEqual(
      { ...(ok('name: x\u2028transport: skill\u2029k: v').value as object) },
      {
        name: 'x',
        transport: 'skill',
        k: 'v',
      },
    );
  });

  it('folds a lone CR and a NEL inside a scalar as a line break', () => {
    // libyaml: {'a': 'x y', 'b': 'p\nq\n'}.
    assert.deepEqual({ ...(ok('a: "x\r  y"\rb: |\r  p\u0085  q\r').value as object) }, { a: 'x y', b: 'p\nq\n' });
  });

  it('keeps the text and the ranges of the file as it is', () => {
    const d = ok('name: x\rtransport: skill\r');
    assert.equal(d.text, 'name: x\rtransport: skill\r');
    assert.equal(d.literalAt(['transport']), 'skill');
  });

  it("refuses a control character anywhere, even in a quoted scalar or a comment (libyaml's reader)", () => {
    // libyaml: ReaderError "control characters are not allowed" for each, at its offset in bytes.
    const texts = ["name: '\u0001'\n", 'name: x # \u007f\n', 'name: "\u0080"\n', 'a: 1\nb: \ufffe\n'];
    for (const [text, position] of texts.map((t, i) => [t, [7, 10, 7, 8][i]] as const)) {
      const e = fails(text);
      assert.equal(e.message, `failed to parse YAML: control characters are not allowed at position ${position}`);
    }
    const e = fails('a: 1\nb: x\u0007\n');
    assert.deepEqual([e.line, e.column], [2, 5]);
  });

  it('refuses a control character before a syntax error later in the file: the reader reads ahead', () => {
    // libyaml decodes its first 16 KiB before scanning a token: the reader's error comes first.
    assert.match(fails('a: \u0001\nb: [\n').message, /control characters are not allowed/);
  });

  it('accepts tab, NEL, no-break space and the printable ranges', () => {
    assert.deepEqual(
      { ...(ok('a: "x\ty"\nb: \u00a0z\nc: \ud83d\ude00\n').value as object) },
      {
        a: 'x\ty',
        b: '\u00a0z',
        c: '\ud83d\ude00',
      },
    );
  });

  it('ends a block scalar that ends the file without a line break without one, as libyaml does', () => {
    // libyaml: {'a': 'x'}, {'a': 'x'}, {'a': 'x y'}, {'id': 'my-skill'}; with a break or a blank last line, as before.
    assert.deepEqual({ ...(ok('a: |\n  x').value as object) }, { a: 'x' });
    assert.deepEqual({ ...(ok('a: |+\n  x').value as object) }, { a: 'x' });
    assert.deepEqual({ ...(ok('a: >\n  x\n  y').value as object) }, { a: 'x y' });
    assert.deepEqual({ ...(ok('name: n\nid: |\n  my-skill').value as object) }, { name: 'n', id: 'my-skill' });
    assert.deepEqual({ ...(ok('a: |\n  x\n').value as object) }, { a: 'x\n' });
    assert.deepEqual({ ...(ok('a: |\n  x\n  ').value as object) }, { a: 'x\n' });
    assert.deepEqual({ ...(ok('a: |+\n  x\n\n  ').value as object) }, { a: 'x\n\n' });
    assert.deepEqual({ ...(ok('a: |\n  x\n# c').value as object) }, { a: 'x\n' });
  });
});
