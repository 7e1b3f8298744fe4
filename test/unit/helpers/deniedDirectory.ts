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

/**
 * Makes `file` open, and every read of it once open fail with EIO, as on a failing disk:
 * what an agent meets mid-read (Rust's `read_to_end`, Python's `read_text`) after its open.
 */
export function failReadsOf(fsPatch: ReturnType<typeof fsPatcher>, file: string): void {
  const opened = new Set<number>();
  fsPatch.replace('openSync', (original) => (p: fs.PathLike, ...rest: unknown[]) => {
    const fd = (original as (...a: unknown[]) => number)(p, ...rest);
    if (path.resolve(String(p)) === file) opened.add(fd);
    return fd;
  });
  fsPatch.replace('readSync', (original) => (fd: number, ...rest: unknown[]) => {
    if (opened.has(fd)) throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO', errno: -5 });
    return (original as (...a: unknown[]) => number)(fd, ...rest);
  });
  // A closed descriptor's number is given to the next file opened: only this file's reads fail.
  fsPatch.replace('closeSync', (original) => (fd: number) => {
    opened.delete(fd);
    return (original as (fd: number) => void)(fd);
  });
}
