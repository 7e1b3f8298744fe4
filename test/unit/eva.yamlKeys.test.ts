import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { parseEvaYaml } from '../../src/core/systems/eva/yamlDocument';
import { LineMap } from '../../src/core/text/lineMap';
import { rustDebugStr } from '../../src/core/text/rustText';
import { cpuTime } from './helpers/cpuTime';

/**
 * Duplicate keys in Eva YAML are refused while the value is built, by a lookup per key.
 * The yaml library's own check (`uniqueKeys`) compared each key with every key before it:
 * a mapping of 40,000 keys took 9 s to parse, and a 1 MiB manifest holds 100,000.
 */
describe('Eva YAML duplicate keys', () => {
  /** The string a key spelling names. */
  const named = (key: string) => key.replace(/^['"]|['"]$/g, '');

  /**
   * A block mapping whose keys repeat (plain and quoted spellings of the same strings), with
   * flow values whose own keys do not: in a flow mapping the yaml library checks a key after
   * its value, serde_yaml before it (see the case below), so there the two orders differ.
   */
  const flowValue: fc.Arbitrary<string> = fc.letrec<{ value: string; flow: string }>((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constantFrom('0', 'x', '[1, 2]'), tie('flow')),
    flow: fc
      .uniqueArray(fc.tuple(fc.constantFrom('a', 'b', "'a'", '"b"'), tie('value')), {
        selector: ([k]) => named(k),
        maxLength: 3,
      })
      .map((pairs) => `{${pairs.map(([k, v]) => `${k}: ${v}`).join(', ')}}`),
  })).value;
  const mapping: fc.Arbitrary<string> = fc
    .array(fc.tuple(fc.constantFrom('a', 'b', "'a'", '"b"', 'c'), flowValue), { minLength: 1, maxLength: 6 })
    .map((pairs) => pairs.map(([k, v]) => `${k}: ${v}`).join('\n') + '\n');

  it("refuses the first repeated key exactly where the yaml library's own check did, over random documents", () => {
    fc.assert(
      fc.property(mapping, (text) => {
        const reference = parseDocument(text, { version: '1.2', schema: 'core', uniqueKeys: true, strict: true });
        const first = reference.errors[0];
        const r = parseEvaYaml('/x.yaml', text);
        if (!first) {
          assert.ok(r.ok, text);
          return;
        }
        // Only repeated keys: the generator writes nothing else that is wrong.
        assert.equal(first.code, 'DUPLICATE_KEY', text);
        const lines = new LineMap(text);
        const at = lines.position(first.pos[0]);
        assert.deepEqual(r, {
          ok: false,
          message: `failed to parse YAML: duplicate entry with key ${rustDebugStr(named(text.slice(first.pos[0]).split(':')[0] as string))}`,
          range: lines.range(first.pos[0], first.pos[1] - first.pos[0]),
          line: at.line + 1,
          column: at.character + 1,
        });
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a mapping of 100,000 keys, and refuses one repeated at its end, in linear time', () => {
    const keys: string[] = [];
    for (let i = 0; i < 100_000; i++) keys.push(`k${i}: ${i}`);
    const { result, ms } = cpuTime(() => [
      parseEvaYaml('/x.yaml', keys.join('\n') + '\n'),
      parseEvaYaml('/x.yaml', `${keys.join('\n')}\nk0: again\n`),
    ]);
    assert.equal(result[0]?.ok, true);
    assert.equal(result[1]?.ok ? '' : result[1]?.message, 'failed to parse YAML: duplicate entry with key "k0"');
    // The parser's pairwise check: 5 × 10^9 comparisons for each, a minute of CPU.
    assert.ok(ms < 15_000, `${ms} ms of CPU`);
  });

  it("checks a key before reading its value, as serde_yaml's mapping does: the outer repeat first", () => {
    const r = parseEvaYaml('/x.yaml', 'a: {b: 0, b: {c: 0, c: 0}}\n');
    assert.equal(r.ok ? '' : r.message, 'failed to parse YAML: a: duplicate entry with key "b" at line 1 column 4');
  });

  it('reports a syntax error after a repeated key, as serde_yaml does: the document must parse before its keys are read', () => {
    const r = parseEvaYaml('/x.yaml', 'a: 1\na: 2\nb: [\n');
    assert.ok(!r.ok);
    assert.doesNotMatch(r.message, /duplicate/);
    assert.equal(r.line, 4);
  });
});

/**
 * A sequence or mapping as a key (`? [a]`): serde_yaml reads it into a `Value` as deep as any
 * value (de.rs `next_key_seed`), with its refusals and limits, and two keys are one when their
 * values are equal (`Value`'s equality: a mapping's order does not count, a string is not a number).
 */
describe('Eva YAML collection keys as serde_yaml reads them', () => {
  const refusal = (text: string) => {
    const r = parseEvaYaml('/x.yaml', text);
    return r.ok ? undefined : r.message;
  };

  it("refuses what serde_yaml refuses inside a key: a repeated key, a number too wide, a core tag's misfit, an unknown anchor", () => {
    assert.match(refusal('? {a: 1, a: 2}\n: x\n') ?? '', /^failed to parse YAML: duplicate entry with key "a"/);
    assert.match(
      refusal('? [18446744073709551616]\n: x\n') ?? '',
      /invalid type: integer `18446744073709551616` as u128/,
    );
    assert.match(refusal('? [!!int x]\n: x\n') ?? '', /invalid value: string "x", expected an integer/);
    assert.match(refusal('? [*y]\n: x\n') ?? '', /unknown anchor/);
  });

  it('refuses a key that holds the alias of a node around it: serde_yaml reads it until its recursion limit', () => {
    assert.match(refusal('&x [{*x: 1}]\n') ?? '', /recursion limit exceeded/);
    assert.match(refusal('a: &x {b: {*x : 1}}\n') ?? '', /recursion limit exceeded/);
  });

  it("tells collection keys apart by serde_yaml's Value equality", () => {
    assert.equal(refusal('? [1]\n: 1\n? [1.0]\n: 2\n'), undefined, 'an integer is not a float');
    assert.match(refusal('? [a]\n: 1\n? ["a"]\n: 2\n') ?? '', /duplicate entry in YAML map/);
    assert.match(refusal('? {a: 1, b: 2}\n: 1\n? {b: 2, a: 1}\n: 2\n') ?? '', /duplicate entry in YAML map/);
    assert.match(refusal('a: &k [1]\n? *k\n: 2\n? [1]\n: 3\n') ?? '', /duplicate entry in YAML map/);
    assert.equal(refusal('? !t [a]\n: 1\n? [a]\n: 2\n'), undefined, 'a tagged value is not the value under it');
  });
});
