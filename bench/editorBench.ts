import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PROJECT_ROOT, installVsix, startCodeServer } from '../test/support/codeServer';
import { skillgateActivity } from '../test/support/treeView';
import { freshProfile, launchBrowser, openWorkbench } from '../test/support/workbench';
import { CODE_DIR } from '../src/core/cache/codeCache';
import type { EditorFigures } from '../src/extension/flows/hostPerf';
import { CPU_PARTS, CpuSampler, cpuOver, type CpuPart, type CpuSpan } from './machineCpu';
import { generateWorkspace } from './syntheticWorkspace';
import { ratioUp } from './ratio';

/**
 * `npm run bench:editor [-- --bundles=N] [-- --runs=N] [-- --in-host] [-- --vsix=P] [-- --json]`: the
 * editor's figures of issue 15, in a real workbench (code-server + Chromium) with the
 * packaged VSIX, on the benchmark's synthetic workspace: activate(), activation → first
 * complete tree, and the longest extension-host stall while indexing, each as the
 * extension measures it (SKILLGATE_PERF_FILE, flows/hostPerf.ts); beside them the CLI's
 * cold `list --json` on the same workspace, measured in the same run, and the ratio.
 * `--in-host` also runs the editor with the index in the extension host
 * (SKILLGATE_INDEX_IN_HOST=1, the fallback), interleaved with the worker runs.
 * Medians over the runs. `--vsix=<path>` measures another package (an older build, to
 * compare: run old and new alternately on a loaded machine). Each run has a fresh profile
 * (an empty parse cache, as the CLI's cold runs) but for the index worker's code cache of
 * the core, left by an uncounted first run (as the CLI's runs find theirs). On Linux it
 * also tells where the machine's cores went from activation to the first tree
 * (bench/machineCpu.ts): the index's threads beside VS Code's own start.
 */
const VSIX = path.resolve(argValue('--vsix') ?? path.join(PROJECT_ROOT, 'dist/skillgate.vsix'));
const CLI = path.join(PROJECT_ROOT, 'dist/cli.js');
/** How long one workbench may take to show its first complete tree. */
const FIGURES_TIMEOUT_MS = 10 * 60000;

type Mode = 'worker' | 'extension host';

interface ModeResult {
  readonly activationMs: number;
  readonly activationCpuMs: number;
  readonly firstTreeMs: number;
  readonly fullIndexMs: number;
  readonly longestStallMs: number;
  /** The most CPU time the extension host's thread ran in one turn (Linux): the stall an idle machine would see. */
  readonly busiestTurnCpuMs: number | null;
  /** Both from the moment every unit was loaded: what the host does with the snapshot (flows/hostPerf.ts). */
  readonly presentingStallMs: number | null;
  readonly presentingBusiestTurnCpuMs: number | null;
  /** firstTreeMs over the CLI's cold time. */
  readonly ratio: number;
  readonly indexedIn: string[];
  /** Where the cores went from activation to the first complete tree (Linux; medians of each part, in ms), or null. */
  readonly machineCpu: {
    readonly spanMs: number;
    readonly availableMs: number;
    readonly parts: Record<CpuPart, number>;
  } | null;
}

interface EditorRun {
  readonly figures: EditorFigures;
  readonly cpu: CpuSpan | undefined;
}

