import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

/**
 * `npm run bench` at a small size, for correctness only (its figures are read from the
 * README's runs, never asserted as times): every figure is measured and the workspace
 * it generates is indexed whole.
 */
describe('the benchmark', () => {
  it('measures every figure against the baseline in one run (10 bundles, one run each)', function () {
    this.timeout(120000);
    const out = execFileSync(
      process.execPath,
      [path.resolve(__dirname, '../../dist/bench.js'), '--bundles=10', '--runs=1', '--json'],
      { encoding: 'utf8' },
    );
    const r = JSON.parse(out) as Record<string, number> & {
      breakdown: Record<string, number>;
      cpu: { baselineMs: number; coldMs: number; coldRatio: number | null; warmMs: number; warmRatio: number | null };
    };
    assert.equal(r.bundles, 10);
    assert.ok((r.items ?? 0) > 10 && (r.files ?? 0) > 100, JSON.stringify(r));
    for (const k of [
      'baselineMs',
      'coldCliMs',
      'coldRatio',
      'warmCliMs',
      'warmRatio',
      'reindexOneMs',
      'reindexEditorMs',
      'peakRssMb',
    ] as const)
      assert.ok(Number.isFinite(r[k]) && (r[k] as number) > 0, `${k}: ${r[k]}`);
    for (const [k, v] of Object.entries(r.breakdown)) assert.ok(Number.isFinite(v) && v >= 0, `${k}: ${v}`);
    // CPU time of each run's processes (Linux keeps it for waited-for children): a Node process spends more than a tick.
    assert.ok(r.cpu, 'CPU times are measured on Linux');
    assert.ok(r.cpu.baselineMs >= 0 && r.cpu.coldMs > 0 && r.cpu.warmMs > 0, JSON.stringify(r.cpu));
    for (const ratio of [r.cpu.coldRatio, r.cpu.warmRatio])
      assert.ok(ratio === null || ratio > 0, JSON.stringify(r.cpu));
  });
});
