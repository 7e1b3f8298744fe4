import * as assert from 'node:assert/strict';
import { yamlError as fails } from './helpers/evaYaml';

/**
 * Where Eva's YAML error messages place a refusal: serde_yaml 0.9 prints libyaml 0.2.5's mark
 * (libyaml/error.rs, error.rs), which counts characters and breaks lines as libyaml's reader
 * does; the diagnostic's range keeps the editor's count. Expected places are libyaml's own: its
 * problem_mark from PyYAML's CParser, event marks and serde_yaml's words from a C program over
 * the same libyaml with the encoding set to UTF-8 as serde_yaml sets it.
 */
describe("Eva YAML: the place a refusal's message names, as libyaml counts", () => {
  it('counts a character beyond U+FFFF as one column, where the range counts two UTF-16 units', () => {
    const e = fails('k: 😀\n😀: x: y');
    assert.equal(e.message, 'failed to parse YAML: mapping values are not allowed in this context at line 2 column 5');
    assert.deepEqual(e.range.start, { line: 1, character: 5 });
    assert.equal(
      fails('k: 😀 x: y').message,
      'failed to parse YAML: mapping values are not allowed in this context at line 1 column 7',
    );
  });

  it('breaks lines at NEL, LS and PS, which the editor does not', () => {
    for (const br of ['\u0085', '\u2028', '\u2029']) {
      const e = fails(`a: 1${br}b: c: d`);
      assert.equal(
        e.message,
        'failed to parse YAML: mapping values are not allowed in this context at line 2 column 5',
      );
      assert.deepEqual(e.range.start, { line: 0, character: 9 }, 'the range stays where the editor shows it');
    }
    assert.equal(
      fails('a: 😀\u2029b: 😀 c: d').message,
      'failed to parse YAML: mapping values are not allowed in this context at line 2 column 7',
    );
  });

  it('counts CRLF as one line break, and leaves a leading BOM out of the column', () => {
    const at25 = 'failed to parse YAML: mapping values are not allowed in this context at line 2 column 5';
    assert.equal(fails('a: 1\r\nb: c: d').message, at25);
    assert.equal(fails('\ufeffa: 1\r\nb: c: d').message, at25);
    assert.equal(
      fails('\ufeffk: v: w').message,
      'failed to parse YAML: mapping values are not allowed in this context at line 1 column 5',
    );
  });

  it('counts a second leading BOM as one column, as libyaml skips it; the range as the editor shows it, a character', () => {
    // The decoder drops the first U+FEFF (the encoding's mark, which VS Code drops too); libyaml
    // skips the second as one column of indentation (scanner.c yaml_parser_scan_to_next_token),
    // and VS Code shows it as the line's first character.
    const e = fails('\ufeff\ufeffk: v: w');
    assert.equal(e.message, 'failed to parse YAML: mapping values are not allowed in this context at line 1 column 6');
    assert.deepEqual(e.range.start, { line: 0, character: 5 });
    assert.deepEqual([e.line, e.column], [1, 6]);
    const control = fails('\ufeff\ufeffa: \u0001');
    assert.equal(control.message, 'failed to parse YAML: control characters are not allowed at position 9');
    assert.deepEqual(control.range, { start: { line: 0, character: 4 }, end: { line: 0, character: 5 } });
    // Without the encoding's mark the one U+FEFF is the file's first character, which the editor
    // hides: the line map leaves it out, as before.
    assert.deepEqual(fails('\ufeffk: v: w').range.start, { line: 0, character: 4 });
  });

  it("places a duplicate key at its mapping's start as libyaml marks it", () => {
    assert.equal(
      fails('😀: {a: 1, a: 2}').message,
      'failed to parse YAML: 😀: duplicate entry with key "a" at line 1 column 4',
    );
    assert.equal(
      fails('x:\u2028  a: 1\u2028  a: 2').message,
      'failed to parse YAML: x: duplicate entry with key "a" at line 2 column 3',
    );
  });

  it('names no place at line 1 column 1, as serde_yaml leaves a zero mark out', () => {
    // libyaml: "did not find expected key" and "found character that cannot start any token" at its mark 0:0.
    assert.equal(fails(': a').message, 'failed to parse YAML: did not find expected key');
    assert.equal(fails('@x').message, 'failed to parse YAML: found character that cannot start any token');
    assert.deepEqual(fails('@x').range.start, { line: 0, character: 0 });
  });

  it("places a refused control character at its reader's offset in bytes, a leading BOM's included", () => {
    // libyaml's reader errors carry no mark: serde_yaml says `at position <problem_offset>`.
    assert.equal(fails('a: \u0001').message, 'failed to parse YAML: control characters are not allowed at position 3');
    assert.equal(fails('😀: \u0001').message, 'failed to parse YAML: control characters are not allowed at position 6');
    assert.equal(
      fails('\ufeffa: \u0001').message,
      'failed to parse YAML: control characters are not allowed at position 6',
    );
    assert.equal(
      fails('a: 1\u2028\u0001').message,
      'failed to parse YAML: control characters are not allowed at position 7',
    );
    assert.equal(fails('\u0001').message, 'failed to parse YAML: control characters are not allowed');
    assert.deepEqual(fails('a: 1\n\u0001').range.start, { line: 1, character: 0 });
  });

  it('names no place for the errors serde_yaml gives no mark: a second document, the repetition limit', () => {
    assert.equal(
      fails('a: 1\n---\nb: 2\n').message,
      'failed to parse YAML: deserializing from YAML containing more than one document is not supported',
    );
    const levels = ['l0: &l0 [1, 1]'];
    for (let i = 1; i <= 12; i++) levels.push(`l${i}: &l${i} [*l${i - 1}, *l${i - 1}]`);
    assert.equal(fails(levels.join('\n') + '\n').message, 'failed to parse YAML: repetition limit exceeded');
  });
});
