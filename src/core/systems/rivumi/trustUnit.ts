import * as path from 'node:path';
import { loadRivumiProject } from './load';
import { rivumiItems } from './items';
import { RIVUMI_HOOKS_DOMAIN, RIVUMI_PLUGIN_DOMAIN, rivumiContentHash } from './hashes';
import type { RivumiBundleHashes } from './model';
import { readRegularFile, lstatEntry } from '../../fs/safeFs';
import { osPath } from '../../fs/rawNames';
import { portableRelative } from '../../fs/portablePath';
import { hashListed } from '../../hashing/listedFiles';
import { reviewToken } from '../../hashing/identity';
import { hooksFileCapabilities, pluginCapabilities } from './capabilities';
import { EMPTY_TRUST } from '../../decisions/trustView';
import type { Item } from '../../model';
import type { Capabilities } from '../../capabilities';
import type { HashOutcome, InvalidBundle, SourceRead } from '../agentSystem';

/** A Rivumi plugin or the project hooks file read from disk now, for review and trust. */
export function readRivumiSource(item: Item): SourceRead {
  if (!item.workspace) return { ok: false, message: `${item.name} has no workspace` };
  const workspace = item.workspace;
  const project = loadRivumiProject(workspace);
  const out = rivumiItems(project, { trust: EMPTY_TRUST, workspaceTrusted: true, hooksOptIn: false });
  const fresh = out.items.find((i) => i.id === item.id);
  if (!fresh || !fresh.contentHash) return { ok: false, message: `${item.name} can no longer be read or hashed` };
  const parts = out.items.filter((i) => i.parent === fresh.id);
  const own = new Set([fresh.id, ...parts.map((i) => i.id)]);
  const diagnostics = out.diagnostics.filter((d) => d.itemId !== null && own.has(d.itemId));
  // Both Rivumi trust units cover workspace-relative files and have no directories of their own.
  const unit = (
    hashes: RivumiBundleHashes,
    canonicalPath: string,
    domain: string,
    manifestRel: string,
    capabilities: Capabilities,
  ): SourceRead => ({
    ok: true,
    source: {
      item: fresh,
      bundleKey: fresh.detail.bundleKey as string,
      root: workspace,
      canonicalPath,
      files: hashes.files,
      directories: [],
      capabilities,
      parts,
      notCovered: hashes.notCovered.map((n) => n.message),
      applicable: true,
      diagnostics,
      // The copy holds the same covered files under the same raw relative paths.
      rehashCopy: (copy) => {
        const manifest = readRegularFile(osPath(path.join(copy, manifestRel)), 65536);
        return manifest.ok ? rivumiContentHash(domain, copy, manifest.bytes, hashes).hash : undefined;
      },
    },
  });
  if (item.kind === 'hooks') {
    const hf = project.hooksFile;
    if (!hf?.hashes) return { ok: false, message: 'hooks.json can no longer be hashed' };
    return unit(hf.hashes, hf.canonicalFile, RIVUMI_HOOKS_DOMAIN, '.rivumi/hooks.json', hooksFileCapabilities(hf));
  }
  const plugin = project.plugins.find((p) => p.file === item.path);
  if (!plugin?.hashes) return { ok: false, message: `${item.name} can no longer be hashed` };
  return unit(plugin.hashes, plugin.canonicalFile, RIVUMI_PLUGIN_DOMAIN, plugin.source, pluginCapabilities(plugin));
}

/** A Rivumi unit that does not load, read for review: its manifest and the files its receipt covers. */
export function readRivumiInvalid(item: Item, reviewed: readonly string[]): InvalidBundle | undefined {
  const workspace = item.workspace;
  if (!workspace) return undefined;
  const out = rivumiItems(loadRivumiProject(workspace), {
    trust: EMPTY_TRUST,
    workspaceTrusted: true,
    hooksOptIn: false,
  });
  const fresh = out.items.find((i) => i.id === item.id);
  if (!fresh) return undefined;
  const parts = out.items.filter((i) => i.parent === fresh.id);
  const own = new Set([fresh.id, ...parts.map((i) => i.id)]);
  const manifest = portableRelative(workspace, fresh.path);
  return {
    item: fresh,
    parts,
    bundleKey: fresh.detail.bundleKey as string,
    root: workspace,
    files: hashListed(workspace, [manifest, ...reviewed]),
    contentHash: null,
    diagnostics: out.diagnostics.filter((d) => d.itemId !== null && own.has(d.itemId)),
  };
}

/** `skillgate hash` of a plugin manifest under `.rivumi/plugins/` or of `.rivumi/hooks.json`; null for anything else. */
export function hashRivumiTarget(abs: string, shown: string): HashOutcome | null {
  if (lstatEntry(abs).type !== 'file') return null;
  const base = path.basename(abs);
  const parent = path.dirname(abs);
  if (
    path.basename(parent) === 'plugins' &&
    path.basename(path.dirname(parent)) === '.rivumi' &&
    base.endsWith('.json')
  ) {
    const project = loadRivumiProject(path.dirname(path.dirname(parent)));
    const plugin = project.plugins.find((p) => p.file === abs);
    if (!plugin?.hashes)
      return {
        ok: false,
        message: `${shown} could not be hashed: ${plugin?.error?.message ?? 'not a loadable Rivumi plugin'}`,
        diagnostics: project.diagnostics,
      };
    return {
      ok: true,
      system: 'rivumi',
      name: plugin.name,
      ...tokens(plugin.hashes),
      diagnostics: project.diagnostics.filter((d) => d.file === abs),
    };
  }
  if (base === 'hooks.json' && path.basename(parent) === '.rivumi') {
    const project = loadRivumiProject(path.dirname(parent));
    const hf = project.hooksFile;
    if (!hf?.hashes)
      return {
        ok: false,
        message: `${shown} could not be hashed: ${hf?.error?.message ?? 'unreadable'}`,
        diagnostics: project.diagnostics,
      };
    return {
      ok: true,
      system: 'rivumi',
      name: 'hooks.json',
      ...tokens(hf.hashes),
      diagnostics: project.diagnostics.filter((d) => d.file === abs),
    };
  }
  return null;
}

function tokens(h: { contentHash: string; capabilityHash: string }) {
  return {
    contentHash: h.contentHash,
    capabilityHash: h.capabilityHash,
    reviewToken: reviewToken(h.contentHash, h.capabilityHash),
  };
}
