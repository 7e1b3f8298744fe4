import * as vscode from 'vscode';
import { ItemTreeProvider, type TreeNode } from './tree/itemTree';
import { Problems } from './problems/problems';
import { SkillgateService } from './skillgateService';
import { StatusBar } from './statusBar/statusBar';
import { TreeModes } from './tree/treeMode';
import { QuickFixes } from './problems/quickFixes';
import { DiagnosticsDoc } from './problems/diagnosticsDoc';
import { refreshOfflineSchemas } from './offlineSchemas';
import { ReviewPanels, REVIEW_VIEW_TYPE } from './review/reviewPanel';
import { registerCommands } from './commands/commands';
import { bundleCommands } from './commands/bundleCommands';
import { workspaceCommands } from './commands/workspaceCommands';
import { windowUi } from './windowUi';
import { safeLog } from './text/logText';
import { notifyDrift } from './review/notifyDrift';
import { doctorText } from './documents/doctorText';
import { READONLY_SCHEME, ReadonlyDocuments } from './documents/readonlyDocuments';
import { newlyDrifted } from './flows/driftNotice';
import { needsReview } from './tree/needsReview';
import { figuresLine, writeFigures } from './flows/hostPerf';
import { nextTurn } from './flows/turns';
import { isLoadedUnreviewed } from '../core/decisions/loadedUnreviewed';
import type { Snapshot } from '../core/index/snapshot';
import type { Item } from '../core/model';

/** What other extensions (and our integration tests) get from `activate`. */
export interface SkillgateApi {
  /** The current snapshot: every item with its decision, and every diagnostic. */
  readonly snapshot: () => Snapshot | undefined;
  readonly onDidChangeSnapshot: vscode.Event<Snapshot>;
  /** Resolves once the first index has been published. */
  readonly ready: Promise<Snapshot>;
  /** "Is this bundle active?": true only when registered (trusted, enabled, applicable). */
  readonly isActive: (idOrName: string) => boolean;
  /** The tree's data, as the view shows it (for tests and tools). */
  readonly tree: vscode.TreeDataProvider<TreeNode>;
  readonly refresh: () => Promise<Snapshot>;
}

