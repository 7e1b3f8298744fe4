import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeUtf8, isInside, lstatEntry, readRegularFile } from '../core/fs/safeFs';
import { firstNonDirectory } from '../core/fs/firstNonDirectory';
import { portableRelative } from '../core/fs/portablePath';
import type { Snapshot } from '../core/index/snapshot';
import { checkAgainstLock, type LockFinding } from '../core/lock/lockCheck';
import {
  LOCK_FILE_NAME,
  lockPath,
  lockText,
  parseLock,
  unpinnable,
  samePlaceBundles,
  workspaceBundles,
  type LockEntry,
} from '../core/lock/lockFile';
import { capabilityChangesSinceLocked } from '../core/lock/reviewedChange';
import { lockSarif, type LockPlace, type LockReport } from '../core/lock/lockSarif';
import type { LifecycleContext } from '../core/trust/lifecycle';
import { jsonText } from '../core/report/jsonText';
import { displayPath } from '../core/report/contract';
import { displayText } from '../core/text/displayText';
import { unreadPlaces, unreadPlacesProblem } from '../core/trust/checkGate';
import { UsageError } from './options';
import type { Io } from './invocation';

/** `--lock` as given: undefined (absent), '' (bare: each workspace's own skillgate.lock) or a file name. */
function lockFileOf(workspace: string, given: string, cwd: string): string {
  return given === '' ? path.join(workspace, LOCK_FILE_NAME) : path.resolve(cwd, given);
}

/**
 * `skillgate lock`: writes each workspace's lock; exit 1 when a bundle cannot be pinned (the rest
 * are written), or when Skillgate's own limits left places unread that the agents read
 * (checkGate.ts `unreadPlaces`): the lock then pins a repository Skillgate did not read whole,
 * and `check --lock` fails on it. Each place is named as `check` names it (cli.md: exit 1 for a
 * refused operation; the lock is still written, as for a bundle it cannot pin).
 */
