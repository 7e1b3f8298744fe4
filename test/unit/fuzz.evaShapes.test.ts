import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { run } from '../../src/cli/main';
import type { ContractEnvelope } from '../../src/core/report/contract';
import { EVA_USER_CAP } from '../fuzz/eva';
import { generateInput, layout, materializeBase } from '../fuzz/input';
import { Fixture } from './helpers/fixture';

/**
 * The fuzz generator reaches Eva's `kind: skill` bindings (eva.md §2.6) and Eva's cap of
 * 500 user skill folders (§1.3, §4.2 C0), so the fuzz invariants (`rejected-says-why`,
 * `not-loaded-says-why`, …) run over them and not only the unit tests. Each shape is
 * read back through `skillgate list --json` over the input's starting tree (its ops left
 * out: they may break any file, and the shapes are what the generator writes).
 */
describe('fuzz generator: Eva bindings and the user-folder cap (test/fuzz/eva.ts)', function () {
  this.timeout(120000);
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const listed = async (root: string): Promise<ContractEnvelope> => {
    const l = layout(root);
    let out = '';
    let err = '';
    const code = await run(
      ['list', '--json', '--state-dir', l.state, '--workspace', l.ws, '--codewhale-home', l.home, '--eva-home', l.home],
      { out: (t) => (out += t), err: (t) => (err += t), env: { PATH: process.env.PATH }, cwd: root },
    );
    assert.equal(code, 0, err);
    return JSON.parse(out) as ContractEnvelope;
  };

  // A seed whose first inputs hold both shapes (bindings in 12 of them, one past the cap).
  const SEED = 'fuzz-eva-84';
  const INPUTS = 40;

  it(`makes bindings of every fate and, past ${EVA_USER_CAP} user skill folders, items the cap stops, in ${INPUTS} inputs of seed "${SEED}"`, async () => {
    const fates = new Set<string>();
    const codes = new Set<string>();
    const overCap: string[] = [];
    for (let index = 0; index < INPUTS; index++) {
      const input = generateInput(SEED, index, f.mkdir(`gen-${index}`));
      fs.rmSync(f.path(`gen-${index}`), { recursive: true, force: true });
      if (!input.eva?.length && !input.evaUserSkills) continue;
      const root = f.mkdir(`base-${index}`);
      materializeBase(input, root);
      const doc = await listed(root);
      for (const i of doc.items) if (i.kind === 'skill-binding') fates.add(`${i.decision} ${i.reasons[0]}`);
      for (const d of doc.diagnostics)
        if (d.code.startsWith('eva.capability.') || d.code === 'eva.manifest.disabled') codes.add(d.code);
      if ((input.evaUserSkills?.count ?? 0) > EVA_USER_CAP)
        for (const i of doc.items.filter((i) => i.reasons[0] === 'scan_limit_exceeded'))
          overCap.push(
            doc.diagnostics.some((d) => d.itemId === i.id && d.code === 'eva.user.scan-limit') ? 'said' : i.id,
          );
      fs.rmSync(root, { recursive: true, force: true });
    }
    for (const fate of [
      'registered loaded_unreviewed',
      'disabled disabled_by_manifest',
      'display_only capability_unknown',
      'disabled bundle_inactive',
      'rejected schema_invalid',
    ])
      assert.ok(fates.has(fate), `a binding ${fate} (made: ${[...fates].join('; ')})`);
    for (const code of [
      'eva.manifest.disabled',
      'eva.capability.unknown',
      'eva.capability.provider-missing',
      'eva.capability.skill-provider-none',
      'eva.capability.skill-provider-not-skill',
    ])
      assert.ok(codes.has(code), `a diagnostic ${code} (made: ${[...codes].join(', ')})`);
    assert.ok(overCap.length > 0, `a user skill folder past Eva's cap`);
    assert.deepEqual(
      overCap.filter((s) => s !== 'said'),
      [],
    );
  });
});
