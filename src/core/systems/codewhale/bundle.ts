import * as path from 'node:path';
import { readPluginToml } from './formats/pluginToml';
import { readPluginJson } from './formats/pluginJson';
import { readKimiJson } from './formats/kimiJson';
import { validateManifest } from './validateManifest';
import { capabilityPairs, compatibilityOf, inventoryOf, type CompatibilityReport, type Inventory } from './inventory';
import type { HostFacts } from '../../host';
import type { Manifest, ManifestLabel } from './manifest';
import { hashBundleContent, type HashedFile } from '../../hashing/bundleContent';
import type { TakenRead } from '../../hashing/readAhead';
import { capabilityHash } from './capabilityHash';
import { declaredCapabilities, declaredWhen } from './capabilities';
import { POLICY_V3 } from './activationPolicy';
import { reviewToken } from '../../hashing/identity';
import { codewhalePluginId } from './identity';
import { canonicalPath } from '../../fs/safeFs';
import { Findings } from '../../diagnostics/findings';
import { walkedTree } from './bundleTree';
import type { BundleSkill, CodewhaleBundle } from './codewhaleBundle';
import { osBytes, wellFormed } from '../../fs/rawNames';
import type { Range, Scope } from '../../model';
import { portableRelative } from '../../fs/portablePath';
import type { CacheSegment } from '../../cache/parseCacheSegment';
import { bundleCacheEntry } from './bundleCache';
import { detached } from '../../text/detached';
import { keyOf } from '../../documents/located';
import { checkFileAndRoot } from './fileAndRoot';
import { reportWalkFailure } from './walkFailure';
import { discoverSkills } from './bundleSkills';
import { applicability } from './applicability';
import { warnInactiveComponents } from './inactiveComponents';

export interface LoadContext {
  readonly scope: Scope;
  readonly canonicalDiscoveryRoot: string;
  readonly host: HostFacts;
  /** The persistent parse cache of the bundle's discovery root; absent: derive everything (review and trust always do). */
  readonly cache?: CacheSegment;
  /** This bundle's read, made before anything else by its job (bundleJob.ts): from the read-ahead, or in place. */
  readonly taken?: TakenRead;
}

/**
 * Loads one bundle (codewhale.md §2.5): manifest, validation, content hash, skills,
 * inventory, compatibility, capability hash, `[when]`. Never throws for bad input.
 */
