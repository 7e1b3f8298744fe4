import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { loadCodewhaleBundle } from '../../src/core/systems/codewhale/bundle';
import type { CodewhaleBundle } from '../../src/core/systems/codewhale/codewhaleBundle';
import { summarizedInventory } from '../../src/core/systems/codewhale/inventory';
import { REPORT_INPUT } from '../../src/core/documents/parseContext';
import { keyOf } from '../../src/core/documents/located';
import { Fixture, LINUX_HOST } from './helpers/fixture';
import { v8Probe } from './helpers/v8Probe';

/**
 * Objects the index makes by the thousand share one hidden class per form
 * (docs/memory.md, "One hidden class per bundle"): Codewhale bundles and their
 * summarized inventories, zod's copies of the parse context, the places of keys. V8 gives
 * every object made by spreading another and adding keys a class of its own, which cost
 * 11 MB and shapes by the thousand at 10,000 bundles, and left the code reading them
 * missing its inline caches. Asked of V8 itself (`%HaveSameMap`, allowed for this file's
 * probe only).
 */
describe('Bundles, parse contexts and key places share hidden classes (docs/memory.md)', () => {
  let f: Fixture;
  let sameMap: (a: unknown, b: unknown) => boolean;
  before(() => {
    sameMap = v8Probe<typeof sameMap>(['a', 'b'], 'return %HaveSameMap(a, b)');
  });
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const load = (name: string, under = 'plugins'): CodewhaleBundle =>
    loadCodewhaleBundle(f.path(`${under}/${name}`), 'plugin.toml', {
      scope: 'workspace',
      canonicalDiscoveryRoot: f.path(under),
      host: LINUX_HOST,
    });

  const manifest = (name: string) =>
    `schema_version = 1\n[plugin]\nname = "${name}"\nversion = "1.0.0"\n[skills]\npath = "skills"\n`;

  it('tells two shapes apart (the probe is not a constant)', () => {
    assert.equal(sameMap({ a: 'x' }, { a: 'y' }), true);
    assert.equal(sameMap({ a: 'x' }, { b: 'x' }), false);
  });

  // Enough of each for V8's inline caches to take over from its runtime, which shares
  // classes where they do not (with six, a spread put back in the valid bundle passed),
  // and may give its first copies a class of their own: the later half must share one.
  const NAMES = Array.from({ length: 24 }, (_, i) => `b${i}`);
  const oneClass = (objects: readonly unknown[]) => {
    const later = objects.slice(objects.length / 2);
    return later.length > 1 && later.every((o) => sameMap(o, later[0]));
  };

  it('gives valid bundles, and their inventories with a summary, one class each', () => {
    for (const name of NAMES) {
      f.write(`plugins/${name}/plugin.toml`, manifest(name));
      f.write(`plugins/${name}/skills/s/SKILL.md`, '---\nname: s\ndescription: d\n---\n');
    }
    const bundles = NAMES.map((name) => load(name));
    assert.ok(bundles.every((b) => b.valid));
    assert.equal(oneClass(bundles), true);
    const inventories = bundles.map((b) => b.inventory).filter((i) => i !== undefined);
    assert.equal(inventories.length, NAMES.length);
    assert.equal(oneClass(inventories.map((i) => summarizedInventory(i))), true);
  });

  it("gives zod's copies of the parse context, and the places of keys, one class each", () => {
    // zod's safeParse copies the context it is given as `{ ...ctx, async: false }`.
    assert.equal(oneClass(NAMES.map(() => ({ ...REPORT_INPUT, async: false }))), true);
    assert.equal(oneClass(NAMES.map((name) => keyOf({ file: name, path: [name] }))), true);
  });

  it('gives invalid bundles one class, whatever the refusal keeps of them', () => {
    // A manifest that does not parse keeps nothing of it; a link in the content keeps the manifest, its inventory…
    for (const name of NAMES) f.write(`unparsed/${name}/plugin.toml`, 'schema_version = [\n');
    for (const name of NAMES) {
      f.write(`plugins/${name}/plugin.toml`, manifest(name));
      fs.symlinkSync('plugin.toml', f.path(`plugins/${name}/link`));
    }
    const unparsed = NAMES.map((name) => load(name, 'unparsed'));
    const linked = NAMES.map((name) => load(name));
    assert.ok([...unparsed, ...linked].every((b) => !b.valid));
    assert.ok(linked.every((b) => b.capabilities && b.diagnostics.some((d) => d.code === 'codewhale.content.symlink')));
    assert.equal(oneClass(unparsed), true);
    assert.equal(oneClass(linked), true);
  });
});
