import * as path from 'node:path';
import { lstatEntry, readRegularFile } from '../../fs/safeFs';
import { portableRelative } from '../../fs/portablePath';
import { sha256Hex } from '../../hashing/framing';
import { hashListed } from '../../hashing/listedFiles';
import { reviewToken } from '../../hashing/identity';
import { EMPTY_TRUST } from '../../decisions/trustView';
import type { BundleFile, Item } from '../../model';
import type { HashOutcome, InvalidBundle, SourceRead } from '../agentSystem';
import { evaContentHash } from './hashes';
import { indexEvaFolder, type EvaFolderIndex, type EvaTrustUnit } from './indexEva';
import type { EvaItem } from './item';
import { readContextOf } from './readContext';
import { EVA_SYSTEM } from './vocabulary';

/** An Eva bundle (skill adapter or lua_skill) read from disk now, for review and trust (eva.md §6). */

const MAX_COVERED_FILE_BYTES = 67108864;

/** The item's project indexed now, as the index that listed it was (same home and runtime), and the item in it. */
function readNow(item: Item): { folder: EvaFolderIndex; fresh: EvaItem } | undefined {
  if (item.workspace === null) return undefined;
  const context = readContextOf(item.workspace);
  const folder = indexEvaFolder(item.workspace, context.home, context.runtime, EMPTY_TRUST);
  const fresh = folder?.items.find((i) => i.id === item.id);
  return folder && fresh ? { folder, fresh } : undefined;
}

export function readEvaSource(item: Item): SourceRead {
  const read = readNow(item);
  if (!read) return { ok: false, message: `${item.name} can no longer be read as an Eva skill` };
  const { folder, fresh } = read;
  const unit = folder.units.get(fresh.id);
  if (!unit || fresh.contentHash === null)
    return {
      ok: false,
      message: `${item.name} cannot be hashed: ${(fresh.detail.notCovered ?? ['its manifest cannot be read']).join('; ')}`,
    };
  // Covered files may lie under the project and under the home (`skill.path: ~/…`): they are named from a directory that holds both.
  const present = [unit.manifest, ...unit.covered.filter((f) => lstatEntry(f.abs).type === 'file').map((f) => f.abs)];
  const root = commonDirectory([folder.root, ...present]);
  const files: BundleFile[] = [];
  for (const abs of present) {
    const bytes = readRegularFile(abs, MAX_COVERED_FILE_BYTES);
    if (!bytes.ok)
      return {
        ok: false,
        message: `${portableRelative(folder.root, abs)} cannot be read: ${bytes.error ?? bytes.reason}`,
      };
    files.push({
      path: portableRelative(root, abs),
      size: bytes.bytes.length,
      sha256: sha256Hex(bytes.bytes),
      executable: bytes.executable,
    });
  }
  return {
    ok: true,
    source: {
      item: fresh,
      bundleKey: fresh.detail.bundleKey as string,
      root,
      canonicalPath: unit.manifest,
      files,
      directories: [],
      capabilities: { system: EVA_SYSTEM, pairs: Object.fromEntries(unit.pairs) },
      parts: folder.items.filter((i) => i.parent === fresh.id),
      notCovered: fresh.detail.notCovered ?? [],
      applicable: true,
      diagnostics: folder.diagnostics.filter((d) => d.itemId === fresh.id),
      rehashCopy: (copy) => rehashCopy(unit, root, copy),
    },
  };
}

/** The content hash of a copy that holds the covered files at their paths under `root`. */
function rehashCopy(unit: EvaTrustUnit, root: string, copy: string): string | undefined {
  const inCopy = (abs: string) => path.join(copy, path.relative(root, abs));
  const manifest = readRegularFile(inCopy(unit.manifest), MAX_COVERED_FILE_BYTES);
  if (!manifest.ok) return undefined;
  const hashed = evaContentHash(
    unit.kind,
    manifest.bytes,
    unit.covered.map((f) => ({ ...f, abs: inCopy(f.abs) })),
  );
  return hashed.ok ? hashed.contentHash : undefined;
}

/** The deepest directory that holds every path. */
function commonDirectory(paths: readonly string[]): string {
  const split = paths.map((p) => path.resolve(p).split(path.sep));
  const first = split[0] ?? [];
  let n = 0;
  while (n < first.length && split.every((s) => s[n] === first[n])) n++;
  return first.slice(0, n).join(path.sep) || path.sep;
}

/** An Eva bundle that cannot be hashed (a symbolic link among its files, an unreadable manifest), read for review. */
export function readEvaInvalid(item: Item, reviewed: readonly string[]): InvalidBundle | undefined {
  const read = readNow(item);
  if (!read) return undefined;
  const { folder, fresh } = read;
  const manifest = portableRelative(folder.root, fresh.path);
  return {
    item: fresh,
    bundleKey: fresh.detail.bundleKey ?? '',
    root: folder.root,
    // As every agent's invalid unit: the listed files inside the root, reached without a link.
    files: hashListed(folder.root, [manifest, ...reviewed]),
    contentHash: null,
    diagnostics: folder.diagnostics.filter((d) => d.itemId === fresh.id),
    parts: folder.items.filter((i) => i.parent === fresh.id),
  };
}

/** `skillgate hash` of an Eva skill manifest (a `transport: skill` adapter or a `lua_skill`); null for any other file. */
export function hashEvaTarget(abs: string, shown: string): HashOutcome | null {
  if (lstatEntry(abs).type !== 'file' || !/\.ya?ml$/.test(abs)) return null;
  for (let dir = path.dirname(abs); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (lstatEntry(path.join(dir, 'config', 'eva.yaml')).type !== 'file') continue;
    const context = readContextOf(dir);
    const folder = indexEvaFolder(dir, context.home, context.runtime, EMPTY_TRUST);
    const item = folder?.items.find((i) => i.path === abs && (i.kind === 'skill-adapter' || i.kind === 'lua-skill'));
    if (!folder || !item) return null;
    const diagnostics = folder.diagnostics.filter((d) => d.itemId === item.id);
    if (item.contentHash === null || item.capabilityHash === null)
      return {
        ok: false,
        message: `${shown} could not be hashed: ${(item.detail.notCovered ?? ['its manifest cannot be read']).join('; ')}`,
        diagnostics,
      };
    return {
      ok: true,
      system: EVA_SYSTEM,
      name: item.detail.eva.id,
      contentHash: item.contentHash,
      capabilityHash: item.capabilityHash,
      reviewToken: reviewToken(item.contentHash, item.capabilityHash),
      diagnostics,
    };
  }
  return null;
}
