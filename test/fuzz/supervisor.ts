import { fork, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { endedMidInput, type InputInFlight } from './endedMidInput';
import { INVARIANTS, type Failure, type Invariant } from './invariants';
import { PROJECT_ROOT, type FuzzInput } from './input';
import type { FromWorker, MinimalRepro, ToWorker } from './protocol';

export interface FuzzOptions {
  readonly seed: string;
  readonly runs: number;
  /** First input index (to continue a run or split one across machines). */
  readonly from?: number;
  readonly jobs: number;
  /** Soft bound per input (the `bounded-time` invariant). */
  readonly timeLimitMs: number;
  /** A worker silent for this long on one input is killed and the input reported as a hang. */
  readonly hangMs: number;
  /** Candidate inputs tried per new failure kind to find a smaller reproducer; 0: none. */
  readonly shrinkAttempts: number;
  readonly onProgress?: (done: number, failing: number, elapsedMs: number) => void;
  /** Ends the run early: no input is started after it, those in flight are finished. */
  readonly stop?: AbortSignal;
  /** Ends it at once: the workers are killed, the inputs in flight neither run nor failed (`cutShort`). */
  readonly abandon?: AbortSignal;
  /** Starts one worker process: `worker.ts`, or in unit tests a stand-in speaking its protocol. */
  readonly startWorker?: () => ChildProcess;
}

export interface FailureGroup {
  readonly invariant: Invariant;
  readonly signature: string;
  /** Inputs that failed this way (index), first few. */
  readonly inputs: number[];
  count: number;
  detail: string;
  minimal: FuzzInput | null;
}

export interface FuzzReport {
  readonly seed: string;
  readonly inputs: number;
  readonly elapsedMs: number;
  readonly failingInputs: number;
  /** Inputs in flight when the run was abandoned: not counted in `inputs`. */
  readonly cutShort: number;
  readonly groups: FailureGroup[];
}

const WORKER = path.join(__dirname, 'worker.ts');

/** Forks a worker script (`worker.ts` unless a unit test gives its stand-in). */
export function forkWorker(script = WORKER): ChildProcess {
  // The worker is TypeScript: run it with tsx's loader, whatever started the supervisor.
  return fork(script, [], {
    cwd: PROJECT_ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, SKILLGATE_DEBUG: '' },
  });
}

/** Runs inputs `from … from+runs-1` of `seed` over `jobs` worker processes. */
export function runFuzz(o: FuzzOptions): Promise<FuzzReport> {
  const started = performance.now();
  const from = o.from ?? 0;
  const end = from + o.runs;
  let next = from;
  let done = 0;
  let failingInputs = 0;
  let cutShort = 0;
  const stopped = () => o.stop?.aborted === true || o.abandon?.aborted === true;
  const groups = new Map<string, FailureGroup>();
  const record = (
    index: number,
    failures: readonly Failure[],
    minimal: readonly MinimalRepro[],
    input: FuzzInput | undefined,
  ) => {
    done++;
    if (failures.length) failingInputs++;
    for (const f of failures) {
      const key = `${f.invariant}\0${f.signature}`;
      let g = groups.get(key);
      if (!g) {
        g = {
          invariant: f.invariant,
          signature: f.signature,
          inputs: [],
          count: 0,
          detail: f.detail,
          minimal: f.invariant === 'bounded-time' ? (input ?? null) : null,
        };
        groups.set(key, g);
      }
      g.count++;
      if (g.inputs.length < 5) g.inputs.push(index);
    }
    for (const m of minimal) {
      const g = groups.get(`${m.invariant}\0${m.signature}`);
      if (g && g.minimal === null) {
        g.minimal = m.input;
        g.detail = m.detail;
      }
    }
    o.onProgress?.(done, failingInputs, performance.now() - started);
  };

  return new Promise((resolve) => {
    let live = 0;
    const finish = () => {
      if (live > 0) return;
      resolve({
        seed: o.seed,
        inputs: done,
        elapsedMs: performance.now() - started,
        failingInputs,
        cutShort,
        groups: [...groups.values()].sort((a, b) => a.invariant.localeCompare(b.invariant) || b.count - a.count),
      });
    };
    const spawn = () => {
      if (next >= end) return;
      live++;
      const w = (o.startWorker ?? forkWorker)();
      let current: InputInFlight | undefined;
      let scratch: string | undefined;
      const abandon = () => {
        if (current) cutShort++;
        current = undefined;
        w.kill('SIGKILL');
      };
      o.abandon?.addEventListener('abort', abandon);
      const give = () => {
        if (next >= end || stopped()) {
          current = undefined;
          w.send({ type: 'exit' } satisfies ToWorker);
          return;
        }
        current = { index: next++, since: performance.now() };
        w.send({
          type: 'input',
          seed: o.seed,
          index: current.index,
          timeLimitMs: o.timeLimitMs,
          shrinkAttempts: o.shrinkAttempts,
          shrinkMs: shrinkBudgetMs(o.hangMs),
        } satisfies ToWorker);
      };
      const watchdog = setInterval(() => {
        if (current && performance.now() - current.since > o.hangMs) {
          const hung = current;
          current = undefined;
          const { failures, minimal } = endedMidInput(hung, { by: 'watchdog', hangMs: o.hangMs });
          record(hung.index, failures, minimal, hung.input);
          w.kill('SIGKILL');
        }
      }, 250);
      w.on('message', (m: FromWorker) => {
        if (m.type === 'ready') {
          scratch = m.scratch;
          give();
        } else if (m.type === 'generated' && current?.index === m.index) {
          current.input = m.input;
          current.since = performance.now();
        } else if (m.type === 'checked' && current?.index === m.index) {
          // Shrinking starts: its own time, as the input's check had.
          current.failures = m.failures;
          current.since = performance.now();
        } else if (m.type === 'candidate' && current?.index === m.index) {
          current.candidate = m.input;
        } else if (m.type === 'done' && current?.index === m.index) {
          record(m.index, m.failures, m.minimal, current.input);
          give();
        }
      });
      w.on('exit', (code, signal) => {
        clearInterval(watchdog);
        o.abandon?.removeEventListener('abort', abandon);
        live--;
        // A killed worker leaves its scratch directory behind.
        if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
        if (current) {
          // The worker died on this input: a crash of the process itself, not a failed command.
          const { failures, minimal } = endedMidInput(current, { by: 'death', cause: String(signal ?? code) });
          record(current.index, failures, minimal, current.input);
          current = undefined;
        }
        if (next < end && !stopped()) spawn();
        finish();
      });
    };
    for (let i = 0; i < Math.max(1, o.jobs); i++) spawn();
  });
}

