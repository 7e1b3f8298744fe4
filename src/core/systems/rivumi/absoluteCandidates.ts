import * as fs from 'node:fs';
import { rawPathParts, SLASH } from './rawPathParts';

/*
 * An absolute argv candidate names a host file (`/bin/sh`) unless it lies inside the workspace
 * folder, as spelled or with its links resolved (then it is followed as a relative one), or can
 * lead there (hookArgvFiles.ts).
 */

/** `abs` relative to `root` when it lies strictly inside it, lexically. */
export function under(abs: Buffer, root: Buffer): Buffer | undefined {
  const prefix = Buffer.concat([root, Buffer.from('/')]);
  return abs.length > prefix.length && abs.subarray(0, prefix.length).equals(prefix)
    ? abs.subarray(prefix.length)
    : undefined;
}

export function canonical(ws: Buffer): Buffer {
  try {
    return fs.realpathSync.native(ws, { encoding: 'buffer' });
  } catch {
    return ws;
  }
}

/**
 * An absolute path that `.`/`..`, a per-process link (`/proc/…/cwd`, `/dev/fd/…`: they
 * lead to the hook's own working directory, the workspace) or any other link can carry
 * into the workspace.
 */
export function reachesWorkspace(abs: Buffer, canonicalWs: Buffer): boolean {
  const parts = rawPathParts(abs)
    .filter((p) => p.length > 0)
    .map((p) => p.toString('latin1'));
  if (parts.some((p) => p === '.' || p === '..')) return true;
  if (parts[0] === 'proc' || (parts[0] === 'dev' && (parts[1] === 'fd' || parts[1]?.startsWith('std')))) return true;
  // A path that does not exist yet leads into the workspace when the part of it that exists does:
  // the file it names may appear there later, unwatched and uncovered. That part is the longest
  // of the path and its ancestors that resolves. A path resolves only when its parent does, so
  // those that resolve are the shorter ones and bisection finds it: trying each ancestor from the
  // longest was quadratic in a 64 KiB argument of 30,000 components that do not exist (1 s each).
  const ancestors = ancestorLengths(abs);
  let lo = 0;
  let hi = ancestors.length;
  let real: Buffer | undefined;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const resolved = realpathOf(abs.subarray(0, ancestors[mid] as number));
    if (resolved) {
      real = resolved;
      hi = mid;
    } else lo = mid + 1;
  }
  return real !== undefined && (real.equals(canonicalWs) || under(real, canonicalWs) !== undefined);
}

/** The lengths of the absolute path and of each ancestor (up to `/`), longest first. */
function ancestorLengths(abs: Buffer): number[] {
  const out = [abs.length];
  for (let i = abs.length - 1; i > 0; i--) if (abs[i] === SLASH) out.push(i);
  if (out[out.length - 1] !== 1) out.push(1);
  return out;
}

function realpathOf(abs: Buffer): Buffer | undefined {
  try {
    return fs.realpathSync.native(abs, { encoding: 'buffer' });
  } catch {
    return undefined;
  }
}
