import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as Lockfile from 'proper-lockfile';
import { emptyState, stateSchema, STATE_SCHEMA_VERSION, type BundleState, type TrustState } from './stateSchema';
import type { TrustView } from '../decisions/trustView';
import { decodeUtf8, errorText } from '../fs/safeFs';
import { firstDuplicateKey } from '../documents/duplicateKeys';
import { removeTree } from './reviewedCopy';
import { folderHolding } from '../fs/folderHolding';

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

/** After this long without a refresh a writer's lock is taken over (a killed writer leaves it behind). */
const LOCK_STALE_MS = 5000;

/**
 * A reviewed copy or staging directory changed this recently may belong to a trust in
 * progress: `trust` copies the bundle before it takes the lock to write its receipt, so
 * holding the lock cannot tell its copy from an abandoned one; age can. An abandoned
 * copy merely waits this long longer to be pruned.
 */
const FRESH_COPY_MS = 60 * 60 * 1000;

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

interface LockIdentity {
  readonly dev: number;
  readonly ino: number;
  readonly mtimeMs: number;
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
    const where = this.locationProblem();
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
    let compromised = false;
    // Set when the lock turned out not to be ours: the directory at `lockDir` then
    // belongs to the writer that took it over, and releasing must not remove it.
    let forfeited = false;
    const lockFs = {
      ...fs,
      rmdir: (p: string, cb: (e: NodeJS.ErrnoException | null) => void) => (forfeited ? cb(null) : fs.rmdir(p, cb)),
      rmdirSync: (p: string) => (forfeited ? undefined : fs.rmdirSync(p)),
    };
    let release: (() => Promise<void>) | undefined;
    try {
      release = await lockfileLibrary().lock(this.file, {
        realpath: false,
        lockfilePath: lockDir,
        fs: lockFs,
        // A writer killed mid-update leaves its lock behind; after this long it is taken over.
        stale: this.options.lockStaleMs ?? LOCK_STALE_MS,
        retries: { retries: 400, factor: 1.3, minTimeout: 2, maxTimeout: 60, randomize: true },
        // proper-lockfile's default throws from a timer; a lost lock is an aborted write, reported by `commit`.
        onCompromised: () => {
          compromised = true;
        },
      });
    } catch (e) {
      // Held past every retry: another writer, or a lock no live writer refreshes that proper-lockfile
      // will not take over (dated in the future by a clock stepped back, or from another host).
      const held =
        (e as NodeJS.ErrnoException).code === 'ELOCKED'
          ? `; if no Skillgate is writing it now, remove the lock directory ${lockDir} and try again`
          : '';
      return { ok: false, message: `failed to lock the trust store ${this.file} for update: ${errorText(e)}${held}` };
    }
    let ours = (): boolean => false;
    const lost = (): Mutation<T> => {
      // Only a lock that is no longer ours is left to its new owner; after a failed
      // compare-and-swap the lock is still ours and is released as usual.
      forfeited = !ours();
      return {
        ok: false,
        message: `the trust store ${this.file} changed while this update was being made (another process took over its lock or rewrote it); nothing was written; try again`,
      };
    };
    try {
      const held = identityOf(lockDir);
      if (!held) return lost();
      ours = () => !compromised && sameIdentity(identityOf(lockDir), held);
      const current = this.read();
      if (!current.ok) return { ok: false, message: unavailableMessage(current) };
      const state = structuredClone(current.state);
      const result = change(state);
      if (!result.ok) return result;
      if (!ours()) return lost();
      this.removeAbandonedTemporaries();
      const written = this.writeAtomically(state, () => {
        this.options.beforeCommit?.();
        return this.stillOurs(ours, lockDir, held, current.text);
      });
      return written ? result : lost();
    } catch (e) {
      return {
        ok: false,
        message: `failed to write the trust store ${this.file}: ${errorText(e)}; nothing was changed`,
      };
    } finally {
      await release().catch(() => undefined);
    }
  }

  /**
   * The last check before the rename: the lock is still the one we took (same
   * directory, same mtime, never reported compromised) and `state.json` still holds
   * the bytes we read under it (a compare-and-swap that also catches a writer that
   * finished while we were paused, or a program that ignores the lock). The lock is
   * then refreshed, so the rename that follows has a whole stale period before anyone
   * may take the lock over. Should a takeover slip in between the identity check and
   * the refresh, the new directory fails the inode check here, or (inode reused) the
   * new owner finds its mtime changed in its own check: one of the two aborts.
   *
   * What remains: a pause longer than the stale period that falls exactly between this
   * check and the rename system call, where no code of ours runs. A writer that took
   * the lock over meanwhile commits, and our rename then replaces its update. Closing
   * that needs a compare-and-rename the file system does not offer.
   */
  private stillOurs(ours: () => boolean, lockDir: string, held: LockIdentity, text: string): boolean {
    if (!ours()) return false;
    if (this.currentText() !== text) return false;
    const now = new Date();
    try {
      fs.utimesSync(lockDir, now, now);
    } catch {
      return false;
    }
    const refreshed = identityOf(lockDir);
    return refreshed !== undefined && refreshed.ino === held.ino && refreshed.dev === held.dev;
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
    if (this.workspaceProblem()) return [];
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

  private locationProblem(): string | undefined {
    // First, and whether the directory exists or not: a missing one would be created there by the next trust.
    const inWorkspace = this.workspaceProblem();
    if (inWorkspace) return inWorkspace;
    const dir = lstatOrUndefined(this.dir);
    if (!dir) return undefined;
    if (dir.isSymbolicLink())
      return `trust store directory ${this.dir} is a symbolic link; Skillgate refuses it (use the directory it points to)`;
    if (!dir.isDirectory()) return `trust store directory ${this.dir} is not a directory`;
    if (process.platform !== 'win32' && (dir.mode & 0o022) !== 0)
      return `trust store directory ${this.dir} is writable by group or others (mode ${(dir.mode & 0o777).toString(8)}); make it 0700`;
    const file = lstatOrUndefined(this.file);
    if (!file) return undefined;
    if (file.isSymbolicLink())
      return `trust store ${this.file} is a symbolic link; Skillgate refuses it (replace it with the file it points to)`;
    if (!file.isFile()) return `trust store ${this.file} is not a regular file`;
    if (process.platform !== 'win32' && (file.mode & 0o022) !== 0)
      return `trust store ${this.file} is writable by group or others (mode ${(file.mode & 0o777).toString(8)}); make it 0600`;
    return undefined;
  }

  /**
   * `doctor` and `doctor --prune`: reviewed copies no receipt or history refers to, and
   * staging directories of abandoned trusts. Pruning takes the writers' lock and decides
   * from the state read inside it, so a receipt committed meanwhile keeps its copy; if a
   * writer holds the lock, nothing is pruned (waiting would make `doctor` asynchronous).
   * Fresh entries are neither listed nor pruned (`FRESH_COPY_MS`).
   */
  reviewedCopies(options: { prune?: boolean; now?: number } = {}): ReviewedCopies {
    const now = options.now ?? Date.now();
    const before = this.read();
    if (!before.ok)
      return { unreferenced: [], pruned: [], notPruned: options.prune ? unavailableMessage(before) : null };
    const listed = this.unreferencedCopies(before.state, now);
    if (!options.prune || listed.length === 0) return { unreferenced: listed, pruned: [], notPruned: null };
    let release: () => void;
    try {
      release = lockfileLibrary().lockSync(this.file, {
        realpath: false,
        lockfilePath: this.lockDir,
        stale: this.options.lockStaleMs ?? LOCK_STALE_MS,
        // The section below is synchronous: the library's refresher never runs, so it never reports a lost lock.
        onCompromised: () => undefined,
      });
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
      const unreferenced = this.unreferencedCopies(current.state, now);
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

  private unreferencedCopies(state: TrustState, now: number): string[] {
    const referenced = new Set(
      Object.values(state.bundles).flatMap((e) =>
        [e.trust?.contentHash, ...e.reviewHistory.map((r) => r.contentHash)].filter((h): h is string => !!h),
      ),
    );
    let names: string[];
    try {
      names = fs.readdirSync(this.reviewedCopiesDir);
    } catch {
      return [];
    }
    return names
      .filter((n) => (/^[0-9a-f]{64}$/.test(n) || n.startsWith('.staging-')) && !referenced.has(n))
      .filter((n) => {
        const st = lstatOrUndefined(path.join(this.reviewedCopiesDir, n));
        // A rename sets the change time, so a copy renamed into place just now counts as fresh.
        return st !== undefined && now - Math.max(st.mtimeMs, st.ctimeMs) >= FRESH_COPY_MS;
      })
      .sort();
  }

  /**
   * A state directory inside a workspace folder (after links) is refused: the repository
   * could commit a `state.json` with receipts for its own bundles (a CI job with
   * `SKILLGATE_STATE_DIR=.sg`, a setting or link that leads into the checkout).
   */
  private workspaceProblem(): string | undefined {
    const folder = this.options.workspaces && folderHolding(this.dir, this.options.workspaces());
    if (folder === undefined) return undefined;
    // A folder that holds the home directory (VS Code opened on `~`) holds the default store
    // too. It is still refused: a job whose HOME is its checkout is the same place to the file
    // system, and there the repository writes the receipts. The sentence says how to go on.
    const how = folderHolding(os.homedir(), [folder])
      ? 'this folder holds your home directory, and so the default store: open a folder inside your home directory, or set skillgate.stateDirectory, SKILLGATE_STATE_DIR or --state-dir outside this folder'
      : 'choose a state directory outside every workspace folder';
    return `trust store directory ${this.dir} is inside the workspace folder ${folder}, where the repository could write its own receipts; Skillgate refuses it (${how})`;
  }

  /** Creates the state directory (0700) if it is missing, so it can be watched before the first trust. */
  ensureDirectory(): void {
    // Never created in a workspace folder: the store there is refused anyway.
    const inWorkspace = this.workspaceProblem();
    if (inWorkspace) throw new Error(inWorkspace);
    if (fs.existsSync(this.dir)) return;
    fs.mkdirSync(path.dirname(this.dir), { recursive: true });
    try {
      fs.mkdirSync(this.dir, { mode: 0o700 });
    } catch (e) {
      // Another process (a second window, the CLI) created it first: that is fine; the
      // location checks on the next read still refuse anything that is not a plain 0700 directory.
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return;
      throw e;
    }
    fs.chmodSync(this.dir, 0o700);
  }

  /** Temporary files of a writer that was killed; safe to remove while we hold the lock. */
  private removeAbandonedTemporaries(): void {
    const prefix = `${path.basename(this.file)}.tmp-`;
    for (const name of fs.readdirSync(this.dir))
      if (name.startsWith(prefix)) fs.rmSync(path.join(this.dir, name), { force: true });
  }

  /** Writes `state` through a temporary file; renames it over `state.json` only when `mayCommit()` still holds. */
  private writeAtomically(state: TrustState, mayCommit: () => boolean): boolean {
    const tmp = `${this.file}.tmp-${process.pid}-${crypto.randomBytes(6).toString('hex')}`;
    const fd = fs.openSync(tmp, 'wx', 0o600);
    try {
      // A write may store only part of what it is given (a disk filling up); only the next one
      // fails with ENOSPC. A short write taken for the whole would rename a truncated store into place.
      const bytes = Buffer.from(JSON.stringify(state, null, 2) + '\n');
      for (let done = 0; done < bytes.length;) done += fs.writeSync(fd, bytes, done, bytes.length - done);
      fs.fsyncSync(fd);
    } catch (e) {
      fs.closeSync(fd);
      fs.rmSync(tmp, { force: true });
      throw e;
    }
    fs.closeSync(fd);
    try {
      if (!mayCommit()) {
        fs.rmSync(tmp, { force: true });
        return false;
      }
      fs.renameSync(tmp, this.file);
    } catch (e) {
      fs.rmSync(tmp, { force: true });
      throw e;
    }
    const dirFd = fs.openSync(this.dir, 'r');
    try {
      fs.fsyncSync(dirFd);
    } finally {
      fs.closeSync(dirFd);
    }
    return true;
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

function identityOf(lockDir: string): LockIdentity | undefined {
  const st = lstatOrUndefined(lockDir);
  return st?.isDirectory() ? { dev: st.dev, ino: st.ino, mtimeMs: st.mtimeMs } : undefined;
}

function sameIdentity(a: LockIdentity | undefined, b: LockIdentity): boolean {
  return a !== undefined && a.dev === b.dev && a.ino === b.ino && a.mtimeMs === b.mtimeMs;
}

function lstatOrUndefined(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
}

/** Every change of an entry increments its generation (codewhale.md §8.1). */
export function touched(entry: BundleState): BundleState {
  return { ...entry, generation: entry.generation + 1 };
}

/**
 * proper-lockfile, loaded by the first write: only writers lock, and loading it costs a
 * read-only command (`list`, `check`) its start-up, and patches `fs.closeSync` for the
 * whole process (graceful-fs, which it loads, wraps it), so every file the index reads
 * would be closed through that wrapper.
 */
function lockfileLibrary(): typeof Lockfile {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('proper-lockfile') as typeof Lockfile;
}
