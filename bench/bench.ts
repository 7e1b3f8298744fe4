import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Indexer } from '../src/core/index/indexer';
import { generateWorkspace } from './syntheticWorkspace';

/**
 * `npm run bench`: the indexer against a baseline that reads and SHA-256-hashes the
 * same bytes with `sha256sum`, in the same run, on the same warm page cache.
 * Targets (issue 2): cold index within 2x of the baseline; one-bundle re-index < 50 ms.
 */
const json = process.argv.includes('--json');
const bundleArg = process.argv.find((a) => a.startsWith('--bundles='));
const bundles = bundleArg ? Number(bundleArg.slice('--bundles='.length)) : 2000;
const root = path.join(os.tmpdir(), `skillgate-bench-${process.pid}`);

const gen = generateWorkspace(root, bundles);
const bytes = gen.files.reduce((n, f) => n + fs.statSync(f).size, 0);

// Baseline: sha256sum over every file (file list on stdin, NUL-separated).
const baseline = () => {
  const t = performance.now();
  execFileSync('xargs', ['-0', 'sha256sum'], { input: gen.files.join('\0'), maxBuffer: 256 * 1024 * 1024, stdio: ['pipe', 'ignore', 'inherit'] });
  return performance.now() - t;
};
baseline(); // warm the page cache for both sides

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const baselineMs = median([baseline(), baseline(), baseline()]);

const indexer = new Indexer({ workspaces: [root], codewhaleHome: null });
let t = performance.now();
const snapshot = indexer.indexAll();
const coldIndexMs = performance.now() - t;

const changed = path.join(root, '.codewhale/plugins/plugin-00042/skills/skill-1/SKILL.md');
const reindex: number[] = [];
for (let i = 0; i < 5; i++) {
  fs.appendFileSync(changed, `\nedit ${i}\n`);
  t = performance.now();
  indexer.refresh([changed]);
  reindex.push(performance.now() - t);
}
const reindexOneMs = median(reindex);
const peakRssMb = process.resourceUsage().maxRSS / 1024;

const result = {
  coldIndexMs: round(coldIndexMs),
  baselineMs: round(baselineMs),
  ratio: round(coldIndexMs / baselineMs),
  reindexOneMs: round(reindexOneMs),
  peakRssMb: round(peakRssMb),
  bundles,
  files: gen.files.length,
  bytes,
  items: snapshot.items.length,
  diagnostics: snapshot.diagnostics.length,
};
fs.rmSync(root, { recursive: true, force: true });

if (json) process.stdout.write(JSON.stringify(result) + '\n');
else {
  process.stdout.write(
    [
      `Synthetic workspace: ${bundles} Codewhale bundles, ${result.files} files, ${(bytes / 1048576).toFixed(1)} MiB; ${result.items} items, ${result.diagnostics} diagnostics`,
      `cold index           ${result.coldIndexMs} ms`,
      `baseline (sha256sum) ${result.baselineMs} ms`,
      `ratio                ${result.ratio}x   (target ≤ 2x)  ${result.ratio <= 2 ? 'ok' : 'OVER'}`,
      `re-index one bundle  ${result.reindexOneMs} ms   (target < 50 ms)  ${result.reindexOneMs < 50 ? 'ok' : 'OVER'}`,
      `peak RSS             ${result.peakRssMb} MiB`,
      '',
    ].join('\n'),
  );
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}
