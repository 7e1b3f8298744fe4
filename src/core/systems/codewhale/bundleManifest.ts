import * as path from 'node:path';
import { MAX_MANIFEST_BYTES } from './formats/mcpJson';
import type { ManifestLabel } from './manifest';
import { statEntry, type ReadResult } from '../../fs/safeFs';
import { fileOfRead, rootWasDirectory, type TreeRead } from '../../hashing/treeRead';

/** Manifest precedence inside one bundle (codewhale.md §2.4). */
export const MANIFEST_ORDER: readonly ManifestLabel[] = [
  'plugin.json',
  'kimi.plugin.json',
  'plugin.toml',
  '.claude-plugin/plugin.json',
];

/**
 * The manifest among the files of a bundle's read, read as the loader reads it (§4.1):
 * only from a read that walked the root as a directory, and only a file the read reached
 * within the limit. Undefined otherwise: the disk answers, and fails as it must.
 */
export function manifestOfBundleRead(read: TreeRead, label: ManifestLabel): ReadResult | undefined {
  const file = rootWasDirectory(read) ? fileOfRead(read, label, MAX_MANIFEST_BYTES) : undefined;
  return file && { ok: true, bytes: file.bytes, executable: file.executable };
}

/** Returns undefined when the directory holds no manifest (upstream skips it silently). */
export function resolveManifest(dir: string): ManifestLabel | undefined {
  return MANIFEST_ORDER.find((label) => statEntry(path.join(dir, label)).type === 'file');
}

/**
 * The label `resolveManifest` finds, from the bundle's read instead of a `stat` per label,
 * where the read can tell: it holds `plugin.json`, first in precedence, as a regular file
 * (the walk opened it without following a link). Undefined otherwise: the disk answers. A
 * read's names are as listed, byte for byte, while `stat` on a case-insensitive file
 * system finds `Plugin.json` or a higher label in another case too, so a label missing
 * from the read, or a later one found in it, proves nothing there.
 */
export function manifestOfRead(read: TreeRead): ManifestLabel | undefined {
  const first = MANIFEST_ORDER[0] as ManifestLabel;
  if (!rootWasDirectory(read)) return undefined;
  return read.steps.some((step) => step.kind === 'file' && step.rel === first) ? first : undefined;
}
