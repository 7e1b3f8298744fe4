import type { CodewhaleBundle } from './codewhaleBundle';
import { osBytes } from '../../fs/rawNames';

/**
 * Precedence within one scope (codewhale.md §2.6) as one byte string: name, then
 * canonical root, compared as UTF-8 (raw) bytes as upstream compares them; UTF-16
 * order would keep the other of two roots such as `！` (U+FF01) and `😀` (U+1F600).
 * Neither a name nor a path holds a NUL, so the NUL-joined key orders field by field.
 * Scope comes first by the order of the passes: every list placed is of one scope
 * (user bundles, or one workspace's), and the user's pass runs first (items.ts).
 */
export function precedenceKey(b: CodewhaleBundle): Buffer {
  return Buffer.concat([osBytes(b.name), NUL, osBytes(b.canonicalRoot ?? b.dir)]);
}

const NUL = Buffer.from([0]);
