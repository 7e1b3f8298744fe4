import * as vscode from 'vscode';
import type { Snapshot } from '../core/index/snapshot';
import { displayText } from '../core/text/displayText';
import type { LogPort } from './flows/ports';

/** A new snapshot, and how a listener that shows it over several event-loop turns says when it is done. */
export interface SnapshotChange {
  readonly previous: Snapshot | undefined;
  readonly snapshot: Snapshot;
  /**
   * Why no index could be read: the first full index failed (and each one since). The
   * snapshot is then empty, which stands for no index, never for a workspace without
   * agent configuration (tree/indexFailureText.ts). The error's own words, unescaped.
   */
  readonly failure: string | undefined;
  /** The full index, `refresh` and a trust change resolve only once `p` has settled. */
  readonly waitUntil: (p: Promise<unknown>) => void;
}

/**
 * The snapshot the window shows: the last one published, the first one (what waits for
 * a snapshot before there is one), and when what shows the last one is done with it.
 * Once disposed (the window let the service go), nothing more is published.
 */
export class PublishedSnapshot implements vscode.Disposable {
  private shown: Snapshot | undefined;
  /** Set while `current` is no index but a failed first one's stand-in (`SnapshotChange.failure`). */
  private failure: string | undefined;
  /** Settles with the first published snapshot (see `published`). */
  private readonly first: Promise<Snapshot>;
  private settleFirst: (snapshot: Snapshot) => void = () => undefined;
  private readonly changed = new vscode.EventEmitter<SnapshotChange>();
  readonly onDidChange = this.changed.event;
  private presenting: Promise<unknown> = Promise.resolve();
  private disposed = false;

  constructor(private readonly log: LogPort) {
    this.first = new Promise((resolve) => (this.settleFirst = resolve));
  }

  get current(): Snapshot | undefined {
    return this.shown;
  }

  /** Settles once what shows the last published snapshot is done (`SnapshotChange.waitUntil`). */
  get presented(): Promise<unknown> {
    return this.presenting;
  }

  /** The current snapshot, or the first one once it is published. */
  published(): Promise<Snapshot> {
    return this.shown ? Promise.resolve(this.shown) : this.first;
  }

  /** Whether the view shows a complete index (none yet, or only a failed first one's stand-in: no). */
  showsIndex(): boolean {
    return this.shown !== undefined && this.failure === undefined;
  }

  /** `failure`: the snapshot stands for no index, which failed for this reason (`SnapshotChange.failure`). */
  publish(snapshot: Snapshot, failure?: string): Snapshot {
    if (this.disposed) return snapshot;
    const previous = this.shown;
    this.failure = failure;
    if (snapshot.trustProblem && snapshot.trustProblem !== previous?.trustProblem)
      this.log.error(`trust store unavailable, every bundle fails closed: ${displayText(snapshot.trustProblem)}`);
    this.shown = snapshot;
    this.settleFirst(snapshot);
    const presenting: Promise<unknown>[] = [];
    this.changed.fire({ previous, snapshot, failure, waitUntil: (p) => presenting.push(p) });
    this.presenting = Promise.all(presenting);
    return snapshot;
  }

  dispose(): void {
    this.disposed = true;
    this.changed.dispose();
  }
}
