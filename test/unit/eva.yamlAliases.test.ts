import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { parseEvaYaml } from '../../src/core/systems/eva/yamlDocument';
import { cpuTime } from './helpers/cpuTime';
import { parsedYaml } from './helpers/evaYaml';

/**
 * Which node an alias names (eva.md §2.1), as serde_yaml 0.9's loader numbers anchors (yamlAnchors.ts),
 * found by a binary search over the name's anchored nodes by offset. It used to scan
 * every node of the name for each alias: a fuzz input (seed `skillgate-s44`, input 3117)
 * that named one anchor 20,000 times, with 20,000 aliases of it, took 3 s per command and
 * 49 s of CPU for its dozen.
 */
describe('Eva YAML aliases: the anchor each one names', () => {
  /** Plain data, for comparing with another parser's (mappings without a prototype, tagged values). */
  const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;

  /** A flow node: a scalar, a sequence or a mapping, anchored or not, or an alias; names from a small set so they repeat. */
  const flowNode: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom('0', '1', '2', 'w', 'x'),
      fc.constantFrom('*a', '*b'),
      fc.tuple(fc.constantFrom('&a ', '&b ', ''), tie('node')).map(([anchor, n]) => `${anchor}${n}`),
      fc.array(tie('node'), { maxLength: 4 }).map((items) => `[${items.join(', ')}]`),
      fc
        .uniqueArray(fc.tuple(fc.constantFrom('k', 'l', 'm', 'n'), tie('node')), {
          selector: ([k]) => k,
          maxLength: 3,
        })
        .map((pairs) => `{${pairs.map(([k, v]) => `${k}: ${v}`).join(', ')}}`),
    ),
  })).node;

  /**
   * A top-level value in block style: a flow node on the key's line, or a block mapping
   * whose anchor stands alone on the key's line, so that the mapping starts where its
   * first key does, with keys that may carry an anchor of their own.
   */
  const topValue: fc.Arbitrary<string> = fc.oneof(
    flowNode.map((v) => ` ${v}`),
    fc
      .tuple(
        fc.constantFrom('&a', '&b', ''),
        fc.uniqueArray(fc.tuple(fc.constantFrom('k', 'l', 'm'), fc.constantFrom('&a ', '&b ', ''), flowNode), {
          selector: ([k]) => k,
          minLength: 1,
          maxLength: 3,
        }),
      )
      .map(
        ([anchor, pairs]) =>
          `${anchor ? ` ${anchor}` : ''}\n${pairs.map(([k, a, v]) => `  ${a}${k}: ${v}`).join('\n')}`,
      ),
  );

  it('expands every alias as the yaml library does where each name is anchored once, over random documents', () => {
    fc.assert(
      fc.property(fc.array(topValue, { minLength: 1, maxLength: 6 }), (values) => {
        const text = values.map((v, i) => `f${i}:${v}`).join('\n') + '\n';
        // A name anchored twice is numbered as serde_yaml's loader numbers it, not the library's way (the case below).
        if (/&a[\s\S]*&a|&b[\s\S]*&b/.test(text)) return;
        // The reference: the yaml library's own resolution, for documents it reads to plain data
        // (no unknown anchor, no alias inside the node it names).
        let expected: unknown;
        try {
          const doc = parseDocument(text);
          if (doc.errors.length > 0) return;
          expected = plain(doc.toJS({ maxAliasCount: -1 }));
        } catch {
          return;
        }
        const r = parseEvaYaml('/x.yaml', text);
        assert.ok(r.ok, `${text}\n${r.ok ? '' : r.message}`);
        assert.deepEqual(plain(r.document.value), expected, text);
      }),
      { numRuns: 2000 },
    );
  });

  it("names the node serde_yaml 0.9's loader numbered it to: a name given again takes the next number, which the next anchor takes too", () => {
    // loader.rs gives each anchor `id = anchors.len()` (names seen so far) and keeps `aliases[id]` = the
    // last anchored node numbered `id` in the whole document; an alias keeps its name's number. Once a
    // name is given again, the number it takes is the one the next anchor takes as well.
    const v = (text: string) => plain(parsedYaml(text).value);
    assert.deepEqual(v('a: &x 1\nb: &x 2\nc: &y 3\nd: *x\n'), { a: 1, b: 2, c: 3, d: 3 });
    // Even an alias written before that next anchor: numbers are looked up once the document is read.
    assert.deepEqual(v('a: &x 1\nb: &x 2\nc: *x\nd: &y 3\n'), { a: 1, b: 2, c: 3, d: 3 });
    assert.deepEqual(v('x: [&a 0, *a, &a 1, *a, &a 2, *a]\n'), { x: [0, 0, 1, 2, 2, 2] });
    // So a manifest can show one value to a reader that takes the latest anchor and another to Eva.
    assert.deepEqual(v('_: [&off false, &off false, &on true]\nnetwork: *off\n'), {
      _: [false, false, true],
      network: true,
    });
  });

  it('names the inner node when a mapping and its first key share an offset and an anchor name: it is defined last', () => {
    // `&x` on its own line anchors the mapping, which starts where its first key, anchored `x` too, does.
    // serde_yaml reads the mapping's start, then the key: the key's anchor is the latest (and so the yaml library).
    assert.deepEqual(plain(parsedYaml('a: &x\n  &x k: v\nb: *x\n').value), { a: { k: 'v' }, b: 'k' });
    assert.deepEqual(plain(parsedYaml('a: &x\n  k: v\nb: *x\n').value), { a: { k: 'v' }, b: { k: 'v' } });
  });

  it("numbers 50,000 anchors of one name, each followed by its alias, as serde_yaml's loader does, in linear time", () => {
    const n = 50_000;
    const items: string[] = [];
    for (let i = 0; i < n; i++) items.push(`&a ${i}`, '*a');
    const { result, ms } = cpuTime(() => parsedYaml(`x: [${items.join(', ')}]\n`).value as { x: number[] });
    assert.equal(result.x.length, 2 * n);
    // The first anchor is number 0; every later one is number 1, whose node is the last of them.
    for (let i = 0; i < n; i++) {
      assert.equal(result.x[2 * i], i);
      assert.equal(result.x[2 * i + 1], i === 0 ? 0 : n - 1);
    }
    // A scan of every anchor per alias: 2.5 × 10^9 steps, minutes of CPU.
    assert.ok(ms < 15_000, `${ms} ms of CPU`);
  });

  it('finds a field among 20,000 keys written as aliases, and a missing one, without visiting the document per alias', () => {
    const n = 20_000;
    const anchors: string[] = [];
    const keys: string[] = [];
    for (let i = 0; i < n; i++) {
      anchors.push(`&k${i} a${i}`);
      keys.push(`*k${i} : v${i}`);
    }
    const doc = parsedYaml(`zz: [${anchors.join(', ')}]\n${keys.join('\n')}\n`);
    // The yaml library's Alias.resolve visits the whole document (60,000 nodes) for each alias key it passes: 20 s for 6,000.
    const { result, ms } = cpuTime(() => ({
      last: doc.literalAt([`a${n - 1}`]),
      has: doc.has(['routing']),
      missing: doc.fieldRange(['routing']),
    }));
    assert.equal(result.last, `v${n - 1}`);
    assert.equal(result.has, false);
    // A field missing at the root points at the first line.
    assert.deepEqual([result.missing.start, result.missing.end.line], [{ line: 0, character: 0 }, 0]);
    assert.ok(ms < 5_000, `${ms} ms of CPU`);
  });
});
