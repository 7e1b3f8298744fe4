import type { Range } from '../model';
import type { NestingExcess } from './nesting';

/** A path into a parsed document: object keys and array indexes. */
export type DocPath = readonly (string | number)[];

/**
 * A parsed configuration file that can say where each of its fields is, so every
 * diagnostic lands on the exact field (jsonc-parser for JSON, the TOML AST for TOML).
 */
export interface ParsedDocument {
  readonly file: string;
  readonly text: string;
  readonly value: unknown;
  /** Range of the value at `path`, or of the nearest ancestor that exists. */
  valueRange(path: DocPath): Range;
  /** Range of the key naming `path` (for unknown or misplaced keys). */
  keyRange(path: DocPath): Range;
  /** UTF-16 offsets [start, end) of the value at `path` (or its nearest ancestor). */
  valueSpan(path: DocPath): readonly [number, number];
  /** The range of the UTF-16 offsets [start, end) of the text, from the document's one line map. */
  spanRange(start: number, end: number): Range;
  /** The source text of the value exactly at `path` (no ancestor), e.g. to tell `1` from `1.0`. */
  literalAt(path: DocPath): string | undefined;
}

export type ParseOutcome =
  | { readonly ok: true; readonly document: ParsedDocument }
  | {
      readonly ok: false;
      readonly message: string;
      readonly range: Range;
      /** Set when the text nests deeper than allowed and was not parsed at all. */
      readonly nesting?: NestingExcess;
    };
