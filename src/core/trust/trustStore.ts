import * as fs from 'node:fs';
import * as path from 'node:path';
import { emptyState, stateSchema, STATE_SCHEMA_VERSION, type BundleState, type TrustState } from './stateSchema';
import type { TrustView } from '../decisions/trustView';
import { decodeUtf8, errorText } from '../fs/safeFs';
import { firstDuplicateKey } from '../documents/duplicateKeys';
import { lstatOrUndefined } from '../fs/lstatOrUndefined';
import { removeTree } from './reviewedCopy';
import { ensureStateDirectory, locationProblem, workspaceProblem } from './storeLocation';
import {
  identityOf,
  LOCK_STALE_MS,
  sameIdentity,
  stillOurs,
  takeLockWithoutWaiting,
  takeWriterLock,
} from './storeLock';
import { removeAbandonedTemporaries, UpdateNotFlushed, writeAtomically } from './stateFileWrite';
import { unreferencedCopies } from './unreferencedCopies';

export type StoreRead =
  | { readonly ok: true; readonly state: TrustState; readonly exists: boolean; readonly text: string }
  | {
      readonly ok: false;
      readonly problem: string;
      /**
       * The file's content is bad (not UTF-8 or JSON, another schema): `doctor --repair` may
       * move it aside. Otherwise its place is (a link, a mode, a file that cannot be read),
       * its receipts may be sound, and the fix is the one the problem names.
       */
      readonly badFile: boolean;
    };

export type Mutation<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

export interface ReviewedCopies {
  /** Reviewed copies and staging directories no receipt refers to and no trust in progress may still need. */
  readonly unreferenced: string[];
  readonly pruned: string[];
  /** Why nothing was pruned although pruning was asked for. */
  readonly notPruned: string | null;
}

export interface TrustStoreOptions {
  /**
   * The workspace folders being indexed (read at each use: the editor's folders change): a
   * state directory inside one is refused (trust.md: never read from or written to the workspace).
   */
  readonly workspaces?: () => readonly string[];
  /** Tests: a shorter stale period (proper-lockfile's minimum is 2000 ms). */
  readonly lockStaleMs?: number;
  /** Tests: runs inside the critical section, after the temporary file is written and before the ownership check. */
  readonly beforeCommit?: () => void;
}

/**
 * The trust store: one `state.json` in the state directory (trust.md). Readers never
 * lock; every writer takes an exclusive cross-process lock (proper-lockfile), re-reads
 * the file inside it, applies its change and replaces the file atomically (temp file,
 * flush, rename, directory flush). Anything wrong with the file or its location makes
 * the store unavailable: decisions fail closed, mutations are refused, and the file is
 * never overwritten.
 */
export class TrustStore {
  readonly file: string;
  readonly reviewedCopiesDir: string;
  /** The writers' lock, shared with `doctor --prune`. */
  private readonly lockDir: string;

  constructor(
    readonly dir: string,
    private readonly options: TrustStoreOptions = {},
  ) {
    this.file = path.join(dir, 'state.json');
    this.lockDir = `${this.file}.lock`;
    // The reviewed copies' directory keeps its on-disk name, part of the store's format (spec/trust.md).
    this.reviewedCopiesDir = path.join(dir, 'snapshots');
  }

