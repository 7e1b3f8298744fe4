import { pathFrame, sha256Hex } from './framing';
import { osBytes } from '../fs/rawNames';
import type { Scope, System } from '../model';

/** Codewhale's plugin id `{scope}/{12 hex}/{name}` (codewhale.md §7.6). */
export function codewhalePluginId(scope: Scope | 'builtin', canonicalRoot: Uint8Array, name: string): string {
  const digest = sha256Hex('codewhale-plugin-id-v2\0', scope, '\0', pathFrame('canonical-plugin-root', canonicalRoot));
  return `${scope}/${digest.slice(0, 12)}/${name}`;
}

/** Upstream's runtime stage key for a plugin id (codewhale.md §8.6). */
export function codewhaleStageKey(pluginId: string): string {
  return sha256Hex('codewhale-plugin-stage-v2\0', pluginId);
}

/**
 * The key a trust receipt is stored under: one bundle at one place (trust.md
 * "Bundle identity"). A copied or renamed bundle gets another key, so it is untrusted.
 */
export function bundleKey(system: System, scope: Scope, canonicalPath: string | Uint8Array, name: string): string {
  // The path as OS bytes: a surrogate-escaped name must not hash like its U+FFFD look-alike.
  return sha256Hex(`skillgate-bundle-key-v1\0${system}\0${scope}\0`, typeof canonicalPath === 'string' ? osBytes(canonicalPath) : canonicalPath, `\0${name}`);
}

/** Codewhale's per-file hash, binding parsed skills to reviewed bytes (codewhale.md §7.3). */
export function codewhaleFileHash(bytes: Uint8Array): string {
  return sha256Hex('codewhale-plugin-file-bytes-v1\0', bytes);
}

export function reviewToken(contentHash: string, capabilityHash: string): string {
  return `${contentHash}.${capabilityHash}`;
}
