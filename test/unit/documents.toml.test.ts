import { strict as assert } from 'node:assert';
import { parseTomlDocument } from '../../src/core/documents/tomlDocument';

/** Where a TOML parse error points: inside its line, whatever the line breaks. */
describe('TOML documents', () => {
  const errorRange = (text: string) => {
    const r = parseTomlDocument('/ws/plugin.toml', text, 127);
    assert.ok(!r.ok, 'the text does not parse');
    return r.range;
  };

  it('points a line that ends too early at its end, with \\n and with \\r\\n alike', () => {
    const lf = errorRange('a = 1\nb = \nc = 2\n');
    assert.deepEqual(lf, { start: { line: 1, character: 4 }, end: { line: 1, character: 4 } });
    assert.deepEqual(errorRange('a = 1\r\nb = \r\nc = 2\r\n'), lf);
  });

  it('never reaches past the end of the line it is on (the fuzz harness found 5:62 on a 61-character CRLF line)', () => {
    for (const text of ['name = "x"\r\nversion = \r\n', 'a = "unterminated\r\n', 'x = [1,\r\n', 'k = \r']) {
      const r = errorRange(text);
      const line = text.split(/\r\n|\n|\r/)[r.end.line] ?? '';
      assert.ok(r.end.character <= line.length, `${JSON.stringify(text)}: ${JSON.stringify(r)}`);
      assert.equal(r.start.line, r.end.line);
    }
  });
});
