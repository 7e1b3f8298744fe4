/**
 * Collects file-watcher events and trust-store changes for a short quiet period, then
 * hands them over in one batch: a burst of saves (a git checkout, a formatter) causes
 * one re-index, not hundreds.
 */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export class ChangeBatcher {
  private paths = new Set<string>();
  private storeChanged = false;
  private handle: unknown;

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
    this.handle = this.timers.setTimeout(() => {
      this.handle = undefined;
      const paths = [...this.paths];
      const store = this.storeChanged;
      this.paths.clear();
      this.storeChanged = false;
      this.flush(paths, store);
    }, this.delayMs);
  }
}
