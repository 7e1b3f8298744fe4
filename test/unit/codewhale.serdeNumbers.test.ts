import { strict as assert } from 'node:assert';
import { parseJsonDocument } from '../../src/core/documents/jsonDocument';
import { Fixture, byName, index } from './helpers/fixture';

/**
 * serde_json reads every number of a Codewhale JSON manifest, those under an extension
 * namespace Codewhale ignores too, and refuses one that does not fit an f64 ("number out
 * of range"): the bundle does not load (codewhale.md §4.2, "JSON manifests follow
 * serde_json"). JSON.parse reads `1e400` as Infinity, so without the same refusal
 * Skillgate would show, trust and enable a bundle Codewhale never loads. The expected
 * messages are serde_json 1.0.87's own, for these exact texts.
 */
describe('Codewhale JSON numbers as serde_json reads them', () => {
  const read = (text: string) => {
    const r = parseJsonDocument('m.json', text);
    return r.ok ? 'OK' : r.message;
  };

  it('refuses a number beyond f64, with serde_json words and place', () => {
    assert.equal(read('{"a": 1e400}'), 'number out of range at line 1 column 11');
    assert.equal(read('{"a": -1e400}'), 'number out of range at line 1 column 12');
    assert.equal(read('{"a": 10e308}'), 'number out of range at line 1 column 12');
    assert.equal(read('{"a": [1, 2.5e+9999]}'), 'number out of range at line 1 column 19');
    // An exponent past i32 is refused at the digit that overflows it.
    assert.equal(read('{"a": 1e2147483648}'), 'number out of range at line 1 column 18');
    // 310 digits.
    assert.equal(read(`{"a": 1${'0'.repeat(309)}}`), 'number out of range at line 1 column 316');
  });

  it('refuses, as serde_json does, a number near f64::MAX that JavaScript rounds down to it', () => {
    // serde_json (without float_roundtrip) scales 17976931348623158 by 1e292, which overflows.
    assert.equal(read('{"a": 1.7976931348623158e308}'), 'number out of range at line 1 column 28');
    assert.equal(read('{"a": 1.7976931348623157e308}'), 'OK');
  });

  it('reads what serde_json reads: underflow to zero, a zero significand, big integers, numbers in strings', () => {
    for (const text of [
      '{"a": 1e308}',
      '{"a": 1e-400}',
      '{"a": 0e2147483648}',
      '{"a": 1e-2147483648}',
      '{"a": 18446744073709551616}',
      `{"a": 0.${'0'.repeat(80)}1e388}`,
      '{"a": "1e400"}',
    ])
      assert.equal(read(text), 'OK', text);
  });

  it('reports the first of a bad number and a lone surrogate, where serde_json stops', () => {
    assert.equal(read('{"a": "\\udc00", "b": 1e400}'), 'lone leading surrogate in hex escape at line 1 column 13');
    assert.equal(read('{"b": 1e400, "a": "\\udc00"}'), 'number out of range at line 1 column 11');
  });

  it('leaves Rivumi (Python json) free to read 1e400 as inf', () => {
    const r = parseJsonDocument('m.json', '{"a": 1e400}', { python: true });
    assert.ok(r.ok);
    assert.equal((r.document.value as { a: number }).a, Number.POSITIVE_INFINITY);
  });

  describe('a bundle', () => {
    let f: Fixture;
    beforeEach(() => (f = new Fixture()));
    afterEach(() => f.remove());

    it('with a `-0` timeout fails to parse mcp.json: serde_json reads -0 as a float, which no u64 takes', () => {
      // serde_json 1.0.87: `invalid type: floating point \`-0\`, expected u64`. JavaScript's -0 passed as 0,
      // and the bundle was refused later, for a timeout outside 1-3600 seconds.
      f.write('ws/.codewhale/plugins/a/plugin.json', '{"$schema": "x", "name": "a"}');
      f.write(
        'ws/.codewhale/plugins/a/mcp.json',
        '{"mcpServers": {"s": {"command": "node", "extensions": {"net.codewhale": {"connect_timeout": -0}}}}}',
      );
      const s = index([f.path('ws')]);
      const item = byName(s, 'a');
      assert.deepEqual(
        [item.decision, item.reasons],
        ['rejected', ['manifest_invalid', 'not_reviewed', 'not_enabled']],
      );
      assert.deepEqual(
        s.diagnostics.filter((d) => d.itemId === item.id && d.severity === 'error').map((d) => d.message),
        ['mcp.json server extensions["net.codewhale"] is invalid: expected an unsigned integer at `connect_timeout`'],
      );
    });

    it('with an out-of-range number under an ignored namespace of plugin.json or mcp.json is rejected', () => {
      f.write(
        'ws/.codewhale/plugins/a/plugin.json',
        '{"$schema": "x", "name": "a", "extensions": {"com.example": {"n": 1e400}}}',
      );
      f.write('ws/.codewhale/plugins/b/plugin.json', '{"$schema": "x", "name": "b"}');
      f.write(
        'ws/.codewhale/plugins/b/mcp.json',
        '{"mcpServers": {"s": {"command": "node", "extensions": {"net.example": 1e999}}}}',
      );
      const s = index([f.path('ws')]);
      for (const [name, message] of [
        ['a', 'failed to parse plugin.json: number out of range at line 1 column 71'],
        ['b', 'failed to parse mcp.json: number out of range at line 1 column 76'],
      ] as const) {
        const item = byName(s, name);
        assert.deepEqual(
          [item.decision, item.reasons],
          ['rejected', ['manifest_invalid', 'not_reviewed', 'not_enabled']],
          name,
        );
        assert.ok(
          s.diagnostics.some((d) => d.itemId === item.id && d.message === message),
          s.diagnostics.map((d) => d.message).join(' | '),
        );
      }
    });
  });
});
