import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { installPlugin } from '../../src/core/systems/rivumi/install';
import { pythonFloatRepr, pythonJsonDumps } from '../../src/core/systems/rivumi/pythonJsonDumps';
import { Fixture } from './helpers/fixture';

/**
 * The manifest `rivumi plugin install` writes is Python's json.dumps of the input, values
 * as given (rivumi.md §5.6 step 7): the same package installed by Rivumi or by Skillgate
 * gives the same bytes, so the same review token (a team's lock holds either).
 */
describe('Rivumi plugin install: the written manifest, number by number, as Python writes it', () => {
  let f: Fixture;
  beforeEach(() => {
    f = new Fixture();
    f.mkdir('repo');
  });
  afterEach(() => f.remove());

  const installed = (manifestText: string): string => {
    f.write('package/p.json', manifestText);
    const r = installPlugin(f.path('package/p.json'), f.path('repo'));
    assert.ok(r.ok, r.ok ? '' : r.message);
    return fs.readFileSync(f.path('repo/.rivumi/plugins/p.json'), 'utf8');
  };

  it('keeps a float a float, in repr form (5.0, 10.0, 1e-05), and an integer an integer', () => {
    const text = installed(
      '{"name":"p","hooks":{"pre_tool_use":[{"command":["a"],"timeout_seconds":5.0},{"command":["b"],"timeout_seconds":1e1},{"command":["c"],"timeout_seconds":0.00001},{"command":["d"],"timeout_seconds":7}]}}',
    );
    // python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin), sort_keys=True, indent=2, ensure_ascii=False))'
    const timeouts = [...text.matchAll(/"timeout_seconds": (.*)/g)].map((m) => m[1]);
    assert.deepEqual(timeouts, ['5.0', '10.0', '1e-05', '7']);
  });

  it('writes what an unvalidated hooks object holds as Python does: big integers exactly, NaN and Infinity by name', () => {
    const text = installed(
      '{"name":"p","hooks":{"later":{"big":12345678901234567890123,"nan":NaN,"inf":-Infinity,"huge":1e400,"neg":-0.0}}}',
    );
    assert.equal(
      text,
      '{\n  "hooks": {\n    "later": {\n      "big": 12345678901234567890123,\n      "huge": Infinity,\n      "inf": -Infinity,\n      "nan": NaN,\n      "neg": -0.0\n    }\n  },\n  "name": "p"\n}\n',
    );
  });

  it('sorts keys by code point, as Python compares strings', () => {
    assert.equal(pythonJsonDumps({ '\u{10000}': 1, '\uffff': 2 }), '{\n  "\uffff": 2,\n  "\u{10000}": 1\n}');
  });

  it("spells floats as Python's repr", () => {
    const cases: [number, string][] = [
      [5, '5.0'],
      [0.1, '0.1'],
      [0.0001, '0.0001'],
      [0.00001, '1e-05'],
      [1e15, '1000000000000000.0'],
      [1e16, '1e+16'],
      [1.5e300, '1.5e+300'],
      [-2.5e-7, '-2.5e-07'],
      [12.345678901234567, '12.345678901234567'],
    ];
    for (const [n, repr] of cases) assert.equal(pythonFloatRepr(n), repr, String(n));
  });
});
