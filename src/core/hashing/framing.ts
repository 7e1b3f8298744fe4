import { createHash, type Hash } from 'node:crypto';

/** Length framing shared by every hash here, as Codewhale frames its hash inputs (codewhale.md §7). */

export function u64le(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
}

/** Codewhale's `PATH(domain, rel)` framing on Unix (codewhale.md §7.1); `rel` is raw OS bytes. */
export function pathFrame(domain: string, rel: Uint8Array): Buffer {
  const d = Buffer.from(domain, 'utf8');
  return Buffer.concat([Buffer.from('codewhale-os-path-v1\0'), u64le(d.length), d, Buffer.from('unix-bytes\0'), u64le(rel.length), rel]);
}

export function sha256Hex(...parts: (string | Uint8Array)[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest('hex');
}

export function newHash(): Hash {
  return createHash('sha256');
}

/** The per-file record of a content hash: permission, `F\0` tag, framed path, length, bytes. */
export function fileRecord(h: Hash, rel: Uint8Array, executable: boolean, bytes: Uint8Array, pathDomain = 'bundle-relative-file'): void {
  h.update(EXEC_TAG);
  h.update(executable ? ONE : ZERO);
  h.update(F_TAG);
  h.update(pathFrame(pathDomain, rel));
  h.update(u64le(bytes.length));
  h.update(bytes);
}

export function directoryOpen(h: Hash, rel: Uint8Array): void {
  h.update(EXEC_TAG);
  h.update(ZERO);
  h.update(D_TAG);
  h.update(pathFrame('bundle-relative-directory', rel));
}

export function directoryClose(h: Hash): void {
  h.update(E_TAG);
}

const EXEC_TAG = Buffer.from('unix-executable\0');
const ZERO = Buffer.from([0]);
const ONE = Buffer.from([1]);
const F_TAG = Buffer.from('F\0');
const D_TAG = Buffer.from('D\0');
const E_TAG = Buffer.from('E\0');
