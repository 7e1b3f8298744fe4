import { strict as assert } from 'node:assert';
import { parseJsonDocument } from '../../src/core/documents/jsonDocument';
import { Fixture, byName, index } from './helpers/fixture';

/**
 * serde_json reads every string of a Codewhale JSON manifest into a Rust `String`, and
 * refuses a `\u` escape that is half a surrogate pair ("lone leading surrogate in hex
 * escape", "unexpected end of hex escape"): the bundle does not load (codewhale.md §4.2,
 * "JSON manifests follow serde_json"). JSON.parse keeps such a string, so without the same
 * refusal Skillgate would show, trust and enable a bundle Codewhale never loads.
 */
describe('Codewhale JSON strings as serde_json reads them', () => {
  const fails = (text: string) => {
    const r = parseJsonDocument('m.json', text);
    assert.ok(!r.ok, `${text} should be refused`);
    return r.message;
  };

  it('refuses a lone trailing or leading surrogate escape, in values and in keys, with serde_json words', () => {
    assert.equal(fails('{"a": "x\\udcffy"}'), 'lone leading surrogate in hex escape at line 1 column 14');
    assert.equal(fails('{"a": "\\ud800"}'), 'unexpected end of hex escape at line 1 column 14');
    assert.equal(fails('{"a": "\\ud800x"}'), 'unexpected end of hex escape at line 1 column 14');
    assert.equal(fails('{"a": "\\ud800\\n"}'), 'unexpected end of hex escape at line 1 column 15');
    assert.equal(fails('{"a": "\\ud800\\u0041"}'), 'lone leading surrogate in hex escape at line 1 column 19');
    assert.equal(fails('{"\\uDC00": 1}'), 'lone leading surrogate in hex escape at line 1 column 8');
    assert.equal(fails('{"a": [1, "ok",\n "\\uDBFF"]}'), 'unexpected end of hex escape at line 2 column 9');
  });

  it('keeps pairs, other escapes and an escaped backslash before `u`', () => {
    for (const text of [
      '{"a": "\\ud83d\\ude00"}',
      '{"a": "\\\\udc00"}',
      '{"a": "\\u00e9\\n\\"\\\\"}',
      '{"a": "😀 \\uD83D\\uDE00"}',
    ]) {
      const r = parseJsonDocument('m.json', text);
      assert.ok(r.ok, text);
    }
    const escaped = parseJsonDocument('m.json', '{"a": "\\\\udc00"}');
    assert.ok(escaped.ok);
    assert.deepEqual(escaped.document.value, { a: '\\udc00' }, 'a backslash, then the letters udc00');
  });

  it('leaves Rivumi (Python json) free to read lone surrogates', () => {
    const r = parseJsonDocument('m.json', '{"a": "\\udcff"}', { python: true });
    assert.ok(r.ok);
  });

  describe('a bundle', () => {
    let f: Fixture;
    beforeEach(() => (f = new Fixture()));
    afterEach(() => f.remove());

    it('with a lone surrogate in plugin.json or mcp.json is rejected, as Codewhale rejects it', () => {
      f.write('ws/.codewhale/plugins/a/plugin.json', '{"$schema": "x", "name": "a", "description": "a\\udcffb"}');
      f.write('ws/.codewhale/plugins/b/plugin.json', '{"$schema": "x", "name": "b"}');
      f.write('ws/.codewhale/plugins/b/mcp.json', '{"mcpServers": {"s": {"command": "node", "args": ["\\udcff"]}}}');
      const s = index([f.path('ws')]);
      for (const [name, label] of [
        ['a', 'plugin.json'],
        ['b', 'mcp.json'],
      ] as const) {
        const item = byName(s, name);
        assert.deepEqual(
          [item.decision, item.reasons],
          ['rejected', ['manifest_invalid', 'not_reviewed', 'not_enabled']],
          name,
        );
        assert.ok(
          s.diagnostics.some(
            (d) =>
              d.itemId === item.id &&
              d.message.startsWith(`failed to parse ${label}: lone leading surrogate in hex escape`),
          ),
          s.diagnostics.map((d) => d.message).join(' | '),
        );
      }
    });
  });
});
