import * as path from 'node:path';
import { MAX_HASHED_BYTES } from '../../hashing/treeRead';
import { readRegularFile, type ReadResult } from '../../fs/safeFs';
import { readFailureText } from '../../fs/rustIoErrorText';
import { portableRelative } from '../../fs/portablePath';
import { sha256Hex } from '../../hashing/framing';
import { hashListed } from '../../hashing/listedFiles';
import { EMPTY_TRUST } from '../../decisions/trustView';
import type { BundleFile, Item } from '../../model';
import type { HashOutcome, InvalidBundle, SourceRead } from '../agentSystem';
import { evaContentHash, readCovered, type CoveredFile } from './hashes';
import { indexEvaFolder, type EvaFolderIndex } from './indexEva';
import type { EvaTrustUnit } from './indexedTrustUnit';
import { faultedEvaFolder } from './faults';
import { readContextOf } from './readContext';
import { EVA_SYSTEM } from './vocabulary';
import { isYamlName } from './files';
import { coveredListing } from './coveredListing';
import { hasEvaEntryFile } from './project';

/** The folder's project indexed now, as the index that listed it was (same home and runtime), behind the index's fault boundary. */
function projectNow(dir: string): EvaFolderIndex | undefined {
  const context = readContextOf(dir);
  try {
    return indexEvaFolder(dir, context.home, context.runtime, EMPTY_TRUST);
  } catch (e) {
    return faultedEvaFolder(dir, context.runtime, EMPTY_TRUST, e);
  }
}

/**
 * The item's project indexed now: the item, its parts and its own diagnostics. In a project
 * that no longer reads, the entry that stands for it answers for every item: it cannot be
 * hashed, and its reasons say why.
 */
function readNow(item: Item) {
  if (item.workspace === null) return undefined;
  const folder = projectNow(item.workspace);
  if (!folder) return undefined;
  const fresh = folder.fault ? folder.items[0] : folder.items.find((i) => i.id === item.id);
  if (!fresh) return undefined;
  return {
    folder,
    fresh,
    parts: folder.items.filter((i) => i.parent === fresh.id),
    diagnostics: folder.diagnostics.filter((d) => d.itemId === fresh.id),
  };
}

/** Why a unit has no hashes: what its covered files lack, or its manifest, which did not read. */
function unhashable(item: Item): string {
  return (item.detail.notCovered ?? ['its manifest cannot be read']).join('; ');
}

/** An Eva bundle (skill adapter or lua_skill) read from disk now, for review and trust (eva.md §6). */
export function readEvaSource(item: Item): SourceRead {
  const read = readNow(item);
  if (!read) return { ok: false, message: `${item.name} can no longer be read as an Eva skill` };
  const { folder, fresh } = read;
  // A unit is recorded exactly when its content and capability hashes are.
  const unit = folder.units.get(fresh.id);
  if (!unit) return { ok: false, message: `${item.name} cannot be hashed: ${unhashable(fresh)}` };
  // Covered files may lie under the project and under the home (`skill.path: ~/…`): they are named from a directory that holds both.
  // That directory is chosen from every covered name, present or not: chosen from the present ones, it moved when the home
  // skill was removed, and the review then showed the unchanged manifest as removed under one name and added under another.
  const root = commonDirectory(folder.root, [unit.manifest, ...unit.covered.map((f) => f.abs)]);
  // Files are named from that directory as the unit reads them (canonical); the review opens them
  // under the folder as given, as the items name it (givenFolder.ts). One above the project stays.
  const shownRoot = root === folder.root ? folder.folder : root;
  // The files listed (what the review shows, the receipt records and the reviewed copy is checked
  // against) are the ones this read hashes, and that hash must be the unit's token: a file read
  // apart from its hash could be rewritten in between, and be shown and recorded under a token
  // that covers other bytes.
  const manifest = readRegularFile(unit.manifest, MAX_HASHED_BYTES);
  if (!manifest.ok)
    return {
      ok: false,
      message: `${portableRelative(folder.root, unit.manifest)} cannot be read: ${readFailureText(manifest)}`,
    };
  const hashed = evaContentHash(unit.kind, manifest.bytes, unit.covered);
  if (!hashed.ok) return { ok: false, message: `${item.name} cannot be hashed: ${hashed.message}` };
  if (hashed.contentHash !== fresh.contentHash)
    return { ok: false, message: `${item.name} changed while it was read; review it again` };
  // evaContentHash names a file from its domain (`~/` for the home); the review names it from `root`.
  const files: BundleFile[] = [
    {
      path: portableRelative(root, unit.manifest),
      size: manifest.bytes.length,
      sha256: sha256Hex(manifest.bytes),
      executable: manifest.executable,
    },
    ...hashed.files.map((f, i) => ({ ...f, path: portableRelative(root, hashed.read[i] as string) })),
  ];
  return {
    ok: true,
    source: {
      item: fresh,
      bundleKey: fresh.detail.bundleKey as string,
      root: shownRoot,
      canonicalPath: unit.manifest,
      files,
      directories: [],
      capabilities: { system: EVA_SYSTEM, pairs: Object.fromEntries(unit.pairs) },
      parts: read.parts,
      notCovered: fresh.detail.notCovered ?? [],
      applicable: true,
      diagnostics: read.diagnostics,
      rehashCopy: (copy) => rehashCopy(unit, root, copy),
      readCovered: readAsHashed(files, unit.manifest, hashed.read, unit.covered),
    },
  };
}

