import type { TreeRead, TreeStep } from './treeRead';

/**
 * Bundle trees read ahead by another thread (the CLI's tree reader, docs/read-ahead.md).
 * The index announces the roots it will walk, in its order; the walk takes a root's read
 * when it reaches it. A read ahead is the same code's read (treeRead.ts), only earlier:
 * what it does not hold, or holds no longer, the walk reads itself.
 */
export interface TreeReadAhead {
  /** Bundle roots, spelled as the walk will be handed them, in the order it walks them. */
  announce(roots: readonly string[]): void;
  /** The read of `root` when it was announced and not yet passed; undefined: read it here. */
  take(root: string): TreeRead | undefined;
}

/** The shared counters between the walk's thread and the reader (an Int32Array over a SharedArrayBuffer). */
/** Reads posted so far. */
export const POSTED = 0;
/** The walk has passed every bundle before this place: the reader skips them. */
export const TAKEN = 1;
/** Non-zero once the reader failed. */
export const FAILED = 2;
/** The place of the bundle the reader reads now (-1 before the first). */
export const READING = 3;
export const STATE_SLOTS = 4;
/**
 * How far the reader may run ahead of the walk: their bytes wait in memory. It reads
 * the next bundle only while fewer than LEAD bundles and LEAD_BYTES bytes wait (so at
 * most LEAD_BYTES plus one bundle at the review limit).
 */
export const LEAD = 64;
export const LEAD_BYTES = 32 * 1024 * 1024;

/**
 * One read as it crosses threads, in a form a structured clone copies as a few blocks
 * instead of an object per step: the names joined by NUL (which no name holds), each step
 * a code and a length, every file's bytes one after another in one transferred buffer.
 */
export interface PackedTree {
  readonly format: typeof PACKED_FORMAT;
  readonly seq: number;
  readonly root: string;
  /** The steps' names that are strings, in order, each followed by NUL. */
  readonly names: string;
  /** The names that are not UTF-8, as their bytes, in order. */
  readonly rawNames: readonly Uint8Array[];
  /** Per step: its code (END, DIRECTORY, FILE, | EXECUTABLE, | RAW_NAME) and its file's length. */
  readonly layout: Int32Array;
  readonly bytes: ArrayBuffer;
  readonly failure?: { readonly message: string; readonly rel?: string | Uint8Array };
}

/** The form's version: a reader from another build is not believed (the walk reads itself). */
export const PACKED_FORMAT = 1;

const END = 0;
const DIRECTORY = 1;
const FILE = 2;
const EXECUTABLE = 4;
const RAW_NAME = 8;

/** The read, packed, and the buffer to transfer with it (the reader's own buffers are slices of Node's pool). */
export function packTreeRead(seq: number, root: string, tree: TreeRead): { tree: PackedTree; transfer: ArrayBuffer[] } {
  let size = 0;
  for (const s of tree.steps) if (s.kind === 'file') size += s.bytes.length;
  const bytes = new Uint8Array(size);
  const layout = new Int32Array(tree.steps.length * 2);
  const names: string[] = [];
  const rawNames: Uint8Array[] = [];
  let at = 0;
  tree.steps.forEach((s, i) => {
    if (s.kind === 'end') return; // END, length 0: the buffer starts zeroed
    let code = s.kind === 'directory' ? DIRECTORY : FILE | (s.executable ? EXECUTABLE : 0);
    if (typeof s.rel === 'string') names.push(s.rel);
    else {
      rawNames.push(s.rel);
      code |= RAW_NAME;
    }
    layout[2 * i] = code;
    if (s.kind === 'file') {
      bytes.set(s.bytes, at);
      at += s.bytes.length;
      layout[2 * i + 1] = s.bytes.length;
    }
  });
  const names0 = names.length > 0 ? names.join('\0') + '\0' : '';
  const packed: PackedTree = {
    format: PACKED_FORMAT,
    seq,
    root,
    names: names0,
    rawNames,
    layout,
    bytes: bytes.buffer,
    ...(tree.failure ? { failure: tree.failure } : {}),
  };
  return { tree: packed, transfer: [bytes.buffer] };
}

/** The read as the walk uses it: Buffers over the transferred bytes. */
export function unpackTreeRead(packed: PackedTree): TreeRead {
  const names = packed.names.split('\0');
  const { layout, rawNames } = packed;
  let nextName = 0;
  let nextRaw = 0;
  let at = 0;
  const steps: TreeStep[] = [];
  for (let i = 0; i < layout.length; i += 2) {
    const code = layout[i] as number;
    if (code === END) {
      steps.push(END_STEP);
      continue;
    }
    const rel = code & RAW_NAME ? buffer(rawNames[nextRaw++] as Uint8Array) : (names[nextName++] as string);
    if (code & FILE) {
      const length = layout[i + 1] as number;
      steps.push({
        kind: 'file',
        rel,
        bytes: Buffer.from(packed.bytes, at, length),
        executable: (code & EXECUTABLE) !== 0,
      });
      at += length;
    } else steps.push({ kind: 'directory', rel });
  }
  const f = packed.failure;
  if (!f) return { steps };
  const rel = f.rel === undefined ? undefined : typeof f.rel === 'string' ? f.rel : buffer(f.rel);
  return { steps, failure: rel !== undefined ? { message: f.message, rel } : { message: f.message } };
}

const END_STEP: TreeStep = { kind: 'end' };

function buffer(u: Uint8Array): Buffer {
  return Buffer.from(u.buffer, u.byteOffset, u.byteLength);
}
