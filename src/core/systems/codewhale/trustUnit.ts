import * as path from 'node:path';
import { announcedRoot, runBundleJob } from './bundleJob';
import { manifestOfBundleRead, resolveManifest } from './bundleManifest';
import type { CodewhaleBundle } from './codewhaleBundle';
import type { ManifestLabel } from './manifest';
import { codewhaleCapabilities } from './capabilities';
import { codewhaleItems } from './items';
import { MAX_MANIFEST_BYTES } from './formats/mcpJson';
import { canonicalPath, lstatEntry, readRegularFile } from '../../fs/safeFs';
import { hashBundleContent, type ContentWalk } from '../../hashing/bundleContent';
import { readBundleTree, type TreeRead } from '../../hashing/treeRead';
import { hashListed } from '../../hashing/listedFiles';
import { reviewToken } from '../../hashing/identity';
import { EMPTY_TRUST } from '../../decisions/trustView';
import type { HostFacts } from '../../host';
import type { Item, Scope } from '../../model';
import type { HashOutcome, InvalidBundle, SourceRead } from '../agentSystem';

/**
 * The bundle in `dir` as the index reads it (bundleJob.ts): the whole bundle read first,
 * its manifest and content hash taken from that one read. Null when it holds no manifest.
 */
function readBundle(
  dir: string,
  scope: Scope,
  canonicalDiscoveryRoot: string,
  host: HostFacts,
): CodewhaleBundle | null {
  return runBundleJob({ dir, scope, canonicalDiscoveryRoot }, host);
}

/** A Codewhale bundle read from disk now, for review and trust. */
export function readCodewhaleSource(item: Item, host: HostFacts): SourceRead {
  const dir = item.path;
  const discoveryRoot = canonicalPath(path.dirname(dir));
  const bundle = discoveryRoot ? readBundle(dir, item.scope, discoveryRoot, host) : null;
  if (!bundle) return { ok: false, message: `bundle ${item.name} at ${dir} can no longer be read` };
  const label = bundle.label;
  const out = codewhaleItems([{ bundle, workspace: item.workspace }], { trust: EMPTY_TRUST, workspaceTrusted: true });
  const fresh = out.items[0];
  if (!fresh || !bundle.contentHash || !bundle.canonicalRoot || !label) {
    const err = bundle.diagnostics.find((d) => d.severity === 'error');
    return { ok: false, message: `bundle ${item.name} cannot be hashed: ${err?.message ?? 'unreadable'}` };
  }
  return {
    ok: true,
    source: {
      item: fresh,
      bundleKey: fresh.detail.bundleKey as string,
      root: bundle.canonicalRoot,
      canonicalPath: bundle.canonicalRoot,
      files: fresh.detail.files ?? [],
      directories: bundle.directories,
      capabilities: codewhaleCapabilities(bundle),
      parts: out.items.filter((i) => i.parent === fresh.id),
      notCovered: [],
      applicable: bundle.when.applicable,
      diagnostics: out.diagnostics,
      rehashCopy: (copy) => {
        const manifest = readRegularFile(path.join(copy, label), 1048576);
        if (!manifest.ok) return undefined;
        const walk = hashBundleContent(copy, label, manifest.bytes, () => false);
        return walk.ok ? walk.contentHash : undefined;
      },
    },
  };
}

/**
 * A Codewhale bundle that does not load, read for review. One read of the bundle serves
 * its load (items, diagnostics) and the files and content hash shown beside them: a
 * bundle that changes while it is read shows one version of itself, never the findings
 * of one and the files of the next.
 */
