import { sha256Hex } from './framing';
import { osBytes } from '../fs/rawNames';
import type { Scope, System } from '../model';
import { flatJoin } from '../text/detached';

/**
 * The key a trust receipt is stored under: one bundle at one place (trust.md
 * "Bundle identity"). A copied or renamed bundle gets another key, so it is untrusted.
 */
export function bundleKey(system: System, scope: Scope, canonicalPath: string, name: string): string {
  // The path as OS bytes: a surrogate-escaped name must not hash like its U+FFFD look-alike.
  return sha256Hex(`skillgate-bundle-key-v1\0${system}\0${scope}\0`, osBytes(canonicalPath), `\0${name}`);
}

export function reviewToken(contentHash: string, capabilityHash: string): string {
  return flatJoin(contentHash, '.', capabilityHash);
}
