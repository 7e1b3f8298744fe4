import type { DocPath } from './document';

/**
 * Where things are in plain JSON — text the native parser accepted — found by scanning
 * the text, without a syntax tree. Most manifests are valid and are asked for only a
 * few ranges (an item's anchor), so building jsonc-parser's tree of every document
 * cost more than the few scans it saves. The offsets are jsonc-parser's: a string with
 * its quotes, an object or array from its bracket to its closing bracket, the last of
 * duplicate keys (the one whose value the parsed value holds).
 */
export interface PlainJsonSpot {
  /** [start, end) of the value at the deepest part of the path that exists. */
  readonly start: number;
  readonly end: number;
  /** The key naming that value, when an object holds it (not for the root or an array element). */
  readonly key?: readonly [number, number];
  /** How many segments of the path exist: the whole path when it equals `path.length`. */
  readonly depth: number;
}

export function locatePlainJson(text: string, path: DocPath): PlainJsonSpot {
  let at = skipSpace(text, 0);
  let key: readonly [number, number] | undefined;
  for (let depth = 0; depth < path.length; depth++) {
    const segment = path[depth];
    const found =
      typeof segment === 'string' ? propertyValue(text, at, segment) : elementValue(text, at, segment as number);
    if (!found) return { start: at, end: valueEnd(text, at), ...(key ? { key } : {}), depth };
    at = found.at;
    key = found.key;
  }
  return { start: at, end: valueEnd(text, at), ...(key ? { key } : {}), depth: path.length };
}

/** Colons outside strings: one per property of every object in plain JSON. */
export function plainJsonPropertyCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i) - 1;
    else if (c === COLON) n++;
  }
  return n;
}

/** The value of the last property named `name` (a repeated key keeps its last value). */
function propertyValue(text: string, at: number, name: string): { at: number; key: [number, number] } | undefined {
  if (text.charCodeAt(at) !== OPEN_BRACE) return undefined;
  let i = skipSpace(text, at + 1);
  if (text.charCodeAt(i) === CLOSE_BRACE) return undefined;
  let found: { at: number; key: [number, number] } | undefined;
  for (;;) {
    const keyStart = i;
    const keyEnd = stringEnd(text, i);
    const raw = text.slice(keyStart + 1, keyEnd - 1);
    const decoded = raw.includes('\\') ? (JSON.parse(text.slice(keyStart, keyEnd)) as string) : raw;
    i = skipSpace(text, skipSpace(text, keyEnd) + 1);
    if (decoded === name) found = { at: i, key: [keyStart, keyEnd] };
    i = skipSpace(text, valueEnd(text, i));
    if (text.charCodeAt(i) !== COMMA) return found;
    i = skipSpace(text, i + 1);
  }
}

function elementValue(text: string, at: number, index: number): { at: number; key: undefined } | undefined {
  if (text.charCodeAt(at) !== OPEN_BRACKET) return undefined;
  let i = skipSpace(text, at + 1);
  if (text.charCodeAt(i) === CLOSE_BRACKET) return undefined;
  for (let n = 0; ; n++) {
    if (n === index) return { at: i, key: undefined };
    i = skipSpace(text, valueEnd(text, i));
    if (text.charCodeAt(i) !== COMMA) return undefined;
    i = skipSpace(text, i + 1);
  }
}

/** The end of the value starting at `at`. */
function valueEnd(text: string, at: number): number {
  const c = text.charCodeAt(at);
  if (c === QUOTE) return stringEnd(text, at);
  if (c === OPEN_BRACE || c === OPEN_BRACKET) {
    let depth = 0;
    for (let i = at; i < text.length; i++) {
      const d = text.charCodeAt(i);
      if (d === QUOTE) i = stringEnd(text, i) - 1;
      else if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
      else if ((d === CLOSE_BRACE || d === CLOSE_BRACKET) && --depth === 0) return i + 1;
    }
    return text.length;
  }
  // A number, true, false or null: up to the next delimiter.
  let i = at;
  while (i < text.length && !DELIMITERS.has(text.charCodeAt(i))) i++;
  return i;
}

/** The offset after the closing quote of the string whose opening quote is at `at`. */
function stringEnd(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i + 1;
  }
  return text.length;
}

function skipSpace(text: string, at: number): number {
  let i = at;
  while (SPACE.has(text.charCodeAt(i))) i++;
  return i;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
/** JSON's whitespace (RFC 8259 §2), the only whitespace the native parser accepts. */
const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const DELIMITERS = new Set([...SPACE, COMMA, CLOSE_BRACE, CLOSE_BRACKET]);
