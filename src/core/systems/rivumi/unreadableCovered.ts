import type { IoFault } from '../../fs/safeFs';
import { deniedByPermissions } from '../../fs/permissionDenied';
import { pythonRepr } from './pythonText';
import { decodeRawName } from '../../fs/rawNames';

/**
 * Why a file Skillgate may not read cannot be covered: its bytes cannot be hashed, so what
 * runs (or, for a plugin skill file, loads) is not what a receipt pins. For want of
 * permission, Rivumi run as a user who may read it uses it all the same.
 */
export function unhashable(fault: IoFault | undefined, uses: 'runs' | 'loads'): string {
  return deniedByPermissions(fault)
    ? `: a user who may read it ${uses} what it holds, which Skillgate cannot hash`
    : `, so Skillgate cannot hash what Rivumi ${uses}`;
}

/**
 * A covered file Skillgate failed to read, named as Rivumi would name it, with the error in
 * Python's words (`pythonWords`) and why it cannot be hashed: one sentence for a hook script
 * found at its argv element (hookArgvFiles.ts), and for any covered file whose read fails when
 * the unit is hashed (hashes.ts `rivumiContentHash`).
 */
export function unreadableCovered(
  what: 'hook script' | 'plugin skill file',
  rel: Buffer,
  pythonWords: string,
  fault: IoFault | undefined,
): string {
  return `${what} ${pythonRepr(decodeRawName(rel))} cannot be read (${pythonWords})${unhashable(fault, what === 'hook script' ? 'runs' : 'loads')}`;
}
