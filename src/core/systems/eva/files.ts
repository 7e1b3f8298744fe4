import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeRawName, decodeUtf8, osPath, byteOrder } from '../../fs/rawNames';
import {
  errorText,
  listDirectory,
  listTypedDirectory,
  lstatEntry,
  readRegularFile,
  statEntry,
  type IoFault,
  type ListedType,
} from '../../fs/safeFs';
import { deniedByPermissions } from '../../fs/permissionDenied';
import { rustErrnoText, rustFaultText } from '../../fs/rustIoErrorText';

/**
 * Reading and enumerating Eva's files as `eva-config` does (eva.md §1.2, §1.3): own
 * file types (a link is never followed in a configuration root), names sorted as raw
 * bytes, and caps checked before anything is read whole.
 */

/** Design `discovery.limits` defaults (eva.md §1.2); a project may lower them, never raise. */
export const MAX_MANIFEST_BYTES = 1_048_576;
export const MAX_FILES_PER_DIR = 500;

export type ManifestRead =
  | { readonly ok: true; readonly text: string; readonly bytes: Buffer }
  | {
      readonly ok: false;
      readonly problem: 'too-large' | 'read';
      readonly detail: string;
      /** The failed open or read as data, when the OS refused it (a caller tells a permission denial apart). */
      readonly fault?: IoFault;
    };

/**
 * Reads a manifest as `fs::read_to_string` would, refusing a file past `limit` by its
 * size before reading it, and a link or non-regular file without opening its target.
 * An io failure is worded as Rust's `io::Error` Display, which Eva puts after its own
 * sentence (eva-config lib.rs `io_error`, schema.rs `read_data`, `read_schema`: `error.to_string()`):
 * `Permission denied (os error 13)`, never Node's `EACCES: permission denied`; a path that is
 * gone or runs through a file as the open failed (`No such file or directory (os error 2)`,
 * `Not a directory (os error 20)`).
 */
export function readManifest(abs: string, limit: number): ManifestRead {
  const read = readRegularFile(abs, limit);
  if (!read.ok) {
    if (read.reason === 'too-large')
      return { ok: false, problem: 'too-large', detail: `${read.size ?? limit + 1} bytes` };
    const detail =
      read.reason === 'symlink'
        ? 'is a symbolic link'
        : read.reason === 'not-file'
          ? notRegularWords(abs, read.fault)
          : rustFaultText(
              read.fault,
              read.error ?? (read.reason === 'missing' ? 'No such file or directory' : 'I/O error'),
            );
    return { ok: false, problem: 'read', detail, ...(read.fault ? { fault: read.fault } : {}) };
  }
  const text = decodeUtf8(read.bytes);
  if (text === undefined) return { ok: false, problem: 'read', detail: 'stream did not contain valid UTF-8' };
  return { ok: true, text, bytes: read.bytes };
}

/**
 * A path that opened but is no regular file. Rust's `read_to_string` opens a directory too and its
 * read fails, `Is a directory (os error 21)`: Eva's words, where Skillgate refuses it by its type
 * before reading. Anything else (a FIFO, where Eva's blocking open waits for a writer) keeps
 * Skillgate's words: Eva prints none.
 */
function notRegularWords(abs: string, fault: IoFault | undefined): string {
  if (fault) return rustFaultText(fault, 'Is a directory');
  return lstatEntry(abs).type === 'directory' ? rustErrnoText('EISDIR', 'Is a directory') : 'not a regular file';
}

