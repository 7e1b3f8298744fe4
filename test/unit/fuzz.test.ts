import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import matter from 'gray-matter';
import { formatReport, runFuzz } from '../fuzz/supervisor';
import { INVARIANTS } from '../fuzz/invariants';
import { ENGINE_FENCES, SENTINEL_ENV, SENTINEL_GLOBAL } from '../fuzz/payloads';

/**
 * A short, fixed-seed slice of the fuzz harness (test/fuzz): mutated corpus bundles and
 * random `.rivumi/` trees through the real CLI. `npm run fuzz -- --runs=100000` is the
 * long run. A failure prints, per invariant and kind, the seed, the input index to
 * replay and a shrunk input.
 */
describe('fuzz: a seeded slice of hostile repositories', function () {
  // A guard against a run that never ends, not a time bound: each input has its own (`hangMs`), and
  // the slice takes a few minutes alone, and more than four on a machine busy with other work.
  this.timeout(600000);

  it('plants live payloads: gray-matter with its default engines runs the `---js` front matter the inputs carry, and the sentinel shows it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-sentinel-'));
    const g = globalThis as Record<string, unknown>;
    const saved = process.env[SENTINEL_ENV];
    try {
      process.env[SENTINEL_ENV] = path.join(dir, 'sentinel');
      const js = ENGINE_FENCES[0] as (typeof ENGINE_FENCES)[number];
      matter(`${js.fence}\n${js.block}\n---\nbody\n`);
      assert.equal(g[SENTINEL_GLOBAL], 'js');
      assert.equal(fs.existsSync(path.join(dir, 'sentinel')), true);
    } finally {
      delete g[SENTINEL_GLOBAL];
      if (saved === undefined) delete process.env[SENTINEL_ENV];
      else process.env[SENTINEL_ENV] = saved;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it(`keeps every invariant (${Object.keys(INVARIANTS).join(', ')}) on 300 inputs of seed "skillgate-ci"`, async () => {
    const report = await runFuzz({
      seed: 'skillgate-ci',
      runs: 300,
      jobs: 2,
      timeLimitMs: 10000,
      // As `npm run fuzz` by default: a wall-clock guard (the time bound is `timeLimitMs`, in CPU time), which
      // an input of 500 user skill folders passed at 30 s on a machine busy with other work.
      hangMs: 60000,
      shrinkAttempts: 40,
    });
    assert.equal(report.inputs, 300);
    assert.equal(report.groups.length, 0, formatReport(report));
  });
});
