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

/** What the reader accepts and reads, against TOML 1.0 as the toml crate parses it (toml_edit and tomllib as oracles). */
describe('TOML documents as the toml crate reads them', () => {
  const parse = (text: string) => parseTomlDocument('/ws/plugin.toml', text, 127);

  it('refuses a lone carriage return wherever it stands (toml-eslint-parser took it for a line break)', () => {
    for (const text of [
      '# note\rargs = ["--x"]\n',
      'a = """x\ry"""\n',
      "a = '''x\ry'''\n",
      'a = [\r1]\n',
      'a =\r 1\n',
      'a = 1\r',
      '[t]\r\nb = 1\r\r\n',
    ]) {
      const r = parse(text);
      assert.ok(!r.ok, JSON.stringify(text));
    }
    const hidden = parse('# note\rargs = ["--x"]\n');
    assert.ok(!hidden.ok);
    assert.deepEqual(hidden.range, { start: { line: 0, character: 6 }, end: { line: 0, character: 6 } });
  });

  it('still reads CRLF as a line break, in a multi-line string as LF', () => {
    const r = parse('a = """x\r\ny"""\r\nb = 1\r\n');
    assert.ok(r.ok);
    assert.deepEqual(r.document.value, { a: 'x\ny', b: 1 });
  });

  it('refuses an integer outside the 64-bit signed range, in any base, and reads the range bounds', () => {
    for (const literal of [
      '9223372036854775808',
      '-9223372036854775809',
      '0x8000000000000000',
      '0o1000000000000000000000',
      `0b1${'0'.repeat(63)}`,
    ]) {
      const r = parse(`[mcp_servers.s]\nconnect_timeout = ${literal}\n`);
      assert.ok(!r.ok, literal);
      if (!r.ok)
        assert.deepEqual(r.range, {
          start: { line: 1, character: 18 },
          end: { line: 1, character: 18 + literal.length },
        });
    }
    for (const literal of ['9223372036854775807', '-9223372036854775808', '0x7FFFFFFFFFFFFFFF', '+9223372036854775807'])
      assert.ok(parse(`v = ${literal}\n`).ok, literal);
  });
});
