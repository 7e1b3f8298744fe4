import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Snapshot } from '../core/index/snapshot';
import { checkAgainstLock, type LockFinding } from '../core/lock/lockCheck';
import {
  LOCK_FILE_NAME,
  lockPath,
  lockText,
  parseLock,
  unpinnable,
  workspaceBundles,
  type LockEntry,
} from '../core/lock/lockFile';
import { capabilityChangesSinceLocked } from '../core/lock/reviewedChange';
import { lockSarif, type LockReport } from '../core/lock/lockSarif';
import type { LifecycleContext } from '../core/trust/lifecycle';
import { jsonText } from '../core/report/jsonText';
import { displayText } from '../core/text/displayText';
import { UsageError } from './options';
import type { Io } from './invocation';

/** `--lock` as given: undefined (absent), '' (bare: each workspace's own skillgate.lock) or a file name. */
function lockFileOf(workspace: string, given: string, cwd: string): string {
  return given === '' ? path.join(workspace, LOCK_FILE_NAME) : path.resolve(cwd, given);
}

/** `skillgate lock`: writes each workspace's lock; exit 1 when a bundle cannot be pinned (the rest are written). */
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
    for (const item of workspaceBundles(snapshot, ws)) {
      const problem = unpinnable(item);
      const rel = lockPath(item, ws);
      if (problem !== null || item.reviewToken === null)
        refused.push({ system: item.system, name: item.name, path: rel, problem: problem ?? 'no review token' });
      else bundles.push({ path: rel, system: item.system, name: item.name, reviewToken: item.reviewToken });
    }
    writeAtomically(lockFile, lockText(bundles));
    written.push({ lockFile, bundles, unpinnable: refused });
  }
  const refusedCount = written.reduce((n, w) => n + w.unpinnable.length, 0);
  const ok = refusedCount === 0;
  const summary = written
    .map((w) => `${path.relative(io.cwd, w.lockFile) || w.lockFile}: ${w.bundles.length} bundle(s) pinned`)
    .join('; ');
  if (json) {
    io.out(
      jsonText({
        ok,
        message: ok ? `wrote ${summary}` : `wrote ${summary}; ${refusedCount} bundle(s) cannot be pinned`,
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
  for (const ws of snapshot.workspaces) {
    const lockFile = lockFileOf(ws, given, io.cwd);
    const name = path.relative(ws, lockFile).split(path.sep).join('/') || lockFile;
    let text: string | null;
    try {
      text = fs.readFileSync(lockFile, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
        throw new UsageError(`${lockFile} cannot be read: ${(e as Error).message}`);
      // A file named on the command line must exist (a typo must not check against nothing);
      // the default one may be missing: then every bundle is new, and a repository without bundles passes.
      if (given !== '') throw new UsageError(`--lock ${given} does not exist`);
      text = null;
    }
    const parsed = text === null ? { ok: true as const, entries: [] } : parseLock(text);
    if (!parsed.ok)
      throw new UsageError(
        `${lockFile} is not a valid lock: ${parsed.problem}; run \`skillgate lock\` to write it again`,
      );
    const findings = checkAgainstLock(snapshot, ws, parsed.entries, name, (item, locked) =>
      capabilityChangesSinceLocked(item, locked, lifecycle),
    );
    reports.push({ workspace: ws, lockFile, findings, lineInLock: (f) => lineOf(text ?? '', f) });
  }
  const failing = reports.flatMap((r) => r.findings.filter((f) => f.status !== 'pinned').map((f) => ({ r, f })));
  const ok = failing.length === 0;
  const pinned = reports.reduce((n, r) => n + r.findings.filter((f) => f.status === 'pinned').length, 0);
  const message = ok
    ? `every bundle in the repository is pinned at its current review token (${pinned} bundle(s))`
    : `${failing.length} bundle(s) are not pinned at their current review token`;
  if (format === 'sarif') io.out(jsonText(lockSarif(reports, version)));
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
          exists: fs.existsSync(r.lockFile),
        })),
        bundles: reports.flatMap((r) => r.findings.map((f) => view(r, f))),
        failing: failing.map(({ r, f }) => view(r, f)),
      }),
    );
  } else if (ok) io.out(`ok: ${message}\n`);
  else {
    io.err(`skillgate: ${message}:\n`);
    for (const { f } of failing) io.err(`  ${f.status}: ${displayText(f.message)}\n`);
    io.err(
      'A pull request that changes an agent bundle must also change the lock: review the bundle (`skillgate review <name>`), run `skillgate lock` and commit skillgate.lock.\n',
    );
  }
  return ok ? 0 : 1;
}

/** The 1-based line of a bundle's `"path"` in the lock text (the first line when it cannot be found). */
function lineOf(text: string, f: LockFinding): number {
  const at = text.indexOf(`"path": ${JSON.stringify(f.path)}`);
  return at === -1 ? 1 : text.slice(0, at).split('\n').length;
}

/** Write beside, then rename: a reader (CI, an editor) never sees half a lock. */
function writeAtomically(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw new UsageError(`cannot write ${file}: ${(e as Error).message}`);
  }
}
