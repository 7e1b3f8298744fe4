import { frameStep, sha256Hex } from './framing';
import { isTreeFailureKind, type TreeFailureKind, type TreeRead, type TreeStep } from './treeRead';

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
  /**
   * The index has loaded every unit: whatever is still read ahead is dropped and the
   * readers stop, so their threads' memory is gone before the snapshot is composed
   * (docs/memory.md). A `take` after it reads nothing: the walk reads the bundle itself.
   */
  finish(): void;
}

/** A bundle's read taken from a read-ahead, with the root it was announced and read at. */
export interface TakenRead {
  readonly root: string;
  readonly read: TreeRead;
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
/**
 * While the reader sleeps: the place the walk must pass to wake it (NOT_SLEEPING while it
 * reads). The walk wakes it only then, not at every bundle it takes (see LEAD).
 */
export const WAKE_AT = 4;
export const STATE_SLOTS = 5;
export const NOT_SLEEPING = 0x7fffffff;
/**
 * How far the reader may run ahead of the walk: their bytes wait in memory. It reads
 * the next bundle only while fewer than LEAD bundles and LEAD_BYTES bytes wait (so at
 * most LEAD_BYTES plus one bundle at the review limit). Once LEAD bundles wait it sleeps
 * until the walk has taken half of them (RESUME_LEAD), then reads on up to LEAD again: a
 * wake is a futex call on both threads, and waking the reader for every bundle taken
 * cost the walk's thread 130–190 ms of a 2,000-bundle index in `Atomics.notify` alone.
 */
export const LEAD = 64;
export const RESUME_LEAD = LEAD / 2;
export const LEAD_BYTES = 32 * 1024 * 1024;

/**
 * One read as it crosses threads, in a form a structured clone copies as a few blocks
 * instead of an object per step: the names joined by NUL (which no name holds), each step
 * a code and where its file's bytes are, and one transferred buffer of every step framed
 * as the content hash frames it (framing.ts), the files' bytes among the frames. The
 * reader frames and digests, so the walk's thread hashes a bundle in one update and
 * computes no file's digest itself.
 */
export interface PackedTree {
  readonly format: typeof PACKED_FORMAT;
  readonly seq: number;
  readonly root: string;
  /** The steps' names that are strings, in order, each followed by NUL. */
  readonly names: string;
  /** The names that are not UTF-8, as their bytes, in order. */
  readonly rawNames: readonly Uint8Array[];
  /** Per step: its code (END, DIRECTORY, FILE, | EXECUTABLE, | RAW_NAME), its file's offset in `framed` and length. */
  readonly layout: Int32Array;
  /** The steps' frames, one after another. */
  readonly framed: ArrayBuffer;
  /** Each file's SHA-256 in hex, in order, one after another. */
  readonly digests: string;
  readonly failure?: { readonly kind: TreeFailureKind; readonly message: string; readonly rel?: string | Uint8Array };
}

/**
 * The form's version: a reader from another build is not believed (the walk reads itself).
 * 3: a failure carries its kind, which a read of form 2 lacks.
 */
export const PACKED_FORMAT = 3;

const END = 0;
const DIRECTORY = 1;
const FILE = 2;
const EXECUTABLE = 4;
const RAW_NAME = 8;
const HEX_LENGTH = 64;

/** The read, framed and packed, and the buffer to transfer with it (the reader's own buffers are slices of Node's pool). */
export function packTreeRead(seq: number, root: string, tree: TreeRead): { tree: PackedTree; transfer: ArrayBuffer[] } {
  const frames: Uint8Array[] = [];
  let size = 0;
  const sink = {
    update(data: Uint8Array) {
      frames.push(data);
      size += data.length;
    },
  };
  const layout = new Int32Array(tree.steps.length * 3);
  const names: string[] = [];
  const rawNames: Uint8Array[] = [];
  const digests: string[] = [];
  tree.steps.forEach((s, i) => {
    frameStep(sink, s);
    if (s.kind === 'end') return; // END: its code is 0, as the layout starts zeroed
    let code = s.kind === 'directory' ? DIRECTORY : FILE | (s.executable ? EXECUTABLE : 0);
    if (typeof s.rel === 'string') names.push(s.rel);
    else {
      rawNames.push(s.rel);
      code |= RAW_NAME;
    }
    layout[3 * i] = code;
    if (s.kind === 'file') {
      // The file's bytes are the last frame its record wrote.
      layout[3 * i + 1] = size - s.bytes.length;
      layout[3 * i + 2] = s.bytes.length;
      digests.push(sha256Hex(s.bytes));
    }
  });
  const framed = new Uint8Array(size);
  let at = 0;
  for (const f of frames) {
    framed.set(f, at);
    at += f.length;
  }
  const packed: PackedTree = {
    format: PACKED_FORMAT,
    seq,
    root,
    names: names.length > 0 ? names.join('\0') + '\0' : '',
    rawNames,
    layout,
    framed: framed.buffer,
    digests: digests.join(''),
    ...(tree.failure ? { failure: tree.failure } : {}),
  };
  return { tree: packed, transfer: [framed.buffer] };
}

/** The read as the walk uses it: its frames, and each file's bytes a view into them. */
export function unpackTreeRead(packed: PackedTree): TreeRead {
  const names = packed.names.split('\0');
  const { layout, rawNames, digests } = packed;
  const framed = Buffer.from(packed.framed);
  let nextName = 0;
  let nextRaw = 0;
  let nextDigest = 0;
  const steps: TreeStep[] = [];
  for (let i = 0; i < layout.length; i += 3) {
    const code = layout[i] as number;
    if (code === END) {
      steps.push(END_STEP);
      continue;
    }
    const rel = code & RAW_NAME ? buffer(rawNames[nextRaw++] as Uint8Array) : (names[nextName++] as string);
    if (code & FILE) {
      const offset = layout[i + 1] as number;
      const sha256 = digests.slice(nextDigest, nextDigest + HEX_LENGTH);
      nextDigest += HEX_LENGTH;
      if (sha256.length !== HEX_LENGTH) throw new Error('a packed read without its digests');
      steps.push({
        kind: 'file',
        rel,
        bytes: framed.subarray(offset, offset + (layout[i + 2] as number)),
        executable: (code & EXECUTABLE) !== 0,
        sha256,
      });
    } else steps.push({ kind: 'directory', rel });
  }
  const f = packed.failure;
  const base = { steps, framed };
  if (!f) return base;
  // The kind decides the diagnostic: one the walk's code does not name is never guessed from the words.
  if (!isTreeFailureKind(f.kind)) throw new Error('a packed failure without a kind the walk names');
  const { kind, message } = f;
  const rel = f.rel === undefined ? undefined : typeof f.rel === 'string' ? f.rel : buffer(f.rel);
  return { ...base, failure: rel !== undefined ? { kind, message, rel } : { kind, message } };
}

const END_STEP: TreeStep = { kind: 'end' };

function buffer(u: Uint8Array): Buffer {
  return Buffer.from(u.buffer, u.byteOffset, u.byteLength);
}
