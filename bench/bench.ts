import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Indexer } from '../src/core/index/indexer';
import { hashBundleContent } from '../src/core/hashing/bundleContent';
import { generateWorkspace } from './syntheticWorkspace';

/**
 * `npm run bench`: the indexer against a baseline that reads and SHA-256-hashes the
 * same bytes with `sha256sum`, in the same run, on the same warm page cache.
 * Targets (issue 2): cold index within 2x of the baseline; one-bundle re-index < 50 ms.
 *
 * Every cold figure is the median of three fresh Node processes: a process that has
 * indexed once has compiled and optimized its code and is no longer cold. Besides the
 * target figures it reports where the time goes: the content walk alone (list, open,
 * read and hash every bundle file the way the indexer does, without parsing anything).
 */
const measure = process.argv.find((a) => a.startsWith('--measure='))?.slice('--measure='.length);

if (measure) process.stdout.write(`${measureOnce(measure, argValue('--root') ?? '')}\n`);
else void main();

async function main(): Promise<void> {
  const json = process.argv.includes('--json');
  const bundles = Number(argValue('--bundles') ?? 2000);
  const root = path.join(os.tmpdir(), `skillgate-bench-${process.pid}`);
  const gen = generateWorkspace(root, bundles);
  const bytes = gen.files.reduce((n, f) => n + fs.statSync(f).size, 0);

  // Baseline: sha256sum over every file (file list on stdin, NUL-separated).
  const baseline = () => {
    const t = performance.now();
    execFileSync('xargs', ['-0', 'sha256sum'], { input: gen.files.join('\0'), maxBuffer: 256 * 1024 * 1024, stdio: ['pipe', 'ignore', 'inherit'] });
    return performance.now() - t;
  };
  baseline(); // warm the page cache for every measurement
  const cold = (what: string) => Number(execFileSync(process.execPath, [__filename, `--measure=${what}`, `--root=${root}`], { encoding: 'utf8' }).trim());
  // Interleaved, so a slow spell of the machine falls on every figure alike.
  const runs = { baseline: [] as number[], index: [] as number[], walk: [] as number[] };
  for (let i = 0; i < 3; i++) {
    runs.baseline.push(baseline());
    runs.index.push(cold('index'));
    runs.walk.push(cold('content-walk'));
  }
  const baselineMs = median(runs.baseline);
  const coldIndexMs = median(runs.index);

  // Re-index after one bundle changes, in this process, on an indexer that has the rest.
  const indexer = new Indexer({ workspaces: [root], codewhaleHome: null });
  const snapshot = indexer.indexAll();
  const changed = path.join(root, '.codewhale/plugins/plugin-00042/skills/skill-1/SKILL.md');
  const reindex: number[] = [];
  for (let i = 0; i < 5; i++) {
    fs.appendFileSync(changed, `\nedit ${i}\n`);
    const t = performance.now();
    indexer.refresh([changed]);
    reindex.push(performance.now() - t);
  }
  const result = {
    coldIndexMs: round(coldIndexMs),
    baselineMs: round(baselineMs),
    ratio: round(coldIndexMs / baselineMs),
    reindexOneMs: round(median(reindex)),
    peakRssMb: round(process.resourceUsage().maxRSS / 1024),
    bundles,
    files: gen.files.length,
    bytes,
    items: snapshot.items.length,
    diagnostics: snapshot.diagnostics.length,
    contentWalkMs: round(median(runs.walk)),
    cores: os.availableParallelism(),
  };
  fs.rmSync(root, { recursive: true, force: true });

  if (json) process.stdout.write(JSON.stringify(result) + '\n');
  else {
    process.stdout.write(
      [
        `Synthetic workspace: ${bundles} Codewhale bundles, ${result.files} files, ${(bytes / 1048576).toFixed(1)} MiB; ${result.items} items, ${result.diagnostics} diagnostics; ${result.cores} cores`,
        `cold index           ${result.coldIndexMs} ms`,
        `baseline (sha256sum) ${result.baselineMs} ms`,
        `ratio                ${result.ratio}x   (target ≤ 2x)  ${result.ratio <= 2 ? 'ok' : 'OVER'}`,
        `re-index one bundle  ${result.reindexOneMs} ms   (target < 50 ms)  ${result.reindexOneMs < 50 ? 'ok' : 'OVER'}`,
        `peak RSS             ${result.peakRssMb} MiB`,
        `where the time goes:`,
        `  content walk alone (no parsing)  ${result.contentWalkMs} ms   (${round(result.contentWalkMs / baselineMs)}x the baseline)`,
        `  parse, validate, decide          ${round(result.coldIndexMs - result.contentWalkMs)} ms`,
        '',
      ].join('\n'),
    );
  }
}

/** One cold measurement in this fresh process. */
function measureOnce(what: string, root: string): number {
  const t = performance.now();
  if (what === 'index') new Indexer({ workspaces: [root], codewhaleHome: null }).indexAll();
  else if (what === 'content-walk') {
    const plugins = path.join(root, '.codewhale', 'plugins');
    for (const name of fs.readdirSync(plugins)) {
      const dir = path.join(plugins, name);
      hashBundleContent(dir, 'plugin.json', fs.readFileSync(path.join(dir, 'plugin.json')), () => false);
    }
  } else throw new Error(`unknown measurement ${what}`);
  return round(performance.now() - t);
}

function argValue(name: string): string | undefined {
  return process.argv.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
}

function median(xs: readonly number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}
