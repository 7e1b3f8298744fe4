/**
 * Collects file-watcher events and trust-store changes for a short quiet period, then
 * hands them over in one batch: a burst of saves (a git checkout, a formatter) causes
 * one re-index, not hundreds. A batch never waits longer than MAX_BATCH_DELAY_MS from its
 * first event: a stream that never goes quiet (a log written beside a bundle, a long
 * `npm install` in a plugin) would otherwise hold every change, a trusted script's edit
 * included, for as long as it lasts.
 */
export const MAX_BATCH_DELAY_MS = 1000;

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Milliseconds on the timers' clock (default: `performance.now`). */
  now?(): number;
}

export class ChangeBatcher {
  private paths = new Set<string>();
  private storeChanged = false;
  private handle: unknown;
  /** When the pending batch is handed over at the latest. */
  private deadline: number | undefined;

  constructor(
    private readonly delayMs: number,
    private readonly flush: (paths: string[], storeChanged: boolean) => void,
    private readonly timers: Timers = {
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
    },
  ) {}

  path(p: string): void {
    this.paths.add(p);
    this.arm();
  }

  store(): void {
    this.storeChanged = true;
    this.arm();
  }

  dispose(): void {
    if (this.handle !== undefined) this.timers.clearTimeout(this.handle);
    this.handle = undefined;
  }

  private arm(): void {
    if (this.handle !== undefined) this.timers.clearTimeout(this.handle);
    const now = this.timers.now?.() ?? performance.now();
    this.deadline ??= now + MAX_BATCH_DELAY_MS;
    this.handle = this.timers.setTimeout(
      () => {
        this.handle = undefined;
        this.deadline = undefined;
        const paths = [...this.paths];
        const store = this.storeChanged;
        this.paths.clear();
        this.storeChanged = false;
        this.flush(paths, store);
      },
      Math.max(0, Math.min(this.delayMs, this.deadline - now)),
    );
  }
}
