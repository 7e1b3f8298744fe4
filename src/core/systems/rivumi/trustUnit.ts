import * as path from 'node:path';
import { loadRivumiProject } from './load';
import { MAX_PLUGINS } from './limits';
import { rivumiItems } from './items';
import { RIVUMI_HOOKS_DOMAIN, RIVUMI_PLUGIN_DOMAIN, rivumiContentHash } from './hashes';
import type { RivumiBundleHashes, RivumiHooksFile, RivumiPlugin, RivumiProject } from './model';
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

/**
 * The unit's item read now from its workspace, with its parts and the diagnostics of the unit
 * and its parts only. Read as Rivumi loads it without the opt-in: what the opt-in changes
 * (which hook defects fail a load, the "runs unreviewed" warning) the review states apart.
 */
function readNow(workspace: string, id: string) {
  const project = loadRivumiProject(workspace);
  const out = rivumiItems(project, { trust: EMPTY_TRUST, workspaceTrusted: true, hooksOptIn: false });
  const fresh = out.items.find((i) => i.id === id);
  if (!fresh) return undefined;
  const parts = out.items.filter((i) => i.parent === fresh.id);
  const own = new Set<string | null>([fresh.id, ...parts.map((i) => i.id)]);
  return { project, fresh, parts, diagnostics: out.diagnostics.filter((d) => own.has(d.itemId)) };
}

/** A Rivumi plugin or the project hooks file read from disk now, for review and trust. */
export function readRivumiSource(item: Item): SourceRead {
  if (!item.workspace) return { ok: false, message: `${item.name} has no workspace` };
  const workspace = item.workspace;
  const read = readNow(workspace, item.id);
  // Past the cap Rivumi never opens the manifest, and so nor does Skillgate: said so, not "no longer read".
  if (read?.fresh.reasons.includes('plugin_limit_exceeded'))
    return {
      ok: false,
      message: `${item.name} is past Rivumi's ${MAX_PLUGINS}-plugin cap: Rivumi never reads it, so Skillgate does not hash it`,
    };
  if (!read?.fresh.contentHash) return { ok: false, message: `${item.name} can no longer be read or hashed` };
  const { project, fresh, parts, diagnostics } = read;
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
  // The item's content hash is set exactly from its file's hashes (items.ts), so the file and its hashes are there.
  if (fresh.kind === 'hooks') {
    const hf = project.hooksFile as RivumiHooksFile;
    return unit(
      hf.hashes as RivumiBundleHashes,
      hf.canonicalFile,
      RIVUMI_HOOKS_DOMAIN,
      '.rivumi/hooks.json',
      hooksFileCapabilities(hf),
    );
  }
  const plugin = project.plugins.find((p) => p.file === fresh.path) as RivumiPlugin;
  return unit(
    plugin.hashes as RivumiBundleHashes,
    plugin.canonicalFile,
    RIVUMI_PLUGIN_DOMAIN,
    plugin.source,
    pluginCapabilities(plugin),
  );
}

/** A Rivumi unit that does not load, read for review: its manifest and the files its receipt covers. */
export function readRivumiInvalid(item: Item, reviewed: readonly string[]): InvalidBundle | undefined {
  const workspace = item.workspace;
  if (!workspace) return undefined;
  const read = readNow(workspace, item.id);
  if (!read) return undefined;
  const { fresh } = read;
  const manifest = portableRelative(workspace, fresh.path);
  return {
    item: fresh,
    parts: read.parts,
    bundleKey: fresh.detail.bundleKey as string,
    root: workspace,
    files: hashListed(workspace, [manifest, ...reviewed]),
    contentHash: null,
    diagnostics: read.diagnostics,
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
    return hashed(project, plugin, plugin?.name ?? base, abs, shown);
  }
  if (base === 'hooks.json' && path.basename(parent) === '.rivumi') {
    const project = loadRivumiProject(path.dirname(parent));
    return hashed(project, project.hooksFile, 'hooks.json', abs, shown);
  }
  return null;
}

/**
 * The hashes of the unit read from `abs`, with that file's diagnostics; else why not, with the
 * project's. Only a plugin can be missing or without an error (not listed, or past the cap):
 * a hooks file that does not hash always carries its error.
 */
function hashed(
  project: RivumiProject,
  unit: RivumiPlugin | RivumiHooksFile | undefined,
  name: string,
  abs: string,
  shown: string,
): HashOutcome {
  if (!unit?.hashes)
    return {
      ok: false,
      message: `${shown} could not be hashed: ${unit?.error?.message ?? 'not a loadable Rivumi plugin'}`,
      diagnostics: project.diagnostics,
    };
  const h = unit.hashes;
  return {
    ok: true,
    system: 'rivumi',
    name,
    contentHash: h.contentHash,
    capabilityHash: h.capabilityHash,
    reviewToken: reviewToken(h.contentHash, h.capabilityHash),
    diagnostics: project.diagnostics.filter((d) => d.file === abs),
  };
}