export function writeLocks(snapshot: Snapshot, given: string, io: Io, json: boolean): number {
  const written: {
    lockFile: string;
    bundles: LockEntry[];
    unpinnable: { system: string; name: string; path: string; problem: string }[];
  }[] = [];
  for (const ws of snapshot.workspaces) {
    const lockFile = lockFileOf(ws, given, io.cwd);
    const bundles: LockEntry[] = [];
    const refused: { system: string; name: string; path: string; problem: string }[] = [];
    const items = workspaceBundles(snapshot, ws);
    const shared = samePlaceBundles(items, ws);
    for (const item of items) {
      const problem = unpinnable(item, shared.has(item));
      const rel = lockPath(item, ws);
      if (problem !== null || item.reviewToken === null)
        refused.push({ system: item.system, name: item.name, path: rel, problem: problem ?? 'no review token' });
      else bundles.push({ path: rel, system: item.system, name: item.name, reviewToken: item.reviewToken });
    }
    writeAtomically(lockFile, lockText(bundles), ws);
    written.push({ lockFile, bundles, unpinnable: refused });
  }
  const refusedCount = written.reduce((n, w) => n + w.unpinnable.length, 0);
  const places = unreadPlaces(snapshot);
  const unread = unreadPlacesProblem(places);
  const ok = refusedCount === 0 && unread === null;
  const summary = written
    .map((w) => `${path.relative(io.cwd, w.lockFile) || w.lockFile}: ${w.bundles.length} bundle(s) pinned`)
    .join('; ');
  if (json) {
    io.out(
      jsonText({
        ok,
        message: [`wrote ${summary}`, refusedCount > 0 ? `${refusedCount} bundle(s) cannot be pinned` : null, unread]
          .filter((m): m is string => m !== null)
          .join('; '),
        locks: written,
      }),
    );
    return ok ? 0 : 1;
  }
  io.out(
    `${displayText(`Wrote ${summary}. The lock pins what your team reviewed for CI (\`skillgate check --lock\`); it grants no trust.`)}\n`,
  );
  for (const w of written)
    for (const r of w.unpinnable)
      io.err(`skillgate: ${displayText(`${r.system} bundle ${r.name} (${r.path}) cannot be pinned: ${r.problem}`)}\n`);
  if (unread !== null) {
    io.err(`skillgate: ${unread}:\n`);
    for (const d of places) io.err(`  ${displayText(`${displayPath(d.file, snapshot.workspaces)}: ${d.message}`)}\n`);
    io.err(
      "The lock pins none of what is there, so `skillgate check --lock` fails until those files are within Skillgate's limits.\n",
    );
  }
  return ok ? 0 : 1;
}

/** `skillgate check --lock [<file>]`: 0 when every bundle is pinned at its current token, 1 otherwise, 2 for a missing or malformed lock file. */
export function checkLocks(
  snapshot: Snapshot,
  given: string,
  format: 'text' | 'json' | 'sarif',
  io: Io,
  version: string,
  lifecycle: LifecycleContext,
): number {
  const reports: LockReport[] = [];
  // The locks that were read: a second look (existsSync) would follow a link the read refused.
  const present = new Set<LockReport>();
  for (const ws of snapshot.workspaces) {
    const lockFile = lockFileOf(ws, given, io.cwd);
    const name = path.relative(ws, lockFile).split(path.sep).join('/') || lockFile;
    const text = readLock(lockFile, given, ws);
    const parsed = text === null ? { ok: true as const, entries: [] } : parseLock(text);
    if (!parsed.ok)
      throw new UsageError(
        `${lockFile} is not a valid lock: ${parsed.problem}; run \`skillgate lock\` to write it again`,
      );
    const findings = checkAgainstLock(snapshot, ws, parsed.entries, name, (item, locked) =>
      capabilityChangesSinceLocked(item, locked, lifecycle),
    );
    const report: LockReport = { workspace: ws, lockFile, findings, placeInLock: (f) => placeOf(text ?? '', f) };
    reports.push(report);
    if (text !== null) present.add(report);
  }
  const failing = reports.flatMap((r) => r.findings.filter((f) => f.status !== 'pinned').map((f) => ({ r, f })));
  // Files Skillgate's own limits left unread are in no bundle, so in no lock: the agents may load them unseen.
  const places = unreadPlaces(snapshot);
  const unread = unreadPlacesProblem(places);
  const ok = failing.length === 0 && unread === null;
  const pinned = reports.reduce((n, r) => n + r.findings.filter((f) => f.status === 'pinned').length, 0);
  // Named, since a run from a subdirectory checks only what lies under it (cli.md: the workspace is the current directory).
  const where = snapshot.workspaces.join(', ');
  const message = ok
    ? `every bundle under ${where} is pinned at its current review token (${pinned} bundle(s))${pinned === 0 && present.size === 0 ? '; no agent bundle and no lock are there (run from the repository root, or pass --workspace)' : ''}`
    : [failing.length ? `${failing.length} bundle(s) are not pinned at their current review token` : null, unread]
        .filter((m): m is string => m !== null)
        .join('; ');
  if (format === 'sarif') io.out(jsonText(lockSarif(reports, version, places)));
  else if (format === 'json') {
    const view = (r: LockReport, f: LockFinding) => ({
      status: f.status,
      system: f.system,
      name: f.name,
      path: f.path,
      workspace: r.workspace,
      reviewToken: f.reviewToken,
      lockedReviewToken: f.lockedReviewToken,
      contentChanged: f.contentChanged,
      capabilitiesChanged: f.capabilitiesChanged,
      capabilityChanges: f.capabilityChanges,
      message: f.message,
    });
    io.out(
      jsonText({
        ok,
        message,
        locks: reports.map((r) => ({
          workspace: r.workspace,
          lockFile: r.lockFile,
          exists: present.has(r),
        })),
        bundles: reports.flatMap((r) => r.findings.map((f) => view(r, f))),
        failing: failing.map(({ r, f }) => view(r, f)),
      }),
    );
  } else if (ok) io.out(`ok: ${displayText(message)}\n`);
  else {
    io.err(`skillgate: ${message}:\n`);
    for (const { f } of failing) io.err(`  ${f.status}: ${displayText(f.message)}\n`);
    for (const d of places)
      io.err(`  unread: ${displayText(`${displayPath(d.file, snapshot.workspaces)}: ${d.message}`)}\n`);
    io.err(
      'A pull request that changes an agent bundle must also change the lock: review the bundle (`skillgate review <name>`), run `skillgate lock` and commit skillgate.lock.\n',
    );
  }
  return ok ? 0 : 1;
}

/**
 * Where a bundle's `"path": "…"` member is in the lock text: its 1-based line and the
 * columns it starts at and ends before, in UTF-16 code units as every SARIF region
 * Skillgate writes (the start of the first line, empty, when it cannot be found).
 */
function placeOf(text: string, f: LockFinding): LockPlace {
  const member = `"path": ${JSON.stringify(f.path)}`;
  const at = text.indexOf(member);
  if (at === -1) return { line: 1, startColumn: 1, endColumn: 1 };
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const line = text.slice(0, at).split('\n').length;
  return { line, startColumn: at - lineStart + 1, endColumn: at - lineStart + member.length + 1 };
}

/**
 * Far above any real lock (a bundle's entry is about 250 bytes, so some 60,000 bundles),
 * and a bound on what a repository can make `check --lock` hold in memory.
 */
export const MAX_LOCK_BYTES = 16 * 1024 * 1024;

