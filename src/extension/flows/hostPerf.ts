import { promises as fsp } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * The editor's own figures (issue 15): how long `activate()` took, when the first
 * complete tree was there, and the longest stall of the extension host's event loop
 * while the first full index ran. Logged to the Skillgate log; with
 * `SKILLGATE_PERF_FILE` set, also written there as JSON for `npm run bench:editor`.
 */
export interface EditorFigures {
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
  /** Where the index ran. */
  readonly indexedIn: 'worker' | 'extension host';
  readonly items: number;
}

/** The interval of the event-loop sampler: a stall shows as the gap between two ticks, less this. */
const SAMPLE_MS = 5;

/** Samples the event loop's delay (perf_hooks) until `stop`, which gives the longest stall seen. */
export class StallSampler {
  private readonly histogram = monitorEventLoopDelay({ resolution: SAMPLE_MS });

  constructor() {
    this.histogram.enable();
  }

  /** The longest stall in ms (0 when no tick came late). */
  stop(): number {
    this.histogram.disable();
    return Math.max(0, this.histogram.max / 1e6 - SAMPLE_MS);
  }
}

export function figuresLine(f: EditorFigures): string {
  const ms = (x: number) => `${Math.round(x * 10) / 10} ms`;
  return `editor figures: activate() ${ms(f.activationMs)} (CPU ${ms(f.activationCpuMs)}); first complete tree ${ms(f.firstTreeMs)} after activation (${f.items} item(s), full index in the ${f.indexedIn} ${ms(f.fullIndexMs)}); longest extension-host stall while indexing ${ms(f.longestStallMs)}`;
}

/** Writes the figures where `SKILLGATE_PERF_FILE` names, if it does, whole or not at all (a reader polls for it); a failure is the caller's to log. */
export async function writeFigures(file: string | undefined, f: EditorFigures): Promise<void> {
  if (!file) return;
  await fsp.writeFile(`${file}.partial`, JSON.stringify(f) + '\n');
  await fsp.rename(`${file}.partial`, file);
}
