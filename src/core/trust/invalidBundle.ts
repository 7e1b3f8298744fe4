import * as path from 'node:path';
import { loadCodewhaleBundle, resolveManifest } from '../systems/codewhale/bundle';
import { currentHost, type HostFacts } from '../systems/codewhale/host';
import { MAX_MANIFEST_BYTES } from '../systems/codewhale/formats/mcpJson';
import { canonicalPath, isInside, lstatEntry, readRegularFile } from '../fs/safeFs';
import { sha256Hex } from '../hashing/framing';
import { hashBundleContent } from '../hashing/bundleContent';
import { codewhaleItems } from '../systems/codewhale/items';
import { rivumiItems } from '../systems/rivumi/items';
import { loadRivumiProject } from '../systems/rivumi/load';
import { EMPTY_TRUST } from '../decisions/trustView';
import type { BundleFile, Diagnostic, Item } from '../model';
import { portableRelative } from '../fs/portablePath';

/**
 * A trust unit that does not load (its manifest, an MCP sidecar or a hooks file is
 * invalid) is still reviewed (issue 10 #19): what is on disk now, hashed where that
 * is possible, and the diagnostics that say why the agent rejects it. It can never be
 * trusted or enabled, so nothing here feeds a trust decision: it is what the reviewer sees.
 */
export interface InvalidBundle {
  /** The unit as the agent sees it now (decision `rejected`, reason `manifest_invalid`). */
  readonly item: Item;
  readonly bundleKey: string;
  /** Files are relative to this directory. */
  readonly root: string;
  readonly files: readonly BundleFile[];
  /** Codewhale's content hash does not depend on the manifest loading; null when the walk fails. */
  readonly contentHash: string | null;
  readonly diagnostics: readonly Diagnostic[];
}

const MAX_FILE = 67108864;

/**
 * Reads an invalid unit from disk. `reviewed` are the paths its receipt covers, so that
 * the files the reviewer approved are hashed now even when the loader cannot name
 * them (a Rivumi manifest that no longer parses lists no skill files). Undefined when
 * the unit is gone.
 */
export function readInvalidBundle(item: Item, reviewed: readonly string[], host: HostFacts = currentHost()): InvalidBundle | undefined {
  return item.system === 'codewhale' ? codewhaleInvalid(item, reviewed, host) : rivumiInvalid(item, reviewed);
}

/**
 * The one sentence that says why a unit cannot be trusted or enabled, used alike by the
 * review, `trust` and `enable`; null when the unit is not invalid. It names the first
 * error and where it is (`file:line`), as the agent reports it.
 */
export function invalidBundleRefusal(item: Item, diagnostics: readonly Diagnostic[], root: string): string | null {
  if (!item.reasons.includes('manifest_invalid')) return null;
  const agent = item.system === 'codewhale' ? 'Codewhale' : 'Rivumi';
  const what = item.system === 'codewhale' ? 'Plugin bundle' : item.kind === 'hooks' ? 'Rivumi hooks file' : 'Rivumi plugin';
  const error = diagnostics.find((d) => d.severity === 'error');
  const where = error ? ` (${portableRelative(root, error.file) || path.basename(error.file)}:${error.range.start.line + 1})` : '';
  const why = error ? `: ${error.message}${where}` : '';
  return `${what} \`${item.name}\` is invalid${why}. ${agent} does not load it, so it cannot be trusted or enabled until the error is fixed and it is reviewed again.`;
}

function codewhaleInvalid(item: Item, reviewed: readonly string[], host: HostFacts): InvalidBundle | undefined {
  const dir = item.path;
  const label = resolveManifest(dir);
  const discoveryRoot = canonicalPath(path.dirname(dir));
  const root = canonicalPath(dir);
  if (!label || !discoveryRoot || !root) return undefined;
  const bundle = loadCodewhaleBundle(dir, label, { scope: item.scope, canonicalDiscoveryRoot: discoveryRoot, host });
  const out = codewhaleItems([{ bundle, workspace: item.workspace }], { trust: EMPTY_TRUST, workspaceTrusted: true });
  const fresh = out.items[0];
  if (!fresh) return undefined;
  // The content walk hashes every file whatever the manifest says; only a walk that fails (a link, a limit) falls back to the reviewed files.
  const manifest = readRegularFile(path.join(dir, label), MAX_MANIFEST_BYTES);
  const walk = manifest.ok ? hashBundleContent(root, label, manifest.bytes, () => false) : undefined;
  const files = walk?.ok ? walk.files.map(({ path: p, size, sha256, executable }) => ({ path: p, size, sha256, executable })) : hashListed(root, [label, ...reviewed]);
  return { item: fresh, bundleKey: fresh.detail.bundleKey as string, root, files, contentHash: walk?.ok ? walk.contentHash : null, diagnostics: out.diagnostics };
}

function rivumiInvalid(item: Item, reviewed: readonly string[]): InvalidBundle | undefined {
  const workspace = item.workspace;
  if (!workspace) return undefined;
  const out = rivumiItems(loadRivumiProject(workspace), { trust: EMPTY_TRUST, workspaceTrusted: true, hooksOptIn: false });
  const fresh = out.items.find((i) => i.id === item.id);
  if (!fresh) return undefined;
  const own = new Set([fresh.id, ...out.items.filter((i) => i.parent === fresh.id).map((i) => i.id)]);
  const manifest = portableRelative(workspace, fresh.path);
  return {
    item: fresh,
    bundleKey: fresh.detail.bundleKey as string,
    root: workspace,
    files: hashListed(workspace, [manifest, ...reviewed]),
    contentHash: null,
    diagnostics: out.diagnostics.filter((d) => d.itemId !== null && own.has(d.itemId)),
  };
}

/**
 * An invalid unit's files plus the reviewed files it no longer names: what its loader
 * covers is unknown (an invalid hooks file names no scripts), so the files the reviewer
 * approved are shown as they are on disk, never as removed while they are still there.
 */
export function withReviewedFiles(files: readonly BundleFile[], root: string, reviewed: readonly string[]): BundleFile[] {
  const named = new Set(files.map((f) => f.path));
  const extra = hashListed(root, reviewed.filter((p) => !named.has(p)));
  return [...files, ...extra].sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
}

/**
 * Each listed file that is a regular file inside `root` now, reached without a symbolic
 * link (as everywhere in hashing, trust.md), hashed; the others are absent.
 */
function hashListed(root: string, rels: readonly string[]): BundleFile[] {
  const files: BundleFile[] = [];
  for (const rel of [...new Set(rels)].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))) {
    const abs = path.join(root, rel);
    if (!isInside(root, abs) || abs === root || throughLink(root, abs)) continue;
    const read = readRegularFile(abs, MAX_FILE);
    if (read.ok) files.push({ path: rel, size: read.bytes.length, sha256: sha256Hex(read.bytes), executable: read.executable });
  }
  return files;
}

/** True when a directory on the way from `root` to `abs` is a symbolic link (the last component is opened without following one). */
function throughLink(root: string, abs: string): boolean {
  let cur = root;
  const parts = path.relative(root, abs).split(path.sep);
  for (const part of parts.slice(0, -1)) {
    cur = path.join(cur, part);
    if (lstatEntry(cur).type !== 'directory') return true;
  }
  return false;
}
