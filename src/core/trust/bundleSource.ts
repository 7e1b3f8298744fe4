import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadCodewhaleBundle, resolveManifest, type CodewhaleBundle } from '../systems/codewhale/bundle';
import { currentHost, type HostFacts } from '../systems/codewhale/host';
import { canonicalPath, readRegularFile } from '../fs/safeFs';
import { hashBundleContent } from '../hashing/bundleContent';
import { codewhaleItems } from '../systems/codewhale/items';
import { rivumiItems } from '../systems/rivumi/items';
import { loadRivumiProject } from '../systems/rivumi/load';
import { RIVUMI_HOOKS_DOMAIN, RIVUMI_PLUGIN_DOMAIN, rivumiContentHash } from '../systems/rivumi/hashes';
import { osPath } from '../fs/rawNames';
import type { RivumiBundleHashes } from '../systems/rivumi/model';
import { EMPTY_TRUST } from '../decisions/trustView';
import type { BundleFile, Diagnostic, Item } from '../model';
import { emptyOwnRecord, ownRecordOf } from '../documents/ownRecord';

/**
 * A trust unit read from disk at this moment (review and trust never rely on an older
 * index): its item, the files its content hash covers, and how to re-hash a copy of
 * them (to prove a snapshot holds exactly the reviewed bytes).
 */
export interface BundleSource {
  readonly item: Item;
  readonly bundleKey: string;
  /** Covered files are relative to this directory. */
  readonly root: string;
  /** The bundle's canonical path, as its receipt records it (trust.md "Bundle identity"). */
  readonly canonicalPath: string;
  readonly files: readonly BundleFile[];
  /** Directories (relative) that a copy must have for its hash to match (Codewhale hashes empty ones). */
  readonly directories: readonly string[];
  /** What the reviewer approves: the full capability inventory. */
  readonly capabilities: Record<string, unknown>;
  /** What the bundle runs that trust cannot cover; trust is refused while any is listed. */
  readonly notCovered: readonly string[];
  readonly applicable: boolean;
  /** The unit's diagnostics as read now (an invalid unit's say why it is rejected). */
  readonly diagnostics: readonly Diagnostic[];
  rehashCopy(copyRoot: string): string | undefined;
}

export type SourceRead = { readonly ok: true; readonly source: BundleSource } | { readonly ok: false; readonly message: string };

export function readBundleSource(item: Item, host: HostFacts = currentHost()): SourceRead {
  if (item.trust === null) return { ok: false, message: `${item.qualifiedName} is not a bundle; only Codewhale bundles, Rivumi plugins and the Rivumi hooks file are trusted` };
  return item.system === 'codewhale' ? codewhaleSource(item, host) : rivumiSource(item);
}

