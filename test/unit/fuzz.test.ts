import { strict as assert } from 'node:assert';
import { formatReport, runFuzz } from '../fuzz/supervisor';
import { INVARIANTS } from '../fuzz/invariants';

/**
 * A short, fixed-seed slice of the fuzz harness (test/fuzz): mutated corpus bundles and
 * random `.rivumi/` trees through the real CLI. `npm run fuzz -- --runs=100000` is the
 * long run. A failure prints, per invariant and kind, the seed, the input index to
 * replay and a shrunk input.
 */
describe('fuzz: a seeded slice of hostile repositories', function () {
  this.timeout(240000);

  it(`keeps every invariant (${Object.keys(INVARIANTS).join(', ')}) on 300 inputs of seed "skillgate-ci"`, async () => {
    const report = await runFuzz({ seed: 'skillgate-ci', runs: 300, jobs: 2, timeLimitMs: 10000, hangMs: 30000, shrinkAttempts: 40 });
    assert.equal(report.inputs, 300);
    assert.equal(report.groups.length, 0, formatReport(report));
  });
});
