import { readFileSync, promises as fsp } from 'node:fs';

/**
 * The editor's own figures (issue 15): how long `activate()` took, when the first
 * complete tree was there, and the longest stall of the extension host's event loop
 * while the first full index ran. Logged to the Skillgate log; with
 * `SKILLGATE_PERF_FILE` set, also written there as JSON for `npm run bench:editor`.
 */
export interface EditorFigures {
  /** When `activate()` started, in ms since the epoch: lines the figures up with what else the machine ran (the benchmark's /proc samples). */
  readonly activatedAt: number;
  /** The body of `activate()`, in ms. */
  readonly activationMs: number;
  /** The CPU time of the process during `activate()`, in ms: on a loaded machine, the part of `activationMs` that was work. */
  readonly activationCpuMs: number;
  /** From the start of `activate()` to the first complete snapshot handed to the tree, in ms. */
  readonly firstTreeMs: number;
  /** The full index alone (worker or in-host), in ms. */
  readonly fullIndexMs: number;
  /** The longest the extension host's event loop was held from the start of the first index until the tree was served, in ms. */
  readonly longestStallMs: number;
  /**
   * The most CPU time the extension host's thread ran between two ticks of the sampler over
   * the same span, in ms (Linux; absent elsewhere): what the longest stall would be on an idle
   * machine, where `longestStallMs` also counts the time the thread waited for a core.
   */
  readonly busiestTurnCpuMs?: number;
  /**
   * The same two figures from the moment every unit was loaded (the index's last progress)
   * to the end of the span: taking the snapshot in, showing it (tree, Problems, status bar)
   * and the workbench's requests for rows. Before that moment, with the index in the worker,
   * the host only relays progress, and what holds it is other extensions' work (built-in
   * ones starting); this part is the one Skillgate's own presentation is in.
   */
  readonly presentingStallMs?: number;
  readonly presentingBusiestTurnCpuMs?: number;
  /** Where the index ran. */
  readonly indexedIn: 'worker' | 'extension host';
  readonly items: number;
}

/** The interval of the event-loop sampler: a stall shows as the gap between two ticks, less this. */
const SAMPLE_MS = 5;

/**
 * Samples the event loop's delay until `stop`, which gives the longest stall seen: the
 * longest gap between two ticks of a timer of its own. Not perf_hooks' event-loop-delay
 * histogram: it does not see a worker's messages taken one after another without a return
 * to the event loop (a port drains up to 1,000 at once, and timers wait meanwhile), and
 * every stall it sees delays the timer as much. On Linux the sampler also reads the
 * thread's CPU time at each tick (its schedstat, a read from memory): on a loaded machine a
 * stall is mostly the wait for a core, and only the CPU time says how much work one turn of
 * the extension host did.
 */
export class StallSampler {
  private lastCpuNs = threadCpuNs();
  private busiestNs = 0;
  private lastTickAt = performance.now();
  private longestGapMs = 0;
  private readonly ticks = setInterval(() => this.tick(), SAMPLE_MS).unref();

  /** The figures until `mark()` was called, once it was. */
  private beforeMark: { stallMs: number; busiestNs: number } | undefined;

  /**
   * Starts the second part of the span (every unit is loaded; the first call counts): `stop()`
   * still gives the whole span's figures, `sinceMark` this part's alone.
   */
  mark(): void {
    if (this.beforeMark) return;
    this.tick();
    this.beforeMark = { stallMs: this.longestStall(), busiestNs: this.busiestNs };
    this.longestGapMs = 0;
    this.busiestNs = 0;
  }

  /** The longest stall in ms (0 when no tick came late). */
  stop(): number {
    clearInterval(this.ticks);
    this.tick();
    this.sinceMark = this.beforeMark && {
      stallMs: this.longestStall(),
      ...(this.lastCpuNs === undefined ? {} : { busiestTurnCpuMs: this.busiestNs / 1e6 }),
    };
    return Math.max(this.longestStall(), this.beforeMark?.stallMs ?? 0);
  }

  /** After `stop()`: the figures from `mark()` on; undefined when it was never called. */
  sinceMark: { stallMs: number; busiestTurnCpuMs?: number } | undefined;

  /** The most CPU time the thread ran between two ticks, in ms; undefined where the thread's CPU time cannot be read. */
  get busiestTurnCpuMs(): number | undefined {
    return this.lastCpuNs === undefined ? undefined : Math.max(this.busiestNs, this.beforeMark?.busiestNs ?? 0) / 1e6;
  }

  private longestStall(): number {
    return Math.max(0, this.longestGapMs - SAMPLE_MS);
  }

  private tick(): void {
    const at = performance.now();
    this.longestGapMs = Math.max(this.longestGapMs, at - this.lastTickAt);
    this.lastTickAt = at;
    const now = threadCpuNs();
    if (now === undefined || this.lastCpuNs === undefined) return;
    this.busiestNs = Math.max(this.busiestNs, now - this.lastCpuNs);
    this.lastCpuNs = now;
  }
}

/** The CPU time the calling process's main thread has run, in ns (Linux's schedstat; the extension host's thread is its process's main one). */
function threadCpuNs(): number | undefined {
  try {
    const ns = Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'latin1').split(' ')[0]);
    return Number.isFinite(ns) ? ns : undefined;
  } catch {
    return undefined;
  }
}

export function figuresLine(f: EditorFigures): string {
  const ms = (x: number) => `${Math.round(x * 10) / 10} ms`;
  return `editor figures: activate() ${ms(f.activationMs)} (CPU ${ms(f.activationCpuMs)}); first complete tree ${ms(f.firstTreeMs)} after activation (${f.items} item(s), full index in the ${f.indexedIn} ${ms(f.fullIndexMs)}); longest extension-host stall while indexing ${ms(f.longestStallMs)}${f.busiestTurnCpuMs === undefined ? '' : ` (busiest turn ${ms(f.busiestTurnCpuMs)} of CPU)`}`;
}

/** Writes the figures where `SKILLGATE_PERF_FILE` names, if it does, whole or not at all (a reader polls for it); a failure is the caller's to log. */
export async function writeFigures(file: string | undefined, f: EditorFigures): Promise<void> {
  if (!file) return;
  await fsp.writeFile(`${file}.partial`, JSON.stringify(f) + '\n');
  await fsp.rename(`${file}.partial`, file);
}
