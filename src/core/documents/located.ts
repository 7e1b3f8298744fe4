import type { DocPath } from './document';

/**
 * Where a value came from: its file and its path inside the parsed document. Every
 * agent's loader keeps it on the fields it reads, so a finding is reported in the file
 * that holds the field, at the field itself.
 */
export interface Where {
  readonly file: string;
  readonly path: DocPath;
  /** Point at the key rather than the value (unknown or forbidden fields). */
  readonly key?: boolean;
}

export interface Located<T> {
  readonly value: T;
  readonly at: Where;
}

/**
 * The place of the key that holds the value at `at`. A literal, not `{ ...at, key: true }`:
 * Node 20's V8 gives every spread copy that gains a key a hidden class of its own, and
 * every place then reached the range lookup in a new shape (docs/memory.md).
 */
export function keyOf(at: Where): Where {
  return { file: at.file, path: at.path, key: true };
}
