import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import { vscodeGlobMatches } from './vscodeGlob';

/** What `inspect` answers for one setting (`section.key`). */
export interface StandInSetting {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

class StandInEventEmitter<T> {
  private readonly listeners: ((e: T) => unknown)[] = [];
  readonly event = (listener: (e: T) => unknown) => {
    this.listeners.push(listener);
    return { dispose: () => void this.listeners.splice(this.listeners.indexOf(listener) >>> 0, 1) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners.length = 0;
  }
}

const noEvent = () => ({ dispose: () => undefined });

/** A text document as the quick-fix provider reads it: its URI and its text (`TextDocument.getText()`). */
export interface StandInDocument {
  readonly uri: { toString(): string };
  getText(): string;
}

/**
 * A file URI: `toString()` names the file as VS Code's does (the provider finds an open document by it),
 * kept out of its enumerable keys so a test's deepEqual of `{ scheme, fsPath }` still holds.
 */
function fileUri(fsPath: string): { scheme: string; fsPath: string } {
  return Object.defineProperty({ scheme: 'file', fsPath }, 'toString', { value: () => `file://${fsPath}` });
}

/** What `openTextDocument` answers until a test says otherwise: VS Code's refusal of a file it cannot open. */
const noDocument = (uri: { fsPath?: string }): Promise<StandInDocument> =>
  Promise.reject(new Error(`cannot open ${String(uri.fsPath)}`));

/**
 * A stand-in for the `vscode` module, for unit tests of editor code that needs only a
 * little of it: the settings (`settings`, or a throw from `settingsFault`), the
 * workspace's folders and trust, events that never fire, progress that just runs, and
 * the messages shown (`shown`). One object for the whole test process: modules loaded
 * through `loadWithVscode` keep it, whichever test file loaded them first.
 */
export const vscodeStandIn = {
  settings: new Map<string, StandInSetting>(),
  settingsFault: undefined as Error | undefined,
  shown: [] as string[],
  api: {
    EventEmitter: StandInEventEmitter,
    RelativePattern: class {
      constructor(
        readonly base: unknown,
        readonly pattern: string,
      ) {}
    },
    Uri: {
      file: fileUri,
      from: (c: { scheme: string; path: string; query?: string }) =>
        Object.defineProperty({ ...c }, 'toString', { value: () => `${c.scheme}:${c.path}?${c.query ?? ''}` }),
    },
    // Read when a module loads (its `import * as vscode` copies the top-level names then): present from the start.
    Range: class {
      constructor(
        readonly startLine: number,
        readonly startCharacter: number,
        readonly endLine: number,
        readonly endCharacter: number,
      ) {}
    },
    ViewColumn: { Active: -1, Beside: -2 },
    // The diagnostics page opened at a code's heading (diagnosticsDoc.ts `show`).
    TextEditorRevealType: { AtTop: 3 },
    // The Problems panel (problems.ts): a diagnostic, its severity and its related places.
    DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
    Diagnostic: class {
      source?: string;
      code?: unknown;
      relatedInformation?: unknown[];
      constructor(
        readonly range: unknown,
        readonly message: string,
        readonly severity: number,
      ) {}
    },
    DiagnosticRelatedInformation: class {
      constructor(
        readonly location: unknown,
        readonly message: string,
      ) {}
    },
    Location: class {
      constructor(
        readonly uri: unknown,
        readonly range: unknown,
      ) {}
    },
    // Each test gives its own diagnostic collection (Object.assign of `languages`): the name must
    // exist when problems.ts loads, for its `import * as vscode` reads only names present then.
    languages: {},
    // Quick fixes (quickFixes.ts): an action and the replacements its workspace edit holds.
    CodeActionKind: { QuickFix: { value: 'quickfix' } },
    CodeAction: class {
      [key: string]: unknown;
      constructor(
        readonly title: string,
        readonly kind?: unknown,
      ) {}
    },
    WorkspaceEdit: class {
      readonly replaced: { uri: unknown; range: unknown; newText: string }[] = [];
      replace(uri: unknown, range: unknown, newText: string): void {
        this.replaced.push({ uri, range, newText });
      }
    },
    // The tree's rows and the status bar item, as plain objects (itemTree.ts, statusBar.ts).
    TreeItem: class {
      [key: string]: unknown;
      constructor(
        readonly label: string,
        readonly collapsibleState: number,
      ) {}
    },
    TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
    ThemeIcon: class {
      constructor(
        readonly id: string,
        readonly color?: unknown,
      ) {}
    },
    ThemeColor: class {
      constructor(readonly id: string) {}
    },
    MarkdownString: class {
      [key: string]: unknown;
      constructor(
        readonly value: string,
        readonly supportThemeIcons?: boolean,
      ) {}
    },
    StatusBarAlignment: { Left: 1, Right: 2 },
    window: {
      state: { focused: true },
      onDidChangeWindowState: noEvent,
      withProgress: (_options: unknown, task: () => Promise<unknown>) => task(),
      showErrorMessage: (m: string) => void vscodeStandIn.shown.push(m),
      showInformationMessage: (m: string) => void vscodeStandIn.shown.push(m),
      createStatusBarItem: () =>
        ({
          visible: false,
          show() {
            this.visible = true;
          },
          hide() {
            this.visible = false;
          },
          dispose: () => undefined,
        }) as Record<string, unknown>,
    },
    workspace: {
      workspaceFolders: undefined as { uri: { scheme: string; fsPath: string } }[] | undefined,
      isTrusted: true,
      // The documents open in the workbench, and what opening another file gives.
      textDocuments: [] as StandInDocument[],
      openTextDocument: noDocument,
      onDidChangeWorkspaceFolders: noEvent,
      onDidGrantWorkspaceTrust: noEvent,
      onDidChangeConfiguration: noEvent,
      createFileSystemWatcher: () => ({
        onDidCreate: noEvent,
        onDidChange: noEvent,
        onDidDelete: noEvent,
        dispose: () => undefined,
      }),
      getConfiguration: (section: string) => ({
        inspect: (key: string) => {
          if (vscodeStandIn.settingsFault) throw vscodeStandIn.settingsFault;
          return { key: `${section}.${key}`, ...vscodeStandIn.settings.get(`${section}.${key}`) };
        },
      }),
    },
  },
  reset(): void {
    this.settings.clear();
    this.settingsFault = undefined;
    this.shown.length = 0;
    this.api.workspace.workspaceFolders = undefined;
    this.api.workspace.isTrusted = true;
    this.api.workspace.textDocuments = [];
    this.api.workspace.openTextDocument = noDocument;
  },
};

/** A workbench file watcher as the service tests drive it: `changed` reports a path as the workbench would. */
export interface StandInWatcher {
  changed: (uri: { fsPath: string }) => unknown;
  disposed: boolean;
  /** What the service asked to watch (a `RelativePattern` of the stand-in's). */
  readonly pattern: unknown;
  /**
   * Where the base led when the watcher was made: VS Code resolves it then and watches that
   * directory for the watcher's life (parcelWatcher.ts and nodejsWatcherLib.ts `normalizePath`),
   * so a link led elsewhere since (`ln -sfn`) is still watched at its old target. Undefined when
   * the base did not exist then: VS Code suspends such a request and resumes it, resolved anew,
   * once the path exists (baseWatcher.ts `suspendWatchRequest`, `monitorSuspendedWatchRequest`),
   * as it does one whose directory is removed.
   */
  readonly realBase?: string;
}

/**
 * Makes the stand-in's `createFileSystemWatcher` hand each watcher the service creates to
 * `made`. Only changes are wired (the service treats create, change and delete alike).
 */
export function standInFileSystemWatchers(made: (w: StandInWatcher) => void): void {
  (vscodeStandIn.api.workspace as { createFileSystemWatcher: unknown }).createFileSystemWatcher = (
    pattern: unknown,
  ) => {
    const base = (pattern as { base?: { fsPath?: string } }).base?.fsPath;
    let realBase: string | undefined;
    try {
      realBase = base === undefined ? undefined : fs.realpathSync.native(base);
    } catch {
      realBase = undefined; // not there yet: resolved when it is (`reportAsWorkbench`)
    }
    const w: StandInWatcher = { changed: () => undefined, disposed: false, pattern, ...(realBase ? { realBase } : {}) };
    made(w);
    const noEvent = () => ({ dispose: () => undefined });
    return {
      onDidCreate: noEvent,
      onDidChange: (handler: (uri: { fsPath: string }) => void) => {
        w.changed = handler;
        return noEvent();
      },
      onDidDelete: noEvent,
      dispose: () => void (w.disposed = true),
    };
  };
}

/** Runs `load` (a `require` of editor modules) with `vscode` resolved to the stand-in. */
export function loadWithVscode<T>(load: () => T): T {
  const loader = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = loader._resolveFilename;
  const id = path.join(__dirname, '__vscode_stand_in__.js');
  loader._resolveFilename = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? id : resolve.call(this, request, ...rest);
  };
  require.cache[id] = { id, filename: id, loaded: true, exports: vscodeStandIn.api } as unknown as NodeJS.Module;
  try {
    return load();
  } finally {
    loader._resolveFilename = resolve;
  }
}

/**
 * Reports a change at `real` (a path with no link in it) to the watchers that VS Code's
 * would report it to: a `RelativePattern` watcher watches the real path of its base (as it
 * was when the watcher was made, `StandInWatcher.realBase`) and
 * reports by the base as given (parcelWatcher.ts `normalizePath`, `normalizeEvents`), and
 * follows no link below it (VS Code 1.61's release notes; microsoft/vscode#235778): an
 * edit behind `<folder>/.codewhale -> <target>` reaches only a watcher based at or above
 * the target. Returns how many watchers it reached.
 */
export function reportAsWorkbench(watchers: readonly StandInWatcher[], real: string): number {
  let reached = 0;
  for (const w of watchers) {
    const pattern = w.pattern as { base?: { fsPath?: string }; pattern?: string };
    const base = pattern.base?.fsPath;
    if (w.disposed || base === undefined || pattern.pattern === undefined) continue;
    let realBase: string;
    try {
      // One whose directory went away was suspended by VS Code, and resumed where its base leads now.
      realBase = w.realBase !== undefined && fs.existsSync(w.realBase) ? w.realBase : fs.realpathSync.native(base);
    } catch {
      continue; // a base that does not exist watches nothing yet
    }
    const rel = path.relative(realBase, real);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) continue;
    if (!vscodeGlobMatches(pattern.pattern, rel)) continue;
    reached++;
    w.changed({ fsPath: path.join(base, rel) });
  }
  return reached;
}

/**
 * Registers, in the calling `describe`, the hooks of a suite that runs the extension's index
 * service in the stand-in workbench: before each test the stand-in is reset and the index
 * runs in the host (no worker thread to start); after the suite both are as they were.
 */
export function serviceInHostForSuite(): void {
  const inHost = process.env.SKILLGATE_INDEX_IN_HOST;
  beforeEach(() => {
    vscodeStandIn.reset();
    process.env.SKILLGATE_INDEX_IN_HOST = '1';
  });
  after(() => {
    vscodeStandIn.reset();
    if (inHost === undefined) delete process.env.SKILLGATE_INDEX_IN_HOST;
    else process.env.SKILLGATE_INDEX_IN_HOST = inHost;
  });
}
