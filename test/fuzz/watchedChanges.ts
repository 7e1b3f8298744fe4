import * as fs from 'node:fs';
import * as path from 'node:path';
import { Indexer, type IndexOptions } from '../../src/core/index/indexer';
import { envelope } from '../../src/core/report/contract';
import { jsonText } from '../../src/core/report/jsonText';
import { TrustStore } from '../../src/core/trust/trustStore';
import { hasEvaEntryFile } from '../../src/core/systems/eva/project';
import { watchedBy } from '../../src/extension/flows/indexBackend';
import { Rng } from './random';
import { StandInWorkbench } from './standInWorkbench';
import { difference } from './writes';
import { applyChange, arrangeLinks, changeText, pickChange, type LinkChange, type LinkContext } from './watchLinks';

/** What `watched-change-seen` needs from `checkInput`. */
export interface WatchedChangeCheck {
  readonly seed: string;
  readonly index: number;
  readonly root: string;
  /** The workspace folders as the CLI was given them, Eva's home, Codewhale's (null: none), the trust store. */
  readonly workspaces: readonly string[];
  readonly ws: string;
  readonly home: string;
  readonly codewhaleHome: string | null;
  readonly stateDir: string;
  readonly evaRuntime?: IndexOptions['evaRuntime'];
  readonly rivumiHooksEnv?: string;
  readonly fail: (signature: string, detail: string) => void;
}

/** Changes in a row, each seen (or not) by the watchers the index named after the one before. */
const MAX_STEPS = 2;

/**
 * `watched-change-seen` on one input: links the agents follow made in its tree
 * (watchLinks.ts `arrangeLinks`), then up to two changes to them picked from its own stream
 * `<seed>:<index>:watch` (`pickChange`), each checked by `checkChangesSeen`.
 */
export function checkWatchedChanges(c: WatchedChangeCheck): void {
  const rng = new Rng(`${c.seed}:${c.index}:watch`);
  const context: LinkContext = {
    root: c.root,
    ws: c.ws,
    home: c.home,
    codewhaleHome: c.codewhaleHome,
    evaProject: hasEvaEntryFile(c.ws),
  };
  const arranged = arrangeLinks(rng, context);
  const store = new TrustStore(c.stateDir);
  checkChangesSeen({
    root: c.root,
    workspaces: c.workspaces,
    stateDir: c.stateDir,
    options: {
      workspaces: [...c.workspaces],
      codewhaleHome: arranged.codewhaleHome,
      evaHome: c.home,
      evaUserSkills: true,
      ...(c.evaRuntime ? { evaRuntime: c.evaRuntime } : {}),
      rivumiHooksEnv: c.rivumiHooksEnv,
      trust: () => store.view(),
    },
    setup: arranged.made,
    next: (step) => (step < MAX_STEPS ? pickChange(rng, context, arranged.codewhaleHome, step) : undefined),
    fail: c.fail,
  });
}

/** One run of changes over a tree: the index's options, and the changes in turn. */
export interface ChangesSeen {
  readonly root: string;
  /** The workspace folders as the window names them (its folder watchers' bases). */
  readonly workspaces: readonly string[];
  readonly stateDir: string;
  readonly options: IndexOptions;
  /** How the links were made, a line each, for a failure's detail. */
  readonly setup: readonly string[];
  /** The change after `step` others; undefined: no more. */
  readonly next: (step: number) => LinkChange | undefined;
  readonly fail: (signature: string, detail: string) => void;
  /** The index under test (a unit test gives one whose watches are broken, to show the check fails). */
  readonly indexer?: (options: IndexOptions) => Indexer;
}

/**
 * The editor re-reads only what its watchers report. An index is read and the editor's watchers
 * made from what it names (standInWorkbench.ts); then, for each change in turn, each entry the
 * change touches is reported as the watchers see it (watchLinks.ts `applyChange`), and:
 * (a) when a fresh index prints anything else than what is shown, some watcher reported a path
 * for the change; (b) `refresh` of the paths reported gives exactly what a fresh index prints.
 * Then the watchers are made again from what the refreshed index names, as the editor does
 * (skillgateService.ts `showReplayed`), and the next change is checked against them. Stops at the
 * first failure: what is shown after it is no longer what the editor would show.
 */
export function checkChangesSeen(r: ChangesSeen): void {
  const make = r.indexer ?? ((o: IndexOptions) => new Indexer(o));
  const fresh = () => jsonText(envelope(make(r.options).indexAll()));
  const index = make(r.options);
  let shown = jsonText(envelope(index.indexAll()));
  const workbench = new StandInWorkbench(r.workspaces, r.stateDir);
  try {
    workbench.watch(watchedBy(index));
    const done: string[] = [];
    for (let step = 0; ; step++) {
      const change = r.next(step);
      if (!change) return;
      const entries: string[] = [];
      const reported = new Set<string>();
      applyChange(change, (p) => {
        const real = realEntry(p);
        if (real === undefined) return;
        entries.push(path.relative(r.root, p));
        for (const at of workbench.report(real)) reported.add(at);
      });
      const now = fresh();
      const what = () =>
        [
          `links made: ${r.setup.join('; ') || 'none (the input made them)'}`,
          ...done.map((d, n) => `change ${n + 1}: ${d}`),
          `change ${done.length + 1}: ${changeText(change, r.root)}`,
          `entries touched: ${JSON.stringify(entries.slice(0, 8))}`,
          `watchers: ${workbench.describe().join('; ')}`,
        ].join('\n  ');
      const signature = `${change.how} ${change.place.role}`;
      if (reported.size === 0) {
        if (now !== shown)
          return r.fail(
            `unseen: ${signature}`,
            `no watcher reports the change, yet a fresh index differs from what is shown: ${difference(shown, now)}\n  ${what()}`,
          );
      } else {
        const refreshed = jsonText(envelope(index.refresh([...reported])));
        if (refreshed !== now)
          return r.fail(
            `stale: ${signature}`,
            `refresh(${JSON.stringify([...reported].slice(0, 5))}) differs from a fresh index: ${difference(refreshed, now)}\n  ${what()}`,
          );
        shown = refreshed;
        workbench.watchWhatItNames(watchedBy(index));
      }
      const seen = [...reported].map((p) => path.relative(r.root, p));
      done.push(`${changeText(change, r.root)} (reported: ${JSON.stringify(seen)})`);
    }
  } finally {
    workbench.dispose();
  }
}

/** An entry's path with no link in it: its folder's real path and its own name (the entry itself, a link or gone, not followed). */
function realEntry(p: string): string | undefined {
  try {
    return path.join(fs.realpathSync.native(path.dirname(p)), path.basename(p));
  } catch {
    return undefined;
  }
}
