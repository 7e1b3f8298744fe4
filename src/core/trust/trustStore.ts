import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import lockfile from 'proper-lockfile';
import { emptyState, stateSchema, STATE_SCHEMA_VERSION, type BundleState, type TrustState } from './stateSchema';
import type { TrustView } from './trustView';
import { errorText } from '../fs/safeFs';
import { firstDuplicateKey } from '../documents/duplicateKeys';

export type StoreRead = { readonly ok: true; readonly state: TrustState; readonly exists: boolean; readonly text: string } | { readonly ok: false; readonly problem: string };

export type Mutation<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

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
  readonly snapshotsDir: string;

  constructor(readonly dir: string) {
    this.file = path.join(dir, 'state.json');
    this.snapshotsDir = path.join(dir, 'snapshots');
  }

  read(): StoreRead {
    const where = this.locationProblem();
    if (where) return { ok: false, problem: where };
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, state: emptyState(), exists: false, text: '' };
      return { ok: false, problem: `trust store ${this.file} cannot be read: ${errorText(e)}` };
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      return { ok: false, problem: `trust store ${this.file} is not valid JSON (${(e as Error).message})` };
    }
    // JSON.parse keeps the last of two equal keys; the store refuses to guess (trust.md "Fail closed").
    let duplicate: (string | number)[] | undefined;
    try {
      duplicate = firstDuplicateKey(text);
    } catch (e) {
      return { ok: false, problem: `trust store ${this.file} cannot be checked (${errorText(e)})` };
    }
    if (duplicate) return { ok: false, problem: `trust store ${this.file} has a duplicate key at ${keyPath(duplicate)}` };
    const version = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>).schemaVersion : undefined;
    if (version !== STATE_SCHEMA_VERSION) return { ok: false, problem: `trust store ${this.file} has schema version ${JSON.stringify(version)}; this Skillgate reads version ${STATE_SCHEMA_VERSION}` };
    const parsed = stateSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const at = issue ? issue.path.map(String).join('.') : '';
      const what = issue?.code === 'unrecognized_keys' ? `unknown field ${issue.keys.map((k) => `\`${k}\``).join(', ')}` : (issue?.message ?? 'invalid');
      return { ok: false, problem: `trust store ${this.file} does not match its schema${at ? ` at ${at}` : ''}: ${what}` };
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
   */
  async mutate<T>(change: (state: TrustState) => Mutation<T>): Promise<Mutation<T>> {
    const before = this.read();
    if (!before.ok) return { ok: false, message: unavailableMessage(before.problem) };
    try {
      this.ensureDirectory();
    } catch (e) {
      return { ok: false, message: `cannot create the trust store directory ${this.dir}: ${errorText(e)}` };
    }
    let release: (() => Promise<void>) | undefined;
    try {
      release = await lockfile.lock(this.file, {
        realpath: false,
        lockfilePath: `${this.file}.lock`,
        // A writer killed mid-update leaves its lock behind; after this long it is taken over.
        stale: 5000,
        retries: { retries: 400, factor: 1.3, minTimeout: 2, maxTimeout: 60, randomize: true },
      });
    } catch (e) {
      return { ok: false, message: `failed to lock the trust store ${this.file} for update: ${errorText(e)}` };
    }
    try {
      const current = this.read();
      if (!current.ok) return { ok: false, message: unavailableMessage(current.problem) };
      const state = structuredClone(current.state);
      const result = change(state);
      if (!result.ok) return result;
      this.removeAbandonedTemporaries();
      this.writeAtomically(state);
      return result;
    } catch (e) {
      return { ok: false, message: `failed to write the trust store ${this.file}: ${errorText(e)}; nothing was changed` };
    } finally {
      await release().catch(() => undefined);
    }
  }

  /** `doctor --repair`: moves a bad state file aside, only when asked. */
  repair(now = new Date()): { moved: string | null; problem: string | null } {
    const r = this.read();
    if (r.ok) return { moved: null, problem: null };
    if (!fs.existsSync(this.file)) return { moved: null, problem: r.problem };
    const aside = `${this.file}.corrupt-${now.toISOString().replace(/[:.]/g, '-')}`;
    fs.renameSync(this.file, aside);
    return { moved: aside, problem: r.problem };
  }

  private locationProblem(): string | undefined {
    const dir = lstatOrUndefined(this.dir);
    if (!dir) return undefined;
    if (dir.isSymbolicLink()) return `trust store directory ${this.dir} is a symbolic link; Skillgate refuses it`;
    if (!dir.isDirectory()) return `trust store directory ${this.dir} is not a directory`;
    if (process.platform !== 'win32' && (dir.mode & 0o022) !== 0) return `trust store directory ${this.dir} is writable by group or others (mode ${(dir.mode & 0o777).toString(8)}); make it 0700`;
    const file = lstatOrUndefined(this.file);
    if (!file) return undefined;
    if (file.isSymbolicLink()) return `trust store ${this.file} is a symbolic link; Skillgate refuses it`;
    if (!file.isFile()) return `trust store ${this.file} is not a regular file`;
    if (process.platform !== 'win32' && (file.mode & 0o022) !== 0) return `trust store ${this.file} is writable by group or others (mode ${(file.mode & 0o777).toString(8)}); make it 0600`;
    return undefined;
  }

  /** Creates the state directory (0700) if it is missing, so it can be watched before the first trust. */
  ensureDirectory(): void {
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
    for (const name of fs.readdirSync(this.dir)) if (name.startsWith(prefix)) fs.rmSync(path.join(this.dir, name), { force: true });
  }

  private writeAtomically(state: TrustState): void {
    const tmp = `${this.file}.tmp-${process.pid}-${crypto.randomBytes(6).toString('hex')}`;
    const fd = fs.openSync(tmp, 'wx', 0o600);
    try {
      fs.writeSync(fd, JSON.stringify(state, null, 2) + '\n');
      fs.fsyncSync(fd);
    } catch (e) {
      fs.closeSync(fd);
      fs.rmSync(tmp, { force: true });
      throw e;
    }
    fs.closeSync(fd);
    try {
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
  }
}

export function unavailableMessage(problem: string): string {
  return `The trust store is unavailable: ${problem}. Nothing was changed; run \`skillgate doctor\` to see why, and \`skillgate doctor --repair\` to move the bad file aside.`;
}

/** `bundles.<key>.enabled`; a segment that is not a plain word is quoted. */
function keyPath(at: readonly (string | number)[]): string {
  return at.map((k) => (typeof k === 'number' ? `[${k}]` : /^[A-Za-z0-9_$-]+$/.test(k) ? k : JSON.stringify(k))).join('.').replace(/\.\[/g, '[');
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