/**
 * Each of the unit's files read again as its hash read it (hashes.ts `readCovered`): a skill
 * folder's files beneath that folder, which Eva follows when it is a link (eva.md §8 Q7), so a
 * directory in it swapped for a link since is refused as one; the manifest and a file named
 * on its own by their paths. `files` is the manifest's record, then one per path in `read`.
 * A file that is none of these is not read at all.
 */
function readAsHashed(
  files: readonly BundleFile[],
  manifest: string,
  read: readonly string[],
  covered: readonly CoveredFile[],
): (f: BundleFile, limit: number) => ReadResult {
  // By where each was read: the hash read the last of a path named twice (evaContentHash keeps the last).
  const byAbs = new Map(covered.map((c) => [c.abs, c]));
  const readers = new Map<string, (limit: number) => ReadResult>();
  read.forEach((abs, i) => {
    const c = byAbs.get(abs);
    const f = files[i + 1];
    if (c === undefined || f === undefined) return;
    readers.set(f.path, (limit) => {
      const r = readCovered(c, limit);
      return r === 'missing' ? { ok: false, reason: 'missing' } : r;
    });
  });
  const first = files[0];
  if (first !== undefined) readers.set(first.path, (limit) => readRegularFile(manifest, limit));
  return (f, limit) => readers.get(f.path)?.(limit) ?? { ok: false, reason: 'missing' };
}

/** The content hash of a copy that holds the covered files at their paths under `root`. */
function rehashCopy(unit: EvaTrustUnit, root: string, copy: string): string | undefined {
  const inCopy = (abs: string) => path.join(copy, path.relative(root, abs));
  const manifest = readRegularFile(inCopy(unit.manifest), MAX_HASHED_BYTES);
  if (!manifest.ok) return undefined;
  const hashed = evaContentHash(
    unit.kind,
    manifest.bytes,
    unit.covered.map((f) => ({ ...f, abs: inCopy(f.abs) })),
  );
  return hashed.ok ? hashed.contentHash : undefined;
}

/** The deepest directory, the project root or one above it, that holds every file. */
function commonDirectory(projectRoot: string, files: readonly string[]): string {
  let dir = projectRoot;
  while (files.some((f) => path.relative(dir, f).split(path.sep)[0] === '..')) dir = path.dirname(dir);
  return dir;
}

/** An Eva bundle that cannot be hashed (a symbolic link among its files, an unreadable manifest), read for review. */
export function readEvaInvalid(item: Item, reviewed: readonly string[]): InvalidBundle | undefined {
  const read = readNow(item);
  if (!read) return undefined;
  const { folder, fresh } = read;
  // Under the folder as given, as the item names its manifest (givenFolder.ts): the names are the same.
  const manifest = portableRelative(folder.folder, fresh.path);
  // As every agent's invalid unit: the listed files inside the root, reached without a link.
  const files = hashListed(folder.folder, [manifest, ...reviewed]);
  // What stops the hash is among the files it covers: the review lists them all, the cause marked.
  const cover = folder.unhashed.get(fresh.id);
  return {
    item: fresh,
    // A manifest that no longer reads gives the unit no key: it matches no receipt.
    bundleKey: fresh.detail.bundleKey ?? '',
    root: folder.folder,
    files,
    ...(cover ? { coveredFiles: coveredListing(cover, folder.root, files) } : {}),
    contentHash: null,
    diagnostics: read.diagnostics,
    parts: read.parts,
  };
}

/**
 * `skillgate hash` of an Eva skill manifest (a `transport: skill` adapter or a `lua_skill`); null for any other file.
 * The nearest folder above it with a `config/eva.yaml` decides: the manifest must be one of its trust units
 * (any other file, or a directory, is none).
 */
export function hashEvaTarget(abs: string, shown: string): HashOutcome | null {
  // Only a YAML file the scan takes can be a skill manifest: any other is no unit, without indexing a project.
  if (!isYamlName(path.basename(abs))) return null;
  for (let dir = path.dirname(abs); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (!hasEvaEntryFile(dir)) continue;
    const folder = projectNow(dir);
    if (!folder) return null;
    if (folder.fault)
      return {
        ok: false,
        message: `${shown} could not be hashed: ${folder.fault.message}`,
        diagnostics: [folder.fault],
      };
    const item = folder.items.find((i) => i.path === abs && (i.kind === 'skill-adapter' || i.kind === 'lua-skill'));
    if (!item) return null;
    const diagnostics = folder.diagnostics.filter((d) => d.itemId === item.id);
    // The token exists exactly when both hashes do.
    if (item.reviewToken === null)
      return { ok: false, message: `${shown} could not be hashed: ${unhashable(item)}`, diagnostics };
    return {
      ok: true,
      system: EVA_SYSTEM,
      name: item.detail.eva.id,
      contentHash: item.contentHash as string,
      capabilityHash: item.capabilityHash as string,
      reviewToken: item.reviewToken,
      diagnostics,
    };
  }
  return null;
}