export function activate(context: vscode.ExtensionContext): SkillgateApi {
  // The editor's figures (flows/hostPerf.ts): activate() itself, then the first complete tree.
  const started = performance.now();
  const startedCpu = process.cpuUsage();
  let firstTreeMs: number | undefined;
  // The view's provider first, so the view never shows "no data provider"; the first index runs after activation returns.
  const tree = new ItemTreeProvider();
  const view = vscode.window.createTreeView('skillgate.items', { treeDataProvider: tree, showCollapseAll: true });
  view.message = 'Indexing…';
  const modes = new TreeModes(context.workspaceState, tree, view);
  // "Skillgate: Show Log": index runs, watcher batches, trust-store changes and failures, with timings.
  const channel = vscode.window.createOutputChannel('Skillgate', { log: true });
  // Every message escaped (text/logText.ts): an error's message can name a repository's file. The
  // service and the commands are given the channel itself, and escape what they log once.
  const log = safeLog(channel);
  // The parse cache lives in the extension's own storage; a storage that is not on this disk gets none.
  const cacheDir =
    context.globalStorageUri.scheme === 'file'
      ? vscode.Uri.joinPath(context.globalStorageUri, 'parse-cache').fsPath
      : undefined;
  const service = new SkillgateService(channel, cacheDir);
  const docs = new DiagnosticsDoc(context.extensionUri);
  const problems = new Problems(docs);
  const status = new StatusBar();
  const panels = new ReviewPanels(context.extensionUri, service, windowUi);
  const snapshots = new vscode.EventEmitter<Snapshot>();
  const reports = new ReadonlyDocuments(
    () => service.snapshot,
    () => doctorText(service),
  );
  /** The presentation of the snapshots, one after the other; it never rejects (a failure is logged). */
  let presentation = Promise.resolve();
  /**
   * Shows a snapshot a piece per event-loop turn (docs/editor-performance.md): the tree's
   * rows, then Problems in batches of files, then the status bar and the review panels, then
   * the badge and the menus' keys; the API's event last, as before.
   */
  const present = async (
    previous: Snapshot | undefined,
    snapshot: Snapshot,
    failure: string | undefined,
    treeShown: Promise<void>,
  ) => {
    try {
      await treeShown;
      view.message = undefined;
      await problems.update(snapshot);
      await nextTurn();
      status.update(snapshot, failure);
      panels.update(snapshot);
      reports.refresh();
      await nextTurn();
      const pending = needsReview(snapshot).length;
      view.badge = pending ? { value: pending, tooltip: `${pending} bundle(s) need review` } : undefined;
      void vscode.commands.executeCommand('setContext', 'skillgate.hasItems', snapshot.items.length > 0);
      void vscode.commands.executeCommand('setContext', 'skillgate.indexed', true);
      void vscode.commands.executeCommand('setContext', 'skillgate.indexFailed', failure !== undefined);
      snapshots.fire(snapshot);
      void notifyDrift(newlyDrifted(previous, snapshot), snapshot, panels);
      firstTreeMs ??= performance.now() - started;
    } catch (e) {
      log.error(`a snapshot could not be shown: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  context.subscriptions.push(channel, service, problems, status, panels, view, snapshots, reports);
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(READONLY_SCHEME, reports),
    vscode.window.registerWebviewPanelSerializer(REVIEW_VIEW_TYPE, panels),
    service.onIndexProgress(({ done, total }) => {
      // Only until the first snapshot: later re-indexes keep the tree and show the view's progress bar.
      if (!service.snapshot)
        view.message = `Indexing ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} bundles…`;
    }),
    service.onDidChangeSnapshot(({ previous, snapshot, failure, waitUntil }) => {
      // What the API reads changes at once; the view, Problems and the rest follow over a few event-loop turns, in order.
      const treeShown = tree.update(snapshot, failure);
      presentation = presentation.then(() => present(previous, snapshot, failure, treeShown));
      waitUntil(presentation);
    }),
  );
  const firstRun = service.onFullIndex((run) => {
    firstRun.dispose();
    const figures = {
      activatedAt: performance.timeOrigin + started,
      activationMs,
      activationCpuMs,
      firstTreeMs: firstTreeMs ?? performance.now() - started,
      fullIndexMs: run.indexMs,
      longestStallMs: run.longestStallMs,
      ...(run.busiestTurnCpuMs === undefined ? {} : { busiestTurnCpuMs: run.busiestTurnCpuMs }),
      ...(run.presenting ? { presentingStallMs: run.presenting.stallMs } : {}),
      ...(run.presenting?.busiestTurnCpuMs === undefined
        ? {}
        : { presentingBusiestTurnCpuMs: run.presenting.busiestTurnCpuMs }),
      indexedIn: run.indexedIn,
      items: run.snapshot.items.length,
    };
    log.info(figuresLine(figures));
    writeFigures(process.env.SKILLGATE_PERF_FILE, figures).catch((e: unknown) =>
      log.warn(`SKILLGATE_PERF_FILE cannot be written: ${e instanceof Error ? e.message : String(e)}`),
    );
  });
  context.subscriptions.push(firstRun);
  const focusView = () => vscode.commands.executeCommand('skillgate.items.focus');
  registerCommands(
    context,
    {
      ...workspaceCommands({ service, panels, docs, log: channel, extensionUri: context.extensionUri, focusView }),
      ...bundleCommands(service, panels),
      ...modes.commands(focusView),
    },
    channel,
  );
  // Nothing the first paint needs: the settings are read after activation returns.
  setTimeout(() => refreshOfflineSchemas(context.extensionUri).catch(() => undefined), 0);
  // What the first frame does without waits until activation has returned: the view's
  // description and the menus' keys, the quick fixes (no diagnostic exists before the
  // first index), and the first index with its progress and the settings it reads.
  const ready = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
    // The first index's worker thread first: its bootstrap and the core's load overlap what the window does next.
    service.prestartIndex();
    modes.show();
    context.subscriptions.push(
      // Every file: Rivumi diagnostics sit in skills, hooks.json and plugin manifests too; the provider answers only for Skillgate's own.
      vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new QuickFixes(() => service.snapshot), {
        providedCodeActionKinds: QuickFixes.kinds,
      }),
    );
    return service.refreshAll();
  });
  const activationMs = performance.now() - started;
  const cpu = process.cpuUsage(startedCpu);
  const activationCpuMs = (cpu.user + cpu.system) / 1000;
  log.info(`activate() in ${Math.round(activationMs * 10) / 10} ms (CPU ${Math.round(activationCpuMs * 10) / 10} ms)`);
  const find = (key: string): Item | undefined =>
    service.snapshot?.items.find(
      (i) => i.id === key || (i.parent === null && i.name === key && i.decision !== 'shadowed'),
    );
  return {
    snapshot: () => service.snapshot,
    onDidChangeSnapshot: snapshots.event,
    ready,
    // Active means loaded and vouched for: what Rivumi loads unreviewed is registered, but never "active" to a caller (fail closed).
    isActive: (key) => {
      const item = find(key);
      return item?.decision === 'registered' && !isLoadedUnreviewed(item);
    },
    // Rows as the view shows them once hovered, tooltips included (the view gets those on demand).
    tree: {
      onDidChangeTreeData: tree.onDidChangeTreeData,
      getChildren: (node) => tree.getChildren(node),
      getTreeItem: (node) => tree.completeTreeItem(node),
    },
    refresh: () => service.refreshAll(),
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
