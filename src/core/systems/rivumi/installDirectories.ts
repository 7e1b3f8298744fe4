import * as fs from 'node:fs';
import * as path from 'node:path';
import { lstatEntry } from '../../fs/safeFs';
import { pythonOsErrorText } from './pythonOsError';

type DirectoryPlan =
  | { readonly ok: true; readonly missing: string[] }
  | {
      readonly ok: false;
      readonly component: string;
      readonly what: string;
      /** The OSError that inspecting the component raises, in Python's words. */
      readonly raised?: string;
      /** The component is there, neither a directory nor a symbolic link: creating it or below it fails. */
      readonly notDirectory?: true;
    };

/**
 * Walks `rel` below `base` one component at a time with lstat: each component that
 * exists must be a directory, never a symbolic link; from the first missing one on,
 * the rest are listed to be created, in order.
 */
export function planDirectories(base: string, rel: string): DirectoryPlan {
  const missing: string[] = [];
  let at = base;
  for (const part of rel.split(path.sep).filter((p) => p !== '' && p !== '.')) {
    at = path.join(at, part);
    if (missing.length) {
      missing.push(at);
      continue;
    }
    const entry = lstatEntry(at);
    if (entry.fault) {
      const raised = pythonOsErrorText(entry.fault, entry.error ?? 'lstat error', at);
      return { ok: false, component: at, what: `cannot be inspected (${raised})`, raised };
    }
    if (entry.type === 'missing') missing.push(at);
    else if (entry.type === 'symlink') return { ok: false, component: at, what: 'is a symbolic link' };
    else if (entry.type !== 'directory')
      return { ok: false, component: at, what: 'is not a directory', notDirectory: true };
  }
  return { ok: true, missing };
}

/** Creates one directory (never its parents, never through a link); false when it was already there. */
export function mkdirIfMissing(dir: string): boolean {
  try {
    fs.mkdirSync(dir);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST' && lstatEntry(dir).type === 'directory') return false;
    throw e;
  }
}

/** Removes directories this install created, deepest first; one that is not empty (someone else wrote there) stays. */
export function removeDirectories(created: readonly string[]): void {
  for (const dir of [...created].reverse()) {
    try {
      fs.rmdirSync(dir);
    } catch {
      // not empty or already gone: leave it
    }
  }
}
