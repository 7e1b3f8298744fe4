import { pathFrame, sha256Hex } from '../../hashing/framing';
import type { Scope } from '../../model';
import { flatJoin } from '../../text/detached';

/** Codewhale's plugin id `{scope}/{12 hex}/{name}` (codewhale.md §7.6). */
export function codewhalePluginId(scope: Scope | 'builtin', canonicalRoot: Uint8Array, name: string): string {
  const digest = sha256Hex('codewhale-plugin-id-v2\0', scope, '\0', pathFrame('canonical-plugin-root', canonicalRoot));
  return flatJoin(scope, '/', digest.slice(0, 12), '/', name);
}

/** Upstream's runtime stage key for a plugin id (codewhale.md §8.6). */
export function codewhaleStageKey(pluginId: string): string {
  return sha256Hex('codewhale-plugin-stage-v2\0', pluginId);
}

/** Codewhale's per-file hash, binding parsed skills to reviewed bytes (codewhale.md §7.3). */
export function codewhaleFileHash(bytes: Uint8Array): string {
  return sha256Hex('codewhale-plugin-file-bytes-v1\0', bytes);
}
