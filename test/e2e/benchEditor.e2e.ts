import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

/**
 * `npm run bench:editor` at a small size, for correctness only (its figures are read
 * from the README's runs, never asserted as times): both ways of indexing report every
 * figure from a real workbench, and the worker runs are indexed in the worker.
 */
describe('the editor benchmark (packaged VSIX, code-server + Chromium)', function () {
  this.timeout(600000);

  it('reports activate(), the first complete tree, the longest stall and where the cores went, with the worker and in-host (5 bundles)', () => {
    const out = execFileSync(
      process.execPath,
      [
        path.resolve(__dirname, '../../node_modules/tsx/dist/cli.mjs'),
        path.resolve(__dirname, '../../bench/editorBench.ts'),
        '--bundles=5',
        '--in-host',
        '--json',
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const r = JSON.parse(out) as {
      bundles: number;
      cliColdMs: number;
      editor: Record<
        string,
        Record<string, number> & {
          indexedIn: string[];
          machineCpu: { spanMs: number; availableMs: number; parts: Record<string, number> } | null;
        }
      >;
    };
    assert.equal(r.bundles, 5);
    assert.ok(r.cliColdMs > 0);
    assert.deepEqual(Object.keys(r.editor), ['worker', 'extension host']);
    for (const [mode, figures] of Object.entries(r.editor)) {
      assert.deepEqual(figures.indexedIn, [mode]);
      for (const k of ['activationMs', 'firstTreeMs', 'fullIndexMs', 'ratio'])
        assert.ok(Number.isFinite(figures[k]) && (figures[k] as number) > 0, `${mode} ${k}: ${figures[k]}`);
      assert.ok(Number.isFinite(figures.longestStallMs) && (figures.longestStallMs as number) >= 0);
      // Where the cores went from activation to the first tree: this suite runs on Linux, where /proc tells it.
      const cpu = figures.machineCpu;
      assert.ok(cpu, `${mode}: no machine CPU`);
      assert.ok(cpu.spanMs >= (figures.firstTreeMs as number) && cpu.availableMs > cpu.spanMs, JSON.stringify(cpu));
      assert.ok((cpu.parts['extension host: main thread'] ?? 0) > 0, JSON.stringify(cpu));
    }
  });
});
