import { createHash, hash, type Hash } from 'node:crypto';
import type { TreeStep } from './treeRead';

/**
 * Length framing shared by every hash here, as Codewhale frames its hash inputs
 * (codewhale.md §7). The record builders write each header into one buffer: a
 * bundle walk frames tens of thousands of records, and every separate `update`
 * and temporary buffer shows in the cold-index benchmark.
 */

export function u64le(n: number): Buffer {
  const b = Buffer.allocUnsafe(8);
  writeU64(b, 0, n);
  return b;
}

/** Writes a non-negative safe integer as 8 little-endian bytes (no BigInt on the hot path). */
function writeU64(b: Buffer, at: number, n: number): void {
  b.writeUInt32LE(n % 0x100000000, at);
  b.writeUInt32LE(Math.floor(n / 0x100000000), at + 4);
}

const PATH_MAGIC = Buffer.from('codewhale-os-path-v1\0');
const UNIX_BYTES = Buffer.from('unix-bytes\0');
const framePrefixes = new Map<string, Buffer>();

/** `codewhale-os-path-v1\0 ‖ u64(len(domain)) ‖ domain ‖ unix-bytes\0`, built once per domain. */
function framePrefix(domain: string): Buffer {
  let prefix = framePrefixes.get(domain);
  if (!prefix) {
    const d = Buffer.from(domain);
    prefix = Buffer.concat([PATH_MAGIC, u64le(d.length), d, UNIX_BYTES]);
    framePrefixes.set(domain, prefix);
  }
  return prefix;
}

/** Codewhale's `PATH(domain, rel)` framing on Unix (codewhale.md §7.1); `rel` is raw OS bytes. */
export function pathFrame(domain: string, rel: Uint8Array | string): Buffer {
  return recordHeader(undefined, domain, rel, undefined);
}

export function sha256Hex(...parts: (string | Uint8Array)[]): string {
  // One part (every file of a walk): the one-shot digest, without a Hash object per file.
  if (parts.length === 1) return hash('sha256', parts[0] as string | Uint8Array, 'hex');
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest('hex');
}

/**
 * Where frames go: a hash, or (the CLI's tree reader, readAhead.ts) a buffer of the
 * frames that a hash on another thread takes in one update; SHA-256 of a stream is the
 * same however it is cut.
 */
export interface FrameSink {
  update(data: Uint8Array): unknown;
}

export function newHash(): Hash {
  return createHash('sha256');
}

/**
 * `[lead] ‖ PATH(domain, rel) ‖ [u64(trailingLength)]` in one buffer. `rel` may be a
 * string when the name is valid UTF-8: its UTF-8 bytes (every string here is written as
 * UTF-8, Buffer's default) are the OS bytes then.
 */
function recordHeader(
  lead: Buffer | undefined,
  domain: string,
  rel: Uint8Array | string,
  trailingLength: number | undefined,
): Buffer {
  const prefix = framePrefix(domain);
  const relLength = Buffer.byteLength(rel);
  const leadLength = lead ? lead.length : 0;
  const out = Buffer.allocUnsafe(leadLength + prefix.length + 8 + relLength + (trailingLength === undefined ? 0 : 8));
  let at = 0;
  if (lead) at += lead.copy(out, 0);
  at += prefix.copy(out, at);
  writeU64(out, at, relLength);
  at += 8;
  if (typeof rel === 'string') at += out.write(rel, at);
  else {
    out.set(rel, at);
    at += rel.length;
  }
  if (trailingLength !== undefined) writeU64(out, at, trailingLength);
  return out;
}

/** The per-file record of a content hash: permission, `F\0` tag, framed path, length, bytes. */
export function fileRecord(
  h: FrameSink,
  rel: Uint8Array | string,
  executable: boolean,
  bytes: Uint8Array,
  pathDomain = 'bundle-relative-file',
): void {
  h.update(recordHeader(executable ? FILE_LEAD_EXEC : FILE_LEAD, pathDomain, rel, bytes.length));
  h.update(bytes);
}

export function directoryOpen(h: FrameSink, rel: Uint8Array | string): void {
  h.update(recordHeader(DIRECTORY_LEAD, 'bundle-relative-directory', rel, undefined));
}

export function directoryClose(h: FrameSink): void {
  h.update(E_TAG);
}

// `unix-executable\0 ‖ {0|1} ‖ {F|D}\0`: the fixed start of every file and directory record
// (ASCII, so its UTF-8 bytes are the bytes spelled here).
const FILE_LEAD = Buffer.from('unix-executable\0\0F\0');
const FILE_LEAD_EXEC = Buffer.from('unix-executable\0\x01F\0');
const DIRECTORY_LEAD = Buffer.from('unix-executable\0\0D\0');
const E_TAG = Buffer.from('E\0');

/** One step of the walk as the content hash frames it (codewhale.md §7.2): the walk's hash and the reader thread's buffer both take it. */
export function frameStep(sink: FrameSink, step: TreeStep): void {
  if (step.kind === 'end') directoryClose(sink);
  else if (step.kind === 'directory') directoryOpen(sink, step.rel);
  else fileRecord(sink, step.rel, step.executable, step.bytes);
}