/**
 * The lock's text; null when the default lock is missing. The lock is repository
 * content, so it is read as the indexer reads bundles (safeFs.ts): never through a
 * symbolic link, never a FIFO or device, never past MAX_LOCK_BYTES. Otherwise a
 * committed `skillgate.lock -> /dev/zero` exhausts the runner's memory, and one to a
 * secret prints its first bytes into the CI log in the parse error. A file named with
 * `--lock <file>` is refused as a link too: CI scripts name the repository's own file
 * (`--lock skillgate.lock`), and the user chose that name, not what a pull request
 * plants at it; a lock kept elsewhere is named by its real path. The folders on the way
 * from the workspace to a lock inside it are the repository's too, so a link among them
 * is refused as `writeAtomically` refuses one: a committed `ci -> /elsewhere` would
 * otherwise print the first bytes of what it leads to in the parse error.
 */
function readLock(lockFile: string, given: string, workspace: string): string | null {
  const link = isInside(workspace, lockFile) ? linkedFolderInWorkspace(workspace, lockFile) : undefined;
  if (link !== undefined)
    throw new UsageError(
      `cannot read ${lockFile}: ${link} is a symbolic link in the workspace; a lock is never read through one`,
    );
  const read = readRegularFile(lockFile, MAX_LOCK_BYTES);
  if (read.ok) {
    const text = decodeUtf8(read.bytes);
    if (text === undefined)
      throw new UsageError(
        `${lockFile} is not a valid lock: it is not UTF-8; run \`skillgate lock\` to write it again`,
      );
    return text;
  }
  switch (read.reason) {
    case 'missing':
      // A file named on the command line must exist (a typo must not check against nothing);
      // the default one may be missing: then every bundle is new, and a repository without bundles passes.
      if (given !== '') throw new UsageError(`--lock ${given} does not exist`);
      return null;
    case 'symlink':
      throw new UsageError(`${lockFile} is a symbolic link; a lock is read only from a regular file`);
    case 'not-file':
      throw new UsageError(`${lockFile} is not a regular file; a lock is read only from a regular file`);
    case 'too-large':
      throw new UsageError(`${lockFile} is larger than a lock can be (over ${MAX_LOCK_BYTES} bytes)`);
    case 'io':
      throw new UsageError(`${lockFile} cannot be read: ${read.error ?? 'unknown error'}`);
  }
}

/**
 * Write beside, then rename: a reader (CI, an editor) never sees half a lock. The name
 * beside is random and created exclusively (O_CREAT|O_EXCL, as install.ts writes): a
 * repository can commit a symbolic link at any name it can predict (`skillgate.lock.<pid>.tmp`
 * for every pid), and an exclusive create refuses an existing path, a link included,
 * where a plain write follows it to a file outside. rename(2) then replaces whatever is
 * at `file`, a symbolic link too, without following it. The folders on the way from the
 * workspace to a `--lock` inside it are the repository's too (`ci -> ../../other`), so
 * a link among them is refused as install.ts refuses one; a lock outside the workspace
 * is the user's own place, reached as they named it.
 */
function writeAtomically(file: string, text: string, workspace: string): void {
  const link = isInside(workspace, file) ? linkedFolderInWorkspace(workspace, file) : undefined;
  if (link !== undefined)
    throw new UsageError(
      `cannot write ${file}: ${link} is a symbolic link in the workspace; a lock is never written through one`,
    );
  // rename(2) replaces any non-directory at the name: a FIFO, a socket or a device the user
  // named (`--lock /dev/null`, as root) would be destroyed rather than written to. A lock is
  // a regular file; a symbolic link there is replaced, never followed (above).
  const at = lstatEntry(file);
  // (An lstat that failed is `other` with its error: the write below fails and says why.)
  if (at.type === 'directory' || (at.type === 'other' && at.error === undefined))
    throw new UsageError(
      `cannot write ${file}: it is ${at.type === 'directory' ? 'a directory' : 'not a regular file'}; a lock is written only as a regular file`,
    );
  const tmp = `${file}.skillgate-${crypto.randomBytes(6).toString('hex')}.tmp`;
  let created = false;
  try {
    const fd = fs.openSync(tmp, 'wx');
    created = true;
    try {
      fs.writeFileSync(fd, text);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (e) {
    // Only what this call created: an existing path at the name is not ours to remove.
    if (created) fs.rmSync(tmp, { force: true });
    throw new UsageError(`cannot write ${file}: ${(e as Error).message}`);
  }
}

/** The first folder on the way from the workspace to `file` inside it that is a symbolic link, workspace-relative. */
function linkedFolderInWorkspace(workspace: string, file: string): string | undefined {
  const stop = firstNonDirectory(workspace, path.dirname(file));
  return stop?.type === 'symlink' ? portableRelative(workspace, stop.at) : undefined;
}
