import type * as fs from 'node:fs';
import * as path from 'node:path';
import type { fsPatcher } from './fsPatch';

/** EACCES as libuv reports it on POSIX (`errno` -13), with Node's message. */
export function permissionDenied(syscall: string, p: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`EACCES: permission denied, ${syscall} '${p}'`), {
    code: 'EACCES',
    errno: -13,
    syscall,
    path: p,
  });
}

/**
 * Makes `dir` behave as a directory this user may not read, for the calls the core makes
 * (lstat, stat, readdir, open): tests run as root in CI, where mode 000 denies nothing.
 * `mode000`: listing it fails too; `mode600`: its names are listed, but nothing inside it
 * can be reached (no search permission). The directory itself stays visible to its parent.
 */
export function denyDirectory(
  fsPatch: ReturnType<typeof fsPatcher>,
  dir: string,
  mode: 'mode000' | 'mode600' = 'mode000',
): void {
  const inside = (p: unknown) => {
    const rel = path.relative(dir, String(p));
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  };
  const at = (p: unknown) => path.resolve(String(p)) === dir;
  for (const name of ['lstatSync', 'statSync', 'openSync', 'readdirSync'] as const) {
    fsPatch.replace(name, (original) => (p: fs.PathLike, ...rest: unknown[]) => {
      if (inside(p) || (name === 'readdirSync' && mode === 'mode000' && at(p)))
        throw permissionDenied(name.replace(/Sync$/, '').replace('readdir', 'scandir'), String(p));
      return (original as (...a: unknown[]) => unknown)(p, ...rest);
    });
  }
}