export function loadCodewhaleBundle(dir: string, label: ManifestLabel, ctx: LoadContext): CodewhaleBundle {
  const findings = new Findings();
  const dirName = wellFormed(path.basename(dir));
  // Flat (detached.ts): every place in the manifest and every anchor keeps this path.
  const manifestFile = detached(path.join(dir, label));
  // The manifest's directory, or for the Claude form (.claude-plugin/plugin.json) its parent: the bundle directory either way.
  const bundleRoot = dir;
  const base = {
    scope: ctx.scope,
    dir,
    dirName,
    manifestFile,
    label,
    files: [] as HashedFile[],
    directories: [] as string[],
    skills: [] as BundleSkill[],
    bundleFiles: [manifestFile],
    anchors: {},
  };
  const opened = checkFileAndRoot(bundleRoot, label, manifestFile, ctx.taken, findings);
  // Copied with Object.assign, not spread: see the valid bundle's return below.
  const invalid = (name = dirName, extra: Partial<CodewhaleBundle> = {}): CodewhaleBundle =>
    Object.assign(
      {},
      base,
      {
        canonicalRoot: opened.canonicalRoot ?? canonicalPath(dir),
        name,
        valid: false,
        when: { applicable: true, reasons: [] },
        diagnostics: findings.diagnostics,
      },
      extra,
    );

  if (!opened.ok) return invalid();
  const canonicalRoot = opened.canonicalRoot;
  // §7.2 first: one walk reads and hashes every file and keeps the bytes parsed next,
  // and its tree answers the loader's questions about the bundle without the disk.
  const walk = hashBundleContent(canonicalRoot, label, opened.bytes, parsedNext, opened.bundleRead);
  // Everything after a complete walk derives from its bytes and the bundle's place (bundleCache.ts).
  const cache =
    walk.ok && ctx.cache
      ? bundleCacheEntry(ctx.cache, walk, {
          dir,
          label,
          scope: ctx.scope,
          canonicalRoot,
          canonicalDiscoveryRoot: ctx.canonicalDiscoveryRoot,
        })
      : undefined;
  const recalled = cache?.recall((declared) => applicability(declared, ctx.host));
  if (recalled) return recalled;
  const tree = walk.ok ? walkedTree(walk) : undefined;
  const remembered = (bundle: CodewhaleBundle): CodewhaleBundle => {
    // Not when the disk showed the loader what the walk did not hold: the key would not cover it.
    if (!tree?.beyondWalk) cache?.remember(bundle);
    return bundle;
  };
  const manifest =
    label === 'plugin.toml'
      ? readPluginToml(manifestFile, opened.source, findings)
      : label === 'plugin.json'
        ? readPluginJson(manifestFile, opened.source, bundleRoot, findings, tree)
        : readKimiJson(manifestFile, opened.source, bundleRoot, findings, label, tree);
  const bundleFiles =
    label === 'plugin.json' ? [manifestFile, detached(path.join(bundleRoot, 'mcp.json'))] : [manifestFile];
  if (!manifest) return remembered(invalid(dirName, { bundleFiles }));

  const checked = validateManifest(canonicalRoot, manifest, findings, tree);
  const anchors: Record<string, { file: string; range: Range }> = {
    name: { file: manifestFile, range: findings.rangeOf(manifest.name.at) },
  };
  for (const s of manifest.mcpServers) anchors[`mcp:${s.id}`] = { file: s.at.file, range: findings.rangeOf(s.at) };
  for (const [kind, spec] of Object.entries(manifest.components))
    anchors[`component:${kind}`] = { file: spec.at.file, range: findings.rangeOf(keyOf(spec.at)) };
  const inventory = inventoryOf(manifest, checked.networkHosts);
  const compatibility = compatibilityOf(inventory, POLICY_V3);
  const pluginId = codewhalePluginId(ctx.scope, osBytes(canonicalRoot), manifest.name.value);
  const name = manifest.name.value;

  const skillRoots = (checked.componentTargets.skills ?? []).map((t) => portableRelative(canonicalRoot, t));
  if (!walk.ok) {
    reportWalkFailure(walk, dir, manifestFile, findings);
    // Upstream's load stops at the walk (codewhale.md §2.5 step 1), but the inactive components are
    // still listed, display only, from the manifest: they say why, as under any other invalid manifest.
    warnInactiveComponents(manifest, manifestFile, compatibility, findings);
    return invalid(name, {
      ...declared(manifest, inventory, compatibility),
      pluginId,
      inventory,
      compatibility,
      canonicalRoot,
      bundleFiles,
      anchors,
    });
  }
  // §2.5 step 2 follows step 1, the whole of §4: Codewhale's load stops at step 1's first error,
  // so the root of a bundle whose manifest it refuses is never checked, and that error stays the first.
  if (findings.errorCount === 0 && path.dirname(canonicalRoot) !== ctx.canonicalDiscoveryRoot) {
    findings.inFile(
      'codewhale.manifest.root',
      `plugin bundle resolved outside its Codewhale-owned discovery root: ${bundleRoot}`,
      manifestFile,
    );
  }
  // Skill files are spelled under the bundle directory as it was reached, as the bundle and its manifest
  // are: under a workspace folder given through a link, the canonical root lies outside the folder given.
  const skills = discoverSkills(dir, name, skillRoots, walk.files, walk.directories, walk.retained, findings);
  const capHash = capabilityHash(POLICY_V3, capabilityPairs(inventory));
  const when = applicability(declaredWhen(manifest), ctx.host);

  warnInactiveComponents(manifest, manifestFile, compatibility, findings);
  const kept = declared(manifest, inventory, compatibility);
  // Every key written out, in `base`'s order first: V8 gives every object made by spreading
  // one object and adding keys a hidden class of its own (one per bundle: docs/memory.md).
  return remembered({
    scope: base.scope,
    dir,
    dirName,
    manifestFile,
    label,
    files: walk.files,
    directories: walk.directories,
    skills,
    bundleFiles,
    anchors,
    canonicalRoot,
    name,
    valid: findings.errorCount === 0,
    capabilities: kept.capabilities,
    description: kept.description,
    mcpServerIds: kept.mcpServerIds,
    version: checked.version,
    inventory,
    compatibility,
    contentHash: walk.contentHash,
    capabilityHash: capHash,
    reviewToken: reviewToken(walk.contentHash, capHash),
    pluginId,
    when,
    diagnostics: findings.diagnostics,
  });
}

/**
 * Files the loader parses after the walk: the MCP sidecars (`mcp.json`, a Claude bundle's
 * `.mcp.json`) and every SKILL.md below a directory (one in the bundle root is never a
 * skill, §5.1). Keeping them saves reading them again, and the loader parses the bytes the
 * content hash covers, not a later state of the file (the parse cache's key).
 */
function parsedNext(rel: string): boolean {
  return rel === 'mcp.json' || rel === '.mcp.json' || rel.endsWith('/SKILL.md');
}

/** What a bundle keeps of a manifest that parsed (see `CodewhaleBundle.capabilities`). */
function declared(
  manifest: Manifest,
  inventory: Inventory | undefined,
  compatibility: CompatibilityReport | undefined,
): Pick<CodewhaleBundle, 'capabilities' | 'description' | 'mcpServerIds'> {
  return {
    capabilities: declaredCapabilities(manifest, inventory, compatibility),
    description: manifest.description?.value ?? null,
    mcpServerIds: manifest.mcpServers.map((s) => s.id),
  };
}
