import * as path from 'node:path';
import { runBundleJob } from './bundleJob';
import type { CodewhaleBundle } from './bundle';
import { codewhaleCapabilities } from './capabilities';
import { codewhaleItems } from './items';
import { MAX_MANIFEST_BYTES } from './formats/mcpJson';
import { canonicalPath, lstatEntry, readRegularFile } from '../../fs/safeFs';
import { hashBundleContent } from '../../hashing/bundleContent';
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

/** A Codewhale bundle that does not load, read for review. */
export function readCodewhaleInvalid(
  item: Item,
  reviewed: readonly string[],
  host: HostFacts,
): InvalidBundle | undefined {
  const dir = item.path;
  const discoveryRoot = canonicalPath(path.dirname(dir));
  const root = canonicalPath(dir);
  if (!discoveryRoot || !root) return undefined;
  const bundle = readBundle(dir, item.scope, discoveryRoot, host);
  const label = bundle?.label;
  if (!bundle || !label) return undefined;
  const out = codewhaleItems([{ bundle, workspace: item.workspace }], { trust: EMPTY_TRUST, workspaceTrusted: true });
  const fresh = out.items[0];
  if (!fresh) return undefined;
  // The content walk hashes every file whatever the manifest says; only a walk that fails (a link, a limit) falls back to the reviewed files.
  const manifest = readRegularFile(path.join(dir, label), MAX_MANIFEST_BYTES);
  const walk = manifest.ok ? hashBundleContent(root, label, manifest.bytes, () => false) : undefined;
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

const CODEWHALE_MANIFESTS = new Set(['plugin.json', 'kimi.plugin.json', 'plugin.toml']);

/** `skillgate hash` of a bundle directory or of its manifest file; null for any other file. */
export function hashCodewhaleTarget(abs: string, shown: string, host: HostFacts): HashOutcome | null {
  const entry = lstatEntry(abs);
  const base = path.basename(abs);
  if (entry.type === 'file' && !CODEWHALE_MANIFESTS.has(base)) return null;
  const dir = entry.type === 'file' ? path.dirname(abs) : abs;
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
