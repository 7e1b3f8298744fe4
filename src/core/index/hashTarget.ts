import * as path from 'node:path';
import { loadCodewhaleBundle, resolveManifest } from '../systems/codewhale/bundle';
import { currentHost } from '../systems/codewhale/host';
import { canonicalPath, lstatEntry } from '../fs/safeFs';
import { loadRivumiProject } from '../systems/rivumi/load';
import { reviewToken } from '../hashing/identity';
import type { Diagnostic } from '../model';

export type HashOutcome =
  | { readonly ok: true; readonly system: 'codewhale' | 'rivumi'; readonly name: string; readonly contentHash: string; readonly capabilityHash: string; readonly reviewToken: string; readonly diagnostics: readonly Diagnostic[] }
  | { readonly ok: false; readonly message: string; readonly diagnostics: readonly Diagnostic[] };

const CODEWHALE_MANIFESTS = new Set(['plugin.json', 'kimi.plugin.json', 'plugin.toml']);

/**
 * `skillgate hash <bundle-dir>`: a Codewhale bundle directory (or its manifest), a
 * Rivumi plugin manifest under `.rivumi/plugins/`, or a `.rivumi/hooks.json`.
 */
export function hashTarget(target: string): HashOutcome {
  const abs = path.resolve(target);
  const entry = lstatEntry(abs);
  if (entry.type === 'missing') return { ok: false, message: `${target} does not exist`, diagnostics: [] };
  if (entry.type === 'symlink') return { ok: false, message: `${target} is a symbolic link; Skillgate never follows links into a bundle`, diagnostics: [] };
  const base = path.basename(abs);
  const parent = path.dirname(abs);
  if (entry.type === 'file' && path.basename(parent) === 'plugins' && path.basename(path.dirname(parent)) === '.rivumi' && base.endsWith('.json')) {
    const project = loadRivumiProject(path.dirname(path.dirname(parent)));
    const plugin = project.plugins.find((p) => p.file === abs);
    if (!plugin?.hashes) return { ok: false, message: `${target} could not be hashed: ${plugin?.error?.message ?? 'not a loadable Rivumi plugin'}`, diagnostics: project.diagnostics };
    return { ok: true, system: 'rivumi', name: plugin.name, ...tokens(plugin.hashes), diagnostics: project.diagnostics.filter((d) => d.file === abs) };
  }
  if (entry.type === 'file' && base === 'hooks.json' && path.basename(parent) === '.rivumi') {
    const project = loadRivumiProject(path.dirname(parent));
    const hf = project.hooksFile;
    if (!hf?.hashes) return { ok: false, message: `${target} could not be hashed: ${hf?.error?.message ?? 'unreadable'}`, diagnostics: project.diagnostics };
    return { ok: true, system: 'rivumi', name: 'hooks.json', ...tokens(hf.hashes), diagnostics: project.diagnostics.filter((d) => d.file === abs) };
  }
  const dir = entry.type === 'file' && CODEWHALE_MANIFESTS.has(base) ? parent : abs;
  const label = resolveManifest(dir);
  if (!label) return { ok: false, message: `${target} holds no plugin.json, kimi.plugin.json, plugin.toml or .claude-plugin/plugin.json`, diagnostics: [] };
  const discoveryRoot = canonicalPath(path.dirname(dir)) ?? path.dirname(dir);
  const bundle = loadCodewhaleBundle(dir, label, { scope: 'workspace', canonicalDiscoveryRoot: discoveryRoot, host: currentHost() });
  if (!bundle.contentHash || !bundle.capabilityHash) {
    const first = bundle.diagnostics.find((d) => d.severity === 'error');
    return { ok: false, message: `${target} could not be hashed: ${first?.message ?? 'invalid bundle'}`, diagnostics: bundle.diagnostics };
  }
  return { ok: true, system: 'codewhale', name: bundle.name, contentHash: bundle.contentHash, capabilityHash: bundle.capabilityHash, reviewToken: reviewToken(bundle.contentHash, bundle.capabilityHash), diagnostics: bundle.diagnostics };
}

function tokens(h: { contentHash: string; capabilityHash: string }) {
  return { contentHash: h.contentHash, capabilityHash: h.capabilityHash, reviewToken: reviewToken(h.contentHash, h.capabilityHash) };
}
