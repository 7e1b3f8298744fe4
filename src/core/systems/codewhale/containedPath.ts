import * as path from 'node:path';
import { isInside } from '../../fs/safeFs';
import { rustIoErrorText } from '../../fs/rustIoErrorText';
import { decodeRawName, osPath } from '../../fs/rawNames';
import * as fs from 'node:fs';
import { looksAbsolute, textProblem } from './textRules';
import { portableRelative } from '../../fs/portablePath';
import type { BundleTree } from './bundleTree';

export type PathKind = 'skills' | 'commands' | 'agents' | 'hooks' | 'lsp' | 'native' | 'MCP command' | 'MCP cwd';

export type Contained =
  | { readonly ok: true; readonly absolute: string; readonly type: 'file' | 'directory' | 'other' }
  | { readonly ok: false; readonly message: string };

/**
 * `resolve_contained_path(root, raw, kind)` (codewhale.md §4.6): relative, no `..`,
 * every component lstat-ed from the root with no symbolic link, and the canonical
 * result inside the canonical root. With the bundle's walked tree (of the canonical
 * root, holding no link), a path the walk saw is answered without touching the disk.
 */
export function resolveContainedPath(root: string, raw: string, kind: PathKind, tree?: BundleTree): Contained {
  const t = textProblem(`${kind} path`, raw, 1024);
  if (t) return { ok: false, message: t };
  if (looksAbsolute(raw) || path.isAbsolute(raw))
    return { ok: false, message: `${kind} path must be relative: \`${raw}\`` };
  // `\` is a separator only on Windows; elsewhere it is part of a name.
  const parts = raw.split(process.platform === 'win32' ? /[\\/]/ : '/');
  if (parts.some((p) => p === '..')) return { ok: false, message: `${kind} path escapes the plugin root: \`${raw}\`` };
  // Upstream canonicalizes `root.join(raw)` as written: a separator after the last name
  // (`x.md/`, `x.md/.`) makes realpath want a directory there (ENOTDIR for a file).
  const named = parts.filter((p) => p !== '' && p !== '.');
  const end = parts[parts.length - 1];
  const spelledAsDirectory = named.length > 0 && (end === '' || end === '.');
  if (tree) {
    const type = tree.typeOf(named.join('/'));
    // What the walk cannot answer (a file spelled as a directory) the disk answers, in its words.
    if (type && (type === 'directory' || !spelledAsDirectory))
      return { ok: true, absolute: path.join(root, ...named), type };
  }
  let cursor = root;
  let type: 'file' | 'directory' | 'other' = 'directory';
  const walked: string[] = [];
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    cursor = path.join(cursor, part);
    walked.push(part);
    let st: fs.Stats;
    try {
      st = fs.lstatSync(osPath(cursor));
    } catch (e) {
      return {
        ok: false,
        message: `failed to inspect ${kind} path ${bundleRelative(root, cursor)}: ${rustIoErrorText(e)}`,
      };
    }
    // An entry the walk did not hold: what follows from it is not the content hash's (bundleTree.ts).
    if (tree && tree.typeOf(walked.join('/')) === undefined) tree.foundBeyondWalk();
    if (st.isSymbolicLink())
      return { ok: false, message: `${kind} path may not traverse symbolic link ${bundleRelative(root, cursor)}` };
    type = st.isFile() ? 'file' : st.isDirectory() ? 'directory' : 'other';
  }
  let canonical: string;
  try {
    canonical = decodeRawName(fs.realpathSync.native(osPath(`${root}/${raw}`), { encoding: 'buffer' }));
  } catch (e) {
    return { ok: false, message: `${kind} path \`${raw}\` cannot be resolved: ${rustIoErrorText(e)}` };
  }
  if (!isInside(root, canonical)) return { ok: false, message: `${kind} path escapes the plugin root: \`${raw}\`` };
  return { ok: true, absolute: canonical, type };
}

/**
 * A path inside the bundle as messages show it. Upstream prints canonical absolute
 * paths; Skillgate shows every path bundle-relative, `/`-separated, with `.` for the
 * root, and keeps upstream's sentence around it [Skillgate].
 */
export function bundleRelative(root: string, absolute: string): string {
  return portableRelative(root, absolute) || '.';
}