export function readCodewhaleInvalid(
  item: Item,
  reviewed: readonly string[],
  host: HostFacts,
): InvalidBundle | undefined {
  const dir = item.path;
  const discoveryRoot = canonicalPath(path.dirname(dir));
  const root = canonicalPath(dir);
  if (!discoveryRoot || !root) return undefined;
  const job = { dir, scope: item.scope, canonicalDiscoveryRoot: discoveryRoot };
  const read = readBundleTree(announcedRoot(job));
  const bundle = runBundleJob({ ...job, read }, host);
  const label = bundle?.label;
  if (!bundle || !label) return undefined;
  const out = codewhaleItems([{ bundle, workspace: item.workspace }], { trust: EMPTY_TRUST, workspaceTrusted: true });
  const fresh = out.items[0];
  if (!fresh) return undefined;
  // The content walk hashes every file whatever the manifest says; only a walk that fails (a link, a limit) falls back to the reviewed files.
  const walk = contentWalkOf(read, root, label);
  const files = walk?.ok
    ? walk.files.map(({ path: p, size, sha256, executable }) => ({ path: p, size, sha256, executable }))
    : hashListed(root, [label, ...reviewed]);
  return {
    item: fresh,
    parts: out.items.filter((i) => i.parent === fresh.id),
    bundleKey: fresh.detail.bundleKey as string,
    root,
    files,
    contentHash: walk?.ok ? walk.contentHash : null,
    diagnostics: out.diagnostics,
  };
}

/**
 * The content walk of the load's read, when that read holds the manifest as the loader
 * reads it. Else the bundle is walked here: its root is a link the read never entered
 * (the walk goes to where it leads), or the manifest is past the limit or not a file the
 * read reached, and then this walk fails as the load's did.
 */
function contentWalkOf(read: TreeRead, root: string, label: ManifestLabel): ContentWalk | undefined {
  const inRead = manifestOfBundleRead(read, label);
  if (inRead?.ok) return hashBundleContent(root, label, inRead.bytes, () => false, read);
  const manifest = readRegularFile(path.join(root, label), MAX_MANIFEST_BYTES);
  return manifest.ok ? hashBundleContent(root, label, manifest.bytes, () => false) : undefined;
}

const CODEWHALE_MANIFESTS = new Set(['plugin.json', 'kimi.plugin.json', 'plugin.toml']);

/**
 * The bundle directory of a manifest file: the file's directory, except for the Claude
 * form, whose bundle root is the parent of `.claude-plugin` (codewhale.md §2.4) when
 * that is the manifest its bundle resolves; otherwise the file is a `plugin.json` of
 * its own directory.
 */
function bundleOfManifest(file: string): string {
  const dir = path.dirname(file);
  if (path.basename(file) !== 'plugin.json' || path.basename(dir) !== '.claude-plugin') return dir;
  const bundle = path.dirname(dir);
  return resolveManifest(bundle) === '.claude-plugin/plugin.json' ? bundle : dir;
}

/** `skillgate hash` of a bundle directory or of its manifest file; null for any other file. */
export function hashCodewhaleTarget(abs: string, shown: string, host: HostFacts): HashOutcome | null {
  const entry = lstatEntry(abs);
  const base = path.basename(abs);
  if (entry.type === 'file' && !CODEWHALE_MANIFESTS.has(base)) return null;
  const dir = entry.type === 'file' ? bundleOfManifest(abs) : abs;
  const discoveryRoot = canonicalPath(path.dirname(dir)) ?? path.dirname(dir);
  const bundle = readBundle(dir, 'workspace', discoveryRoot, host);
  if (!bundle)
    return {
      ok: false,
      message: `${shown} holds no plugin.json, kimi.plugin.json, plugin.toml or .claude-plugin/plugin.json`,
      diagnostics: [],
    };
  if (!bundle.contentHash || !bundle.capabilityHash) {
    const first = bundle.diagnostics.find((d) => d.severity === 'error');
    return {
      ok: false,
      message: `${shown} could not be hashed: ${first?.message ?? 'invalid bundle'}`,
      diagnostics: bundle.diagnostics,
    };
  }
  return {
    ok: true,
    system: 'codewhale',
    name: bundle.name,
    contentHash: bundle.contentHash,
    capabilityHash: bundle.capabilityHash,
    reviewToken: reviewToken(bundle.contentHash, bundle.capabilityHash),
    diagnostics: bundle.diagnostics,
  };
}