  read(): StoreRead {
    const where = locationProblem(this.dir, this.file, this.options.workspaces);
    if (where) return { ok: false, problem: where, badFile: false };
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(this.file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT')
        return { ok: true, state: emptyState(), exists: false, text: '' };
      return { ok: false, problem: `trust store ${this.file} cannot be read: ${errorText(e)}`, badFile: false };
    }
    const text = decodeUtf8(bytes);
    if (text === undefined)
      return {
        ok: false,
        problem: `trust store ${this.file} is not valid JSON (its bytes are not valid UTF-8)`,
        badFile: true,
      };
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      return {
        ok: false,
        problem: `trust store ${this.file} is not valid JSON (${(e as Error).message})`,
        badFile: true,
      };
    }
    // JSON.parse keeps the last of two equal keys; the store refuses to guess (trust.md "Fail closed").
    let duplicate: (string | number)[] | undefined;
    try {
      duplicate = firstDuplicateKey(text);
    } catch (e) {
      return { ok: false, problem: `trust store ${this.file} cannot be checked (${errorText(e)})`, badFile: true };
    }
    if (duplicate)
      return {
        ok: false,
        problem: `trust store ${this.file} has a duplicate key at ${keyPath(duplicate)}`,
        badFile: true,
      };
    const version =
      typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>).schemaVersion : undefined;
    if (version !== STATE_SCHEMA_VERSION)
      return {
        ok: false,
        problem: `trust store ${this.file} has schema version ${JSON.stringify(version)}; this Skillgate reads version ${STATE_SCHEMA_VERSION}`,
        badFile: true,
      };
    const parsed = stateSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const at = issue ? issue.path.map(String).join('.') : '';
      const what =
        issue?.code === 'unrecognized_keys'
          ? `unknown field ${issue.keys.map((k) => `\`${k}\``).join(', ')}`
          : (issue?.message ?? 'invalid');
      return {
        ok: false,
        problem: `trust store ${this.file} does not match its schema${at ? ` at ${at}` : ''}: ${what}`,
        badFile: true,
      };
    }
    return { ok: true, state: parsed.data, exists: true, text };
  }

  /** The decisions' view of the store, read once. */
  view(): TrustView {
    const r = this.read();
    if (!r.ok) return { available: false, problem: r.problem };
    const bundles = r.state.bundles;
    // An empty file is not valid JSON, so '' (no file) is a revision no file has.
    return { available: true, lookup: (key) => bundles[key], revision: r.text };
  }

  /**
   * Applies `change` to the current state under the lock. `change` returns the value
   * to report, or a refusal; a refusal writes nothing.
   *
   * The lock can be lost while we hold it: the section below is synchronous, so
   * proper-lockfile's refresher never runs in it, and a writer paused for longer than
   * the stale time (Ctrl-Z, laptop sleep, a debugger) finds its lock taken over when
   * it resumes. A writer that no longer owns the lock writes nothing and reports it:
   * ownership is proven again immediately before the rename (`stillOurs`).
   */
  async mutate<T>(change: (state: TrustState) => Mutation<T>): Promise<Mutation<T>> {
    const before = this.read();
    if (!before.ok) return { ok: false, message: unavailableMessage(before) };
    try {
      this.ensureDirectory();
    } catch (e) {
      return { ok: false, message: `cannot create the trust store directory ${this.dir}: ${errorText(e)}` };
    }
    const { lockDir } = this;
    const taken = await takeWriterLock(this.file, lockDir, this.options.lockStaleMs ?? LOCK_STALE_MS);
    if (!taken.ok) return taken;
    const { lock } = taken;
    let ours = (): boolean => false;
    const lost = (): Mutation<T> => {
      // Only a lock that is no longer ours is left to its new owner; after a failed
      // compare-and-swap the lock is still ours and is released as usual.
      if (!ours()) lock.forfeit();
      return {
        ok: false,
        message: `the trust store ${this.file} changed while this update was being made (another process took over its lock or rewrote it); nothing was written; try again`,
      };
    };
    try {
      const held = identityOf(lockDir);
      if (!held) return lost();
      ours = () => !lock.compromised() && sameIdentity(identityOf(lockDir), held);
      const current = this.read();
      if (!current.ok) return { ok: false, message: unavailableMessage(current) };
      const state = structuredClone(current.state);
      const result = change(state);
      if (!result.ok) return result;
      if (!ours()) return lost();
      removeAbandonedTemporaries(this.dir, this.file);
      const written = writeAtomically(this.dir, this.file, state, () => {
        this.options.beforeCommit?.();
        return stillOurs(ours, lockDir, held, current.text, () => this.currentText());
      });
      return written ? result : lost();
    } catch (e) {
      if (e instanceof UpdateNotFlushed)
        return {
          ok: false,
          message: `the trust store ${this.file} was updated, but its directory could not be flushed to disk (${errorText(e.reason)}): the update is in place, and may not survive a crash until the next change to the store flushes it`,
        };
      return {
        ok: false,
        message: `failed to write the trust store ${this.file}: ${errorText(e)}; nothing was changed`,
      };
    } finally {
      await lock.release().catch(() => undefined);
    }
  }

  /** The file's text now, '' when there is none (as `read` reports a missing file). */
  private currentText(): string | undefined {
    try {
      return decodeUtf8(fs.readFileSync(this.file));
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ENOENT' ? '' : undefined;
    }
  }

  /**
   * `doctor --repair`: moves a bad state file aside, only when asked. Only bad content
   * is moved: a store refused for where it lives (a linked, group-writable or misplaced
   * directory or file) may hold valid receipts, and moving them aside would lose every
   * one; it is reported with what to do and left as it is. Nothing is ever done through
   * a location the store refuses.
   */
  repair(now = new Date()): { moved: string | null; problem: string | null } {
    const r = this.read();
    if (r.ok) return { moved: null, problem: null };
    if (!r.badFile)
      return { moved: null, problem: `${r.problem}; --repair moves only a bad file, so nothing was moved` };
    if (!lstatOrUndefined(this.file)) return { moved: null, problem: r.problem };
    const aside = `${this.file}.corrupt-${now.toISOString().replace(/[:.]/g, '-')}`;
    try {
      fs.renameSync(this.file, aside);
    } catch (e) {
      // A read-only file system, say: the file stays as it is, and the report says why.
      return { moved: null, problem: `${r.problem}; it could not be moved aside (${errorText(e)})` };
    }
    return { moved: aside, problem: r.problem };
  }

  /**
   * Earlier bad files `repair` moved aside, still beside the store: their receipts are never
   * read again, so `doctor` names them until the user deletes them. In byte order of name.
   */
  setAside(): string[] {
    // A directory in a workspace folder holds what the repository committed, not what `--repair` moved.
    if (workspaceProblem(this.dir, this.options.workspaces)) return [];
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return [];
    }
    const prefix = `${path.basename(this.file)}.corrupt-`;
    return names
      .filter((n) => n.startsWith(prefix))
      .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
      .map((n) => path.join(this.dir, n));
  }

  /**
   * `doctor` and `doctor --prune`: reviewed copies no receipt or history refers to, and
   * staging directories of abandoned trusts. Pruning takes the writers' lock and decides
   * from the state read inside it, so a receipt committed meanwhile keeps its copy; if a
   * writer holds the lock, nothing is pruned (waiting would make `doctor` asynchronous).
   * Fresh entries are neither listed nor pruned (unreferencedCopies.ts `FRESH_COPY_MS`).
   */
  reviewedCopies(options: { prune?: boolean; now?: number } = {}): ReviewedCopies {
    const now = options.now ?? Date.now();
    const before = this.read();
    if (!before.ok)
      return { unreferenced: [], pruned: [], notPruned: options.prune ? unavailableMessage(before) : null };
    const listed = unreferencedCopies(before.state, this.reviewedCopiesDir, now);
    if (!options.prune || listed.length === 0) return { unreferenced: listed, pruned: [], notPruned: null };
    let release: () => void;
    try {
      release = takeLockWithoutWaiting(this.file, this.lockDir, this.options.lockStaleMs ?? LOCK_STALE_MS);
    } catch (e) {
      return {
        unreferenced: listed,
        pruned: [],
        notPruned: `the trust store ${this.file} is being written by another process (${errorText(e)}); nothing was pruned; try again`,
      };
    }
    try {
      const current = this.read();
      if (!current.ok) return { unreferenced: [], pruned: [], notPruned: unavailableMessage(current) };
      const unreferenced = unreferencedCopies(current.state, this.reviewedCopiesDir, now);
      for (const name of unreferenced) removeTree(path.join(this.reviewedCopiesDir, name));
      return { unreferenced, pruned: unreferenced, notPruned: null };
    } finally {
      try {
        release();
      } catch {
        // Taken over after the stale period: the lock is its new owner's to release.
      }
    }
  }

  /** Creates the state directory (0700) if it is missing, so it can be watched before the first trust. */
  ensureDirectory(): void {
    ensureStateDirectory(this.dir, this.options.workspaces);
  }
}

/**
 * What an unavailable store means for the agents, in `doctor`: not "every bundle is
 * disabled", which is true only where the agent honours a switch.
 */
export const UNAVAILABLE_EFFECT =
  'Until this is fixed no bundle counts as trusted: Codewhale bundles stay disabled, and what Rivumi and Eva-CLI load anyway shows as loaded and not reviewed.';

export function unavailableMessage(failure: { problem: string; badFile: boolean }): string {
  return `The trust store is unavailable: ${failure.problem}. Nothing was changed; run \`skillgate doctor\` to see why${failure.badFile ? ', and `skillgate doctor --repair` to move the bad file aside' : ''}.`;
}

/** `bundles.<key>.enabled`; a segment that is not a plain word is quoted. */
function keyPath(at: readonly (string | number)[]): string {
  return at
    .map((k) => (typeof k === 'number' ? `[${k}]` : /^[A-Za-z0-9_$-]+$/.test(k) ? k : JSON.stringify(k)))
    .join('.')
    .replace(/\.\[/g, '[');
}

/** Every change of an entry increments its generation (codewhale.md §8.1). */
export function touched(entry: BundleState): BundleState {
  return { ...entry, generation: entry.generation + 1 };
}
