import * as fs from 'node:fs';
import { sha256Hex } from '../hashing/framing';

declare const SKILLGATE_VERSION: string | undefined;

let memo: string | undefined;

/**
 * What must be equal for a cached result to be reused: Skillgate's version, a digest
 * of the code that derived it (the bundle this module is built into: a rebuilt
 * development copy with an unchanged version must not reuse its predecessor's
 * results), and the runtime whose parsers took part (Node's URL and Unicode tables,
 * the platform's path rules).
 */
export function codeIdentity(): string {
  if (memo === undefined) {
    const version = typeof SKILLGATE_VERSION === 'string' ? SKILLGATE_VERSION : '0.0.0-dev';
    let code: string;
    try {
      code = sha256Hex(fs.readFileSync(__filename));
    } catch {
      // The code cannot be read back: a fresh value per process means nothing is ever reused.
      code = `unreadable-${process.pid}-${Date.now()}`;
    }
    memo = [version, code, process.version, process.versions.icu ?? '', process.platform].join(' ');
  }
  return memo;
}