function codewhaleSource(item: Item, host: HostFacts): SourceRead {
  const dir = item.path;
  const label = resolveManifest(dir);
  const discoveryRoot = canonicalPath(path.dirname(dir));
  if (!label || !discoveryRoot) return { ok: false, message: `bundle ${item.name} at ${dir} can no longer be read` };
  const bundle = loadCodewhaleBundle(dir, label, { scope: item.scope, canonicalDiscoveryRoot: discoveryRoot, host });
  const out = codewhaleItems([{ bundle, workspace: item.workspace }], { trust: EMPTY_TRUST, workspaceTrusted: true });
  const fresh = out.items[0];
  if (!fresh || !bundle.contentHash || !bundle.canonicalRoot) {
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
      capabilities: codewhaleCapabilities(bundle, fresh),
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

function rivumiSource(item: Item): SourceRead {
  if (!item.workspace) return { ok: false, message: `${item.name} has no workspace` };
  const workspace = item.workspace;
  const project = loadRivumiProject(workspace);
  const out = rivumiItems(project, { trust: EMPTY_TRUST, workspaceTrusted: true, hooksOptIn: false });
  const fresh = out.items.find((i) => i.id === item.id);
  if (!fresh || !fresh.contentHash) return { ok: false, message: `${item.name} can no longer be read or hashed` };
  const own = new Set([fresh.id, ...out.items.filter((i) => i.parent === fresh.id).map((i) => i.id)]);
  const diagnostics = out.diagnostics.filter((d) => d.itemId !== null && own.has(d.itemId));
  // Both Rivumi trust units cover workspace-relative files and have no directories of their own.
  const unit = (hashes: RivumiBundleHashes, canonicalPath: string, domain: string, manifestRel: string, capabilities: Record<string, unknown>): SourceRead => ({
    ok: true,
    source: {
      item: fresh,
      bundleKey: fresh.detail.bundleKey as string,
      root: workspace,
      canonicalPath,
      files: hashes.files,
      directories: [],
      capabilities,
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
    return unit(hf.hashes, hf.canonicalFile, RIVUMI_HOOKS_DOMAIN, '.rivumi/hooks.json', { system: 'rivumi', kind: 'hooks', hooks: hookFacts(hf.hooks), pairs: hf.hashes.capabilities });
  }
  const plugin = project.plugins.find((p) => p.file === item.path);
  if (!plugin?.hashes) return { ok: false, message: `${item.name} can no longer be hashed` };
  return unit(plugin.hashes, plugin.canonicalFile, RIVUMI_PLUGIN_DOMAIN, plugin.source, { system: 'rivumi', kind: 'plugin', skills: plugin.skills.map((s) => ({ name: s.qualifiedName, path: s.source })), hooks: hookFacts(plugin.hooks), pairs: plugin.hashes.capabilities });
}

/** Hooks keyed by event and command line, so a review names each added or removed command. */
function hookFacts(hooks: readonly { event: string; argv: readonly string[]; timeoutSeconds: number; tools: readonly string[] }[]): Record<string, unknown> {
  const out = emptyOwnRecord<unknown>();
  for (const h of hooks) {
    const base = `${h.event}: ${JSON.stringify(h.argv)}`;
    let key = base;
    for (let n = 2; Object.hasOwn(out, key); n++) key = `${base} (#${n})`;
    out[key] = { event: h.event, argv: [...h.argv], timeoutSeconds: h.timeoutSeconds, tools: [...h.tools] };
  }
  return out;
}

/** Everything a Codewhale bundle can do, as stored in a receipt and compared by review. */
function codewhaleCapabilities(b: CodewhaleBundle, item: Item): Record<string, unknown> {
  const facts = (item.detail.facts ?? {}) as Record<string, unknown>;
  const inv = b.inventory;
  // Names the bundle chooses are keys of prototype-free maps: a server called `__proto__` is kept.
  const mcpServers = emptyOwnRecord<unknown>();
  for (const s of (facts.mcpServers as Record<string, unknown>[] | undefined) ?? []) {
    const { id, env, envHeaders, ...rest } = s as { id: string; env: { destination: string; source: string | null }[]; envHeaders: { header: string; source: string }[] };
    // Mappings as maps, so a review names each added or removed mapping (`DEST ← SOURCE`).
    mcpServers[id] = { ...rest, env: ownRecordOf(env.map((e) => [e.destination, e.source])), envHeaders: ownRecordOf(envHeaders.map((h) => [h.header, h.source])) };
  }
  const components = emptyOwnRecord<string[]>();
  for (const [kind, spec] of Object.entries(b.manifest?.components ?? {})) components[kind] = spec.paths.map((p) => p.value);
  return {
    system: 'codewhale',
    compatibility: b.compatibility?.compatibility ?? null,
    components,
    mcpServers,
    networkHosts: inv ? [...inv.network_hosts] : [],
    filesystemRoots: inv ? [...inv.filesystem_roots] : [],
    lifecycleMutation: inv?.lifecycle_mutation ?? false,
    when: facts.when ?? null,
    inventory: inv ? { ...inv } : null,
  };
}

/** True when `p` exists as a directory (snapshots). */
export function isDirectory(p: string): boolean {
  try {
    return fs.lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}
