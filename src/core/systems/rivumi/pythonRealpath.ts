import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeRawName, osPath } from '../../fs/rawNames';

/**
 * Python's `Path.resolve()` (strict=False), which is `os.path.realpath` (rivumi.md §5.3,
 * §5.6): components are resolved one by one, so a `..` after a link leaves the link's
 * target, not the link's directory; a link whose target is missing still resolves to that
 * target (a dangling link out of the repository is outside it); what does not exist is
 * kept as spelled. Node's `path.resolve` removes `..` before any link is read, and
 * `realpath` fails on the first missing component, so neither gives Rivumi's answer.
 * A link loop ends the resolution where it is found (Python 3.11's pathlib then raises
 * RuntimeError, 3.13's does not): the path stays inside and is then missing.
 * Names are surrogate-escaped strings (rawNames.ts), links read as bytes.
 */
export function pythonRealpath(p: string): string {
  if (path.sep !== '/') return windowsRealpath(p);
  const [resolved] = joinRealpath('', path.isAbsolute(p) ? p : `${process.cwd()}/${p}`, new Map());
  // realpath ends with abspath(): normalized, and absolute.
  return path.resolve(resolved);
}

/**
 * How many links deep a chain is followed. Python recurses once per link and stops near its
 * recursion limit (about a thousand frames); a hostile chain of thousands of links would
 * exhaust this stack instead. Past it, the chain ends as a loop does.
 */
const MAX_LINK_DEPTH = 900;

/** posixpath._joinrealpath: `rest` resolved onto the already resolved `base`; false after a loop. */
function joinRealpath(base: string, rest: string, seen: Map<string, string | null>, depth = 0): [string, boolean] {
  let current = base;
  let remaining = rest;
  if (remaining.startsWith('/')) {
    remaining = remaining.slice(1);
    current = '/';
  }
  while (remaining !== '') {
    const slash = remaining.indexOf('/');
    const name = slash < 0 ? remaining : remaining.slice(0, slash);
    remaining = slash < 0 ? '' : remaining.slice(slash + 1);
    if (name === '' || name === '.') continue;
    if (name === '..') {
      if (current === '') current = '..';
      else {
        const [head, tail] = split(current);
        current = tail === '..' ? join(join(head, '..'), '..') : head;
      }
      continue;
    }
    const next = join(current, name);
    const target = linkTarget(next);
    if (target === undefined) {
      current = next;
      continue;
    }
    if (seen.has(next)) {
      const known = seen.get(next);
      if (typeof known === 'string') {
        current = known;
        continue;
      }
      return [join(next, remaining), false];
    }
    if (depth >= MAX_LINK_DEPTH) return [join(next, remaining), false];
    seen.set(next, null);
    const [resolved, ok] = joinRealpath(current, target, seen, depth + 1);
    if (!ok) return [join(resolved, remaining), false];
    current = resolved;
    seen.set(next, current);
  }
  return [current, true];
}

/** The link's target when `p` is a symbolic link; undefined for anything else, or nothing there. */
function linkTarget(p: string): string | undefined {
  try {
    if (!fs.lstatSync(osPath(p)).isSymbolicLink()) return undefined;
    return decodeRawName(fs.readlinkSync(osPath(p), { encoding: 'buffer' }));
  } catch {
    return undefined;
  }
}

/** posixpath.join of two parts. */
function join(a: string, b: string): string {
  if (b.startsWith('/')) return b;
  return a === '' || a.endsWith('/') ? a + b : `${a}/${b}`;
}

/** posixpath.split: the head keeps a root of slashes, else loses its trailing ones. */
function split(p: string): [string, string] {
  const i = p.lastIndexOf('/') + 1;
  let head = p.slice(0, i);
  if (head !== '' && !/^\/+$/.test(head)) head = head.replace(/\/+$/, '');
  return [head, p.slice(i)];
}

/** Windows: links resolved as far as the path exists, the rest kept as spelled. */
function windowsRealpath(p: string): string {
  const rest: string[] = [];
  let cur = path.resolve(p);
  for (;;) {
    try {
      return path.join(decodeRawName(fs.realpathSync.native(osPath(cur), { encoding: 'buffer' })), ...rest.reverse());
    } catch {
      const parent = path.dirname(cur);
      if (parent === cur) return path.resolve(p);
      rest.push(path.basename(cur));
      cur = parent;
    }
  }
}