/** At most the first `limit` bytes of a regular file (never following a link): what a sniff may see. */
export function readPrefix(abs: string, limit: number): Buffer | undefined {
  let fd: number;
  try {
    fd = fs.openSync(
      osPath(abs),
      fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0),
    );
  } catch {
    return undefined;
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return undefined;
    const buf = Buffer.allocUnsafe(limit);
    let total = 0;
    while (total < limit) {
      const n = fs.readSync(fd, buf, total, limit - total, null);
      if (n === 0) break;
      total += n;
    }
    return buf.subarray(0, total);
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** Rust `Path::extension`: after the last dot, unless the only dot starts the name. */
export function rustExtension(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  return name.slice(dot + 1);
}

/** A name `find_yaml_files` takes: its Rust extension is exactly `yaml` or `yml` (case-sensitive). */
export function isYamlName(name: string): boolean {
  const ext = rustExtension(name);
  return ext === 'yaml' || ext === 'yml';
}

export interface ScanResult {
  /** YAML files in upstream's order (component-wise raw-byte path order). */
  readonly files: readonly string[];
  /** Links met (files or directories), skipped as upstream skips them. */
  readonly symlinks: readonly string[];
  /** Per directory past the cap: its first skipped file and how many were skipped. */
  readonly overflow: readonly { readonly first: string; readonly skipped: number }[];
  /** Directories that could not be listed, and entries whose type could not be learnt. */
  readonly errors: readonly { readonly dir: string; readonly error: string; readonly fault: IoFault }[];
}

/**
 * `find_yaml_files`: recursive, depth first, children in raw-byte order (which is
 * Rust's component-wise `PathBuf` order), regular `.yaml`/`.yml` files by their own
 * type, directories recursed whatever their names, links skipped.
 *
 * An entry's type is the listing's own, as upstream's `collect_files` takes it
 * (`DirEntry::file_type`: the directory entry's d_type, an lstat only where the file system
 * leaves it unknown). So a file in a folder this user may list but not search (744) is taken,
 * and its read then fails as Eva's does; before, its lstat failed and it was silently absent.
 * A type that cannot be learnt fails as upstream's does (`io_error(error, &path, "config root")`).
 */
export function scanYamlFiles(root: string, maxPerDir: number): ScanResult {
  const files: string[] = [];
  const symlinks: string[] = [];
  const overflow: { first: string; skipped: number }[] = [];
  const errors: { dir: string; error: string; fault: IoFault }[] = [];
  // An explicit stack of (directory, sorted children, next index): no recursion on hostile depth.
  const stack: {
    dir: string;
    names: string[];
    /** The listing's types by name; absent where only plain names could be listed. */
    types: Map<string, ListedType> | undefined;
    next: number;
    taken: number;
    skipped: number;
    first: string | undefined;
  }[] = [];
  const open = (dir: string) => {
    const typed = listTypedDirectory(dir);
    let types: Map<string, ListedType> | undefined;
    let names: string[];
    if (typed) {
      types = new Map(typed.map((e) => [decodeRawName(e.name), e.type]));
      names = [...types.keys()];
    } else {
      // The typed listing failed: the plain one says why, or lists names whose types are asked one by one.
      const listed = listDirectory(dir);
      if (!listed.ok) {
        errors.push({ dir, error: listed.error, fault: listed.fault });
        return;
      }
      names = listed.names.map(decodeRawName);
    }
    stack.push({ dir, names: names.sort(byteOrder), types, next: 0, taken: 0, skipped: 0, first: undefined });
  };
  open(root);
  while (stack.length) {
    const frame = stack[stack.length - 1];
    if (!frame) break;
    if (frame.next >= frame.names.length) {
      if (frame.skipped > 0 && frame.first) overflow.push({ first: frame.first, skipped: frame.skipped });
      stack.pop();
      continue;
    }
    const name = frame.names[frame.next++] as string;
    const abs = path.join(frame.dir, name);
    let type = frame.types?.get(name);
    if (type === undefined) {
      const entry = lstatEntry(abs);
      if (entry.error !== undefined && entry.fault) {
        errors.push({ dir: abs, error: entry.error, fault: entry.fault });
        continue;
      }
      type = entry.type === 'missing' ? 'other' : entry.type;
    }
    if (type === 'symlink') symlinks.push(abs);
    else if (type === 'directory') open(abs);
    else if (type === 'file') {
      if (!isYamlName(name)) continue;
      if (frame.taken >= maxPerDir) {
        frame.skipped++;
        frame.first ??= abs;
        continue;
      }
      frame.taken++;
      files.push(abs);
    }
  }
  return { files, symlinks, overflow, errors };
}

export interface UserSkillDir {
  readonly root: 'codex' | 'agents';
  readonly name: string;
  readonly dir: string;
  readonly skillFile: string;
  /** The SKILL.md itself is a link (listed, never hashed). */
  readonly skillFileIsLink: boolean;
  /** Real path of the SKILL.md, when it resolves. */
  readonly realSkillFile: string | undefined;
  /** Past the root's cap: listed as an item, SKILL.md never opened. */
  readonly overCap: boolean;
}

/** A user skill root, or a folder in it, that this user may not search or list (EACCES, EPERM). */
export interface RefusedDir {
  readonly dir: string;
  readonly error: string;
  readonly fault: IoFault;
}

/**
 * User-level skill folders (eva.md §1.3): each direct, non-hidden child directory of
 * the root (a directory link is followed) holding a `SKILL.md`, in raw-byte order.
 * `linkedUnread` receives the child entries that are links to a folder Eva does not read, where a
 * `SKILL.md` made or removed changes what it lists (userTreeWatches.ts `linkedFolderWatches`): a
 * directory that holds none yet, no directory yet, or a skill folder past the cap (listed, its
 * `SKILL.md` never opened, §4.2 C0); at most `maxPerRoot` of them, the first in byte order.
 */
export function scanUserSkills(
  root: string,
  which: 'codex' | 'agents',
  maxPerRoot: number,
  refused: RefusedDir[] = [],
  linkedUnread: string[] = [],
): UserSkillDir[] {
  // [Skillgate] A folder this user may not search or list is said (`refused`), never simply absent: a user
  // who may read it sees its skills (the discovery design records PermissionDenied; shipped Eva-CLI reads none).
  const refuse = (dir: string, entry: { error?: string; fault?: IoFault }) => {
    if (entry.error !== undefined && deniedByPermissions(entry.fault))
      refused.push({ dir, error: entry.error, fault: entry.fault as IoFault });
  };
  const rootEntry = statEntry(root);
  if (rootEntry.type !== 'directory') {
    refuse(root, rootEntry);
    return [];
  }
  const listed = listDirectory(root);
  if (!listed.ok) {
    refuse(root, listed);
    return [];
  }
  const out: UserSkillDir[] = [];
  let count = 0;
  let unread = 0;
  // [Skillgate] A folder behind a link, where no watcher of the user trees sees: the change of its `SKILL.md` (or
  // of its target, made) is watched for there, for no more than `maxPerRoot` such folders per root.
  const watchUnread = (dir: string) => {
    if (unread < maxPerRoot && lstatEntry(dir).type === 'symlink') {
      unread++;
      linkedUnread.push(dir);
    }
  };
  for (const name of listed.names.map(decodeRawName).sort(byteOrder)) {
    if (name.startsWith('.')) continue;
    const dir = path.join(root, name);
    const dirEntry = statEntry(dir);
    if (dirEntry.type !== 'directory') {
      refuse(dir, dirEntry);
      // [Skillgate] A link that leads to no directory yet (`x -> /data/x`, no `/data/x`): Eva reads the folder, or
      // lists it past the cap, once its target is made with a SKILL.md, but the link does not change then.
      watchUnread(dir);
      continue;
    }
    const skillFile = path.join(dir, 'SKILL.md');
    const own = lstatEntry(skillFile);
    // The folder may be listed in its root but not searched (another user's, at mode 700): its SKILL.md cannot be asked for.
    refuse(dir, own);
    const isLink = own.type === 'symlink';
    if (own.type !== 'file' && !(isLink && statEntry(skillFile).type === 'file')) {
      // [Skillgate] A folder behind a link with no SKILL.md yet: one written there is listed, and read while
      // under the cap, but no watcher of the user trees sees behind the link.
      watchUnread(dir);
      continue;
    }
    count++;
    // [Skillgate] Past the cap a folder behind a link is listed, never opened: its SKILL.md removed drops it.
    if (count > maxPerRoot) watchUnread(dir);
    let real: string | undefined;
    try {
      real = decodeRawName(fs.realpathSync.native(osPath(skillFile), { encoding: 'buffer' }));
    } catch (e) {
      void errorText(e);
      real = undefined;
    }
    out.push({
      root: which,
      name,
      dir,
      skillFile,
      skillFileIsLink: isLink,
      realSkillFile: real,
      overCap: count > maxPerRoot,
    });
  }
  return out;
}
