import type { Snapshot } from '../../core/index/snapshot';
import { StallSampler } from './hostPerf';
import type { IndexBackend } from './indexBackend';
import type { LogPort } from './ports';
import { WorkerIndex } from './workerIndex';

/** How long after a full index's snapshot was shown (tree, Problems, status bar) the stall sampler keeps running: the workbench asks the tree for its rows then. */
const STALL_TAIL_MS = 500;

/** What a full index took, for the editor's figures (flows/hostPerf.ts). */
export interface FullIndexRun {
  readonly snapshot: Snapshot;
  readonly indexMs: number;
  readonly indexedIn: 'worker' | 'extension host';
  /** The longest event-loop stall from the start of the run until STALL_TAIL_MS after its snapshot was shown. */
  readonly longestStallMs: number;
  /** The most CPU time the extension host's thread ran in one turn over the same span (Linux; flows/hostPerf.ts). */
  readonly busiestTurnCpuMs?: number;
  /** Both figures from the moment every unit was loaded: taking the snapshot in and showing it. */
  readonly presenting?: { readonly stallMs: number; readonly busiestTurnCpuMs?: number };
}

/** Bundles loaded so far in a full index, as the service's `onIndexProgress` reports them. */
export type IndexProgressEvent = (listener: (progress: { done: number; total: number }) => void) => {
  dispose(): void;
};

/**
 * The extension host's stalls over one full index (flows/hostPerf.ts): sampled from the
 * run's start until STALL_TAIL_MS after its snapshot was shown, then logged and reported
 * as the run's figures. A run that shows no snapshot of its own reports none.
 */
export class FullIndexStalls {
  private readonly stalls = new StallSampler();
  private readonly loadsDone: { dispose(): void };

  constructor(
    onProgress: IndexProgressEvent,
    private readonly log: LogPort,
    private readonly report: (run: FullIndexRun) => void,
  ) {
    // Every unit loaded: what the host does from here on is taking the snapshot in and showing it.
    this.loadsDone = onProgress(({ done, total }) => {
      if (done >= total) this.stalls.mark();
    });
  }

  /** The run has read everything (if its progress did not already say so). */
  loaded(): void {
    this.stalls.mark();
    this.loadsDone.dispose();
  }

  /** The run failed, was ended or overtaken, or left its result to another index: no figures. */
  end(): void {
    this.loadsDone.dispose();
    this.stalls.stop();
  }

  /** `index` produced `snapshot` in `indexMs`, and it was shown: the figures, once the tail is over. */
  reportOnceShown(snapshot: Snapshot, indexMs: number, index: IndexBackend): void {
    setTimeout(() => {
      const longestStallMs = this.stalls.stop();
      const busiestTurnCpuMs = this.stalls.busiestTurnCpuMs;
      const presenting = this.stalls.sinceMark;
      const indexedIn = index instanceof WorkerIndex ? 'worker' : 'extension host';
      const busiest = busiestTurnCpuMs === undefined ? '' : ` (busiest turn ${Math.round(busiestTurnCpuMs)} ms of CPU)`;
      this.log.info(
        `full index in the ${indexedIn}: longest extension-host stall ${Math.round(longestStallMs)} ms${busiest}`,
      );
      this.report({
        snapshot,
        indexMs,
        indexedIn,
        longestStallMs,
        ...(busiestTurnCpuMs === undefined ? {} : { busiestTurnCpuMs }),
        ...(presenting ? { presenting } : {}),
      });
    }, STALL_TAIL_MS);
  }
}