/**
 * How long a worker may shrink an input's failures: half the watchdog's window, which starts again
 * once the input is checked, so a candidate started just before this ends still has as long again.
 */
function shrinkBudgetMs(hangMs: number): number {
  return hangMs / 2;
}

function clip(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}…(${text.length} characters)` : text;
}

/** An input as a reproducer: the parts that matter, long generated texts clipped. */
export function inputText(input: FuzzInput): string {
  const shown = {
    ...input,
    rivumi: input.rivumi.map((f) => ({ ...f, text: clip(f.text) })),
    ...(input.shapes
      ? {
          shapes: input.shapes.map((s) => ({
            ...s,
            entries: s.entries.map((e) => (e.kind === 'file' ? { ...e, text: clip(e.text, 160) } : e)),
          })),
        }
      : {}),
  };
  return JSON.stringify(shown, null, 2);
}

export function formatReport(r: FuzzReport): string {
  const rate = r.inputs / (r.elapsedMs / 1000);
  const cutShort = r.cutShort ? `, ${r.cutShort} input(s) cut short by a stop` : '';
  const lines = [
    `fuzz: seed ${JSON.stringify(r.seed)}, ${r.inputs} inputs in ${(r.elapsedMs / 1000).toFixed(1)} s (${rate.toFixed(1)} inputs/s), ${r.failingInputs} failing input(s)${cutShort}`,
  ];
  const byInvariant = new Map<Invariant, number>();
  for (const g of r.groups) byInvariant.set(g.invariant, (byInvariant.get(g.invariant) ?? 0) + g.count);
  for (const inv of Object.keys(INVARIANTS) as Invariant[])
    lines.push(`  ${byInvariant.has(inv) ? 'FAIL' : 'ok  '} ${inv.padEnd(26)} ${byInvariant.get(inv) ?? 0}`);
  for (const g of r.groups) {
    lines.push(
      '',
      `FAIL ${g.invariant} [${g.signature}]: ${g.count} time(s), inputs ${g.inputs.join(', ')}${g.count > g.inputs.length ? ', …' : ''}`,
    );
    lines.push(`  invariant: ${INVARIANTS[g.invariant]}`);
    lines.push(`  ${g.detail}`);
    lines.push(`  replay: npm run fuzz -- --seed=${JSON.stringify(r.seed)} --replay=${g.inputs[0]}`);
    if (g.minimal)
      lines.push(
        `  ${g.invariant === 'bounded-time' ? 'input' : 'minimal input'}:`,
        inputText(g.minimal).replace(/^/gm, '    '),
      );
  }
  return lines.join('\n');
}
