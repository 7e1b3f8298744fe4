import type { Watched } from '../../src/extension/flows/snapshotTransfer';
import type { TrustStore } from '../../src/core/trust/trustStore';
import {
  loadWithVscode,
  reportAsWorkbench,
  standInFileSystemWatchers,
  type StandInWatcher,
} from '../unit/helpers/vscodeStandIn';

type WatcherModule = typeof import('../../src/extension/workspaceWatcher');

let watcherModule: WatcherModule | undefined;

const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * The editor's file watchers over the stand-in workbench of the unit tests
 * (test/unit/helpers/vscodeStandIn.ts): the extension's own `WorkspaceWatcher` makes them from
 * what an index names (a `<folder>/<root>/**` watcher per agent root, each watched tree, each
 * watched path by its literal name in its folder), and the stand-in plays VS Code: a watcher's
 * base is resolved through links when it is made, a missing base is resumed once it appears, and a
 * change is reported, spelled under the base as given, only to a watcher whose pattern matches
 * it below that real base (`reportAsWorkbench`). Node's watchers of directories made while the
 * window is open (flows/subtreeWatchers.ts) are left out: they start only after a batch reports
 * such a directory, and a change must be seen without them.
 *
 * One at a time in a process: the stand-in's `createFileSystemWatcher` hands every watcher made to
 * the workbench made last.
 */
export class StandInWorkbench {
  private readonly made: StandInWatcher[] = [];
  private readonly watcher: InstanceType<WatcherModule['WorkspaceWatcher']>;

  /** `folders`: the workspace folders as the window names them; `stateDir`: the trust store's (its watcher is made, never fired). */
  constructor(
    private readonly folders: readonly string[],
    stateDir: string,
  ) {
    standInFileSystemWatchers((w) => this.made.push(w));
    watcherModule ??= loadWithVscode(() => require('../../src/extension/workspaceWatcher') as WatcherModule);
    // The store's directory is not made: the harness writes nothing but the change it checks.
    const store = { dir: stateDir, ensureDirectory: () => undefined } as unknown as TrustStore;
    this.watcher = new watcherModule.WorkspaceWatcher(
      quiet,
      () => store,
      () => undefined,
    );
  }

  /** The watchers of a full index (skillgateService.ts `indexAllIn`). */
  watch(watched: Watched): void {
    this.watcher.watch([...this.folders], watched);
  }

  /** After a refresh: watchers made again only when what the index names changed (skillgateService.ts `showReplayed`). */
  watchWhatItNames(watched: Watched): void {
    this.watcher.watchWhatItNames(watched);
  }

  /** The paths the workbench reports for a change at `real` (a path with no link in it), as the watchers spell them. */
  report(real: string): string[] {
    const reported: string[] = [];
    const listening = this.made.map((w) => ({ ...w, changed: (uri: { fsPath: string }) => reported.push(uri.fsPath) }));
    reportAsWorkbench(listening, real);
    return reported;
  }

  /** Each live watcher as `base` `pattern`, for a failure's detail. */
  describe(): string[] {
    return this.made
      .filter((w) => !w.disposed)
      .map((w) => {
        const p = w.pattern as { base?: { fsPath?: string }; pattern?: string };
        return `${p.base?.fsPath ?? '?'} ${JSON.stringify(p.pattern)}${w.realBase !== undefined && w.realBase !== p.base?.fsPath ? ` (watching ${w.realBase})` : ''}`;
      });
  }

  dispose(): void {
    this.watcher.dispose();
  }
}