async function main(): Promise<void> {
  const json = process.argv.includes('--json');
  const bundles = Number(argValue('--bundles') ?? 2000);
  const runs = Number(argValue('--runs') ?? 1);
  const modes: Mode[] = process.argv.includes('--in-host') ? ['worker', 'extension host'] : ['worker'];
  if (!fs.existsSync(VSIX) || !fs.existsSync(CLI)) throw new Error('run `npm run package` first');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-bench-editor-'));
  try {
    const workspace = path.join(root, 'workspace');
    const gen = generateWorkspace(workspace, bundles);
    const cli: number[] = [];
    const figures = new Map<Mode, EditorRun[]>(modes.map((m) => [m, []]));
    cli.push(cliCold(workspace, root)); // warms the page cache, as `npm run bench` does; not counted
    cli.length = 0;
    // Leaves the installation's code cache of the core, which every counted run starts with (as
    // every counted CLI run finds the CLI's): its parse cache, in the fresh profile, stays empty. Not counted.
    const codeCache = path.join(root, 'code-cache');
    await editorRun(workspace, path.join(root, 'warm-up'), 'worker', codeCache);
    for (let i = 0; i < runs; i++) {
      for (const mode of modes) {
        cli.push(cliCold(workspace, root));
        figures
          .get(mode)
          ?.push(await editorRun(workspace, path.join(root, `run-${i}-${mode.replace(' ', '-')}`), mode, codeCache));
      }
    }
    const cliColdMs = round(median(cli));
    const result = {
      bundles,
      files: gen.files.length,
      runs,
      cliColdMs,
      editor: Object.fromEntries(
        [...figures].map(([mode, done]): [Mode, ModeResult] => {
          const taken = done.map((r) => r.figures);
          return [
            mode,
            {
              activationMs: round(median(taken.map((f) => f.activationMs))),
              activationCpuMs: round(median(taken.map((f) => f.activationCpuMs))),
              firstTreeMs: round(median(taken.map((f) => f.firstTreeMs))),
              fullIndexMs: round(median(taken.map((f) => f.fullIndexMs))),
              longestStallMs: round(median(taken.map((f) => f.longestStallMs))),
              busiestTurnCpuMs: taken.every((f) => f.busiestTurnCpuMs !== undefined)
                ? round(median(taken.map((f) => f.busiestTurnCpuMs as number)))
                : null,
              presentingStallMs: taken.every((f) => f.presentingStallMs !== undefined)
                ? round(median(taken.map((f) => f.presentingStallMs as number)))
                : null,
              presentingBusiestTurnCpuMs: taken.every((f) => f.presentingBusiestTurnCpuMs !== undefined)
                ? round(median(taken.map((f) => f.presentingBusiestTurnCpuMs as number)))
                : null,
              ratio: ratioUp(median(taken.map((f) => f.firstTreeMs)) / cliColdMs),
              indexedIn: taken.map((f) => f.indexedIn),
              machineCpu: medianSpan(done.map((r) => r.cpu)),
            },
          ];
        }),
      ),
    };
    if (json) {
      process.stdout.write(JSON.stringify(result) + '\n');
      return;
    }
    const verdict = (ok: boolean) => (ok ? 'ok' : 'OVER');
    const lines = [
      `Synthetic workspace: ${bundles} bundles, ${gen.files.length} files; ${runs} run(s), medians`,
      `cold CLI list --json (fresh process)          ${cliColdMs} ms`,
    ];
    for (const [mode, r] of Object.entries(result.editor)) {
      lines.push(
        `editor, index in the ${mode}:`,
        `  activate()                                 ${r.activationMs} ms (CPU ${r.activationCpuMs} ms)   (target ≤ 20 ms)  ${verdict(r.activationMs <= 20)}`,
        `  activation → first complete tree           ${r.firstTreeMs} ms   ${r.ratio}x the CLI   (target ≤ 1.5x)  ${verdict(r.ratio <= 1.5)}`,
        `  of which the full index                    ${r.fullIndexMs} ms`,
        `  longest extension-host stall while indexing ${r.longestStallMs} ms   (target ≤ 50 ms)  ${verdict(r.longestStallMs <= 50)}`,
        `    the busiest turn's CPU time                ${r.busiestTurnCpuMs ?? 'not measured here'}${r.busiestTurnCpuMs === null ? '' : ' ms'}`,
        `    from every unit loaded on (taking the snapshot in, showing it): stall ${r.presentingStallMs ?? '?'} ms, busiest turn ${r.presentingBusiestTurnCpuMs ?? '?'} ms of CPU`,
        ...machineCpuLines(r.machineCpu),
      );
    }
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/**
 * The CLI's cold `list --json` on the workspace, as a whole fresh process (as `npm run bench` measures it):
 * an empty parse cache of its own each time, as each editor run starts with a fresh profile's empty one.
 */
function cliCold(workspace: string, root: string): number {
  const cacheDir = fs.mkdtempSync(path.join(root, 'cli-cache-'));
  const t = performance.now();
  execFileSync(
    process.execPath,
    [CLI, 'list', '--json', '--no-user', '--workspace', workspace, '--cache-dir', cacheDir],
    {
      maxBuffer: 1 << 30,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, SKILLGATE_STATE_DIR: path.join(root, 'cli-state') },
    },
  );
  return performance.now() - t;
}

/**
 * One fresh workbench on the workspace with the packaged VSIX; the figures the extension
 * wrote once its first tree was complete. The profile is fresh but for the index worker's
 * code cache of the core (docs/code-cache.md), copied in from `codeCache` and back after
 * the run: it belongs to the installation, as the CLI's does, not to a workspace.
 */
async function editorRun(workspace: string, dir: string, mode: Mode, codeCache: string): Promise<EditorRun> {
  // The CLI is measured with --no-user: the editor indexes no user bundles either.
  const profile = freshProfile('bench-editor', { 'skillgate.includeUserBundles': false });
  const perfFile = path.join(dir, 'figures.json');
  fs.mkdirSync(dir, { recursive: true });
  await installVsix(VSIX, profile.extensionsDir, profile.userDataDir);
  // Where the extension keeps it: the parse cache's directory in its global storage (src/extension/extension.ts).
  const profileCodeCache = path.join(
    profile.userDataDir,
    'User/globalStorage/skillgate.skillgate/parse-cache',
    CODE_DIR,
  );
  copyPrivate(codeCache, profileCodeCache);
  const server = await startCodeServer({
    extensionsDir: profile.extensionsDir,
    userDataDir: profile.userDataDir,
    logFile: path.join(dir, 'code-server.log'),
    disableWorkspaceTrust: true,
    env: {
      SKILLGATE_PERF_FILE: perfFile,
      SKILLGATE_STATE_DIR: path.join(dir, 'state'),
      SKILLGATE_INDEX_IN_HOST: mode === 'extension host' ? '1' : '',
    },
  });
  const sampler = new CpuSampler();
  sampler.start();
  try {
    const browser = await launchBrowser();
    try {
      const page = await openWorkbench(browser, server.folderUrl(workspace));
      // The view as a user opens it: the tree is asked for its rows while the figures are taken. The
      // figures are the extension's own: a workbench too slow to take the click (a loaded machine) still gives them.
      await skillgateActivity(page)
        .click({ timeout: 60000 })
        .catch((e: unknown) => process.stderr.write(`the Skillgate view could not be opened: ${String(e)}\n`));
      const deadline = Date.now() + FIGURES_TIMEOUT_MS;
      while (!fs.existsSync(perfFile)) {
        if (Date.now() > deadline) throw new Error(`no figures from the extension; see ${server.logFile}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      const figures = JSON.parse(fs.readFileSync(perfFile, 'utf8')) as EditorFigures;
      sampler.stop();
      const cpu = cpuOver(
        sampler.samples,
        figures.activatedAt,
        figures.activatedAt + figures.firstTreeMs,
        os.cpus().length,
      );
      return { figures, cpu };
    } finally {
      await browser.close();
    }
  } finally {
    sampler.stop();
    await server.stop();
    copyPrivate(profileCodeCache, codeCache);
    fs.rmSync(profile.root, { recursive: true, force: true });
  }
}

/** Each part's median over the runs, or null when a run has none (not Linux). */
function medianSpan(spans: readonly (CpuSpan | undefined)[]): ModeResult['machineCpu'] {
  if (spans.length === 0 || spans.some((s) => s === undefined)) return null;
  const taken = spans as readonly CpuSpan[];
  const parts = Object.fromEntries(CPU_PARTS.map((p) => [p, round(median(taken.map((s) => s.parts[p])))])) as Record<
    CpuPart,
    number
  >;
  return {
    spanMs: round(median(taken.map((s) => s.spanMs))),
    availableMs: round(median(taken.map((s) => s.availableMs))),
    parts,
  };
}

/** The machine's cores from activation to the first tree, largest part first. */
function machineCpuLines(cpu: ModeResult['machineCpu']): string[] {
  if (!cpu) return [`  the machine's CPU from activation to the first tree: not measured here (Linux's /proc only)`];
  const used = CPU_PARTS.reduce((sum, p) => sum + cpu.parts[p], 0);
  const parts = CPU_PARTS.filter((p) => cpu.parts[p] > 0).sort((a, b) => cpu.parts[b] - cpu.parts[a]);
  return [
    `  the machine's CPU from activation to the first tree (medians of each part): ${round(used)} of ${cpu.availableMs} ms the cores could run in ${cpu.spanMs} ms`,
    ...parts.map((p) => `    ${p.padEnd(40)} ${cpu.parts[p]} ms`),
  ];
}

/** The code files of `from` into `to`, a directory of the user's own that nobody else can write (as the code cache requires). */
function copyPrivate(from: string, to: string): void {
  if (!fs.existsSync(from)) return;
  fs.mkdirSync(to, { recursive: true, mode: 0o700 });
  fs.chmodSync(to, 0o700);
  for (const name of fs.readdirSync(from).filter((n) => n.endsWith('.code'))) {
    fs.copyFileSync(path.join(from, name), path.join(to, name));
    fs.chmodSync(path.join(to, name), 0o600);
  }
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

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
