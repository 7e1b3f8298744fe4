/**
 * A cheap, iterative look at how deeply a configuration file nests, made before any
 * parser sees it. The parsers we use (jsonc-parser, toml-eslint-parser) and the code
 * that walks parsed values recurse once per level, so a file of a few thousand `[`
 * would overflow the stack; the agents' own parsers stop far earlier (serde_json and
 * toml_edit at 128 levels, Python's json at its recursion limit). Bounding the depth
 * here keeps every later recursion small, and the file is reported as invalid.
 */

export type NestingSyntax = 'json' | 'toml';

export interface NestingExcess {
  /** UTF-16 offset of the first bracket that opens one level too many. */
  readonly offset: number;
  /** The bracket that went too deep: an array (`[`) or an object/table (`{`). */
  readonly container: 'array' | 'object';
}

/**
 * The first place where more than `maxDepth` arrays and objects are open at once,
 * outside strings (and, in TOML, comments); undefined when the text stays within it.
 * TOML counts the depth of the value tree: table headers and dotted keys (`a.b.c = 1`)
 * nest tables too, so each of their segments counts as a level.
 */
export function nestingExcess(text: string, maxDepth: number, syntax: NestingSyntax): NestingExcess | undefined {
  return syntax === 'json' ? jsonExcess(text, maxDepth) : tomlExcess(text, maxDepth);
}

function jsonExcess(text: string, maxDepth: number): NestingExcess | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Skip the string; an escape consumes the next character, whatever it is.
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === OPEN_SQUARE || c === OPEN_CURLY) {
      if (++depth > maxDepth) return { offset: i, container: c === OPEN_SQUARE ? 'array' : 'object' };
    } else if (c === CLOSE_SQUARE || c === CLOSE_CURLY) {
      if (depth > 0) depth--;
    }
  }
  return undefined;
}

function tomlExcess(text: string, maxDepth: number): NestingExcess | undefined {
  // The depth of the value tree: a `[table.header]` sets the base of its section, every
  // dotted key segment adds one, every inline table or array adds one more.
  let sectionBase = 0;
  const bases: number[] = [];
  const inArray: boolean[] = [];
  let dots = 0;
  let keySegments = 0;
  let lineStart = true;
  // After `=`, until the next `,` or line: a dot there is in a number or a date, not a key.
  let inValue = false;
  let header: { double: boolean } | undefined;
  const base = () => bases[bases.length - 1] ?? sectionBase;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === NEWLINE) {
      lineStart = true;
      dots = 0;
      if (bases.length === 0) {
        keySegments = 0;
        inValue = false;
      }
      continue;
    }
    const wasLineStart = lineStart;
    if (c !== SPACE && c !== TAB && c !== RETURN) lineStart = false;
    if (c === QUOTE || c === APOSTROPHE) {
      i = afterTomlString(text, i, c);
    } else if (c === HASH) {
      while (i + 1 < text.length && text.charCodeAt(i + 1) !== NEWLINE) i++;
    } else if (c === OPEN_SQUARE && wasLineStart && bases.length === 0) {
      header = { double: text.charCodeAt(i + 1) === OPEN_SQUARE };
      if (header.double) i++;
      dots = 0;
    } else if (c === CLOSE_SQUARE && header) {
      sectionBase = dots + 1 + (header.double ? 1 : 0);
      if (sectionBase > maxDepth) return { offset: i, container: 'object' };
      if (header.double && text.charCodeAt(i + 1) === CLOSE_SQUARE) i++;
      header = undefined;
      dots = 0;
      inValue = false;
    } else if (c === OPEN_SQUARE || c === OPEN_CURLY) {
      // A value opened after `key =` sits below the key's segments; an array element one below its array.
      const depth = base() + (inArray[inArray.length - 1] ? 1 : Math.max(keySegments, 1));
      if (depth > maxDepth) return { offset: i, container: c === OPEN_SQUARE ? 'array' : 'object' };
      bases.push(depth);
      inArray.push(c === OPEN_SQUARE);
      keySegments = 0;
      dots = 0;
      inValue = false;
    } else if (c === CLOSE_SQUARE || c === CLOSE_CURLY) {
      bases.pop();
      inArray.pop();
      keySegments = 0;
      dots = 0;
      inValue = true;
    } else if (c === DOT) {
      if (inValue || (!header && inArray[inArray.length - 1])) continue;
      if (base() + ++dots + 1 > maxDepth) return { offset: i, container: 'object' };
    } else if (c === EQUALS) {
      keySegments = dots + 1;
      dots = 0;
      inValue = true;
    } else if (c === COMMA) {
      keySegments = 0;
      dots = 0;
      inValue = false;
    }
  }
  return undefined;
}

/** The index of the last character of the TOML string that starts at `i`. */
function afterTomlString(text: string, i: number, quote: number): number {
  const escapes = quote === QUOTE;
  if (text.charCodeAt(i + 1) === quote && text.charCodeAt(i + 2) === quote) {
    // Multi-line: ends at the first unescaped run of three quotes.
    for (i += 3; i < text.length; i++) {
      const s = text.charCodeAt(i);
      if (escapes && s === BACKSLASH) i++;
      else if (s === quote && text.charCodeAt(i + 1) === quote && text.charCodeAt(i + 2) === quote) return i + 2;
    }
    return i;
  }
  for (i++; i < text.length; i++) {
    const s = text.charCodeAt(i);
    if (escapes && s === BACKSLASH) i++;
    else if (s === quote) return i;
    else if (s === NEWLINE) return i - 1;
  }
  return i;
}

const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const BACKSLASH = 0x5c;
const HASH = 0x23;
const DOT = 0x2e;
const EQUALS = 0x3d;
const COMMA = 0x2c;
const NEWLINE = 0x0a;
const RETURN = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const OPEN_SQUARE = 0x5b;
const CLOSE_SQUARE = 0x5d;
const OPEN_CURLY = 0x7b;
const CLOSE_CURLY = 0x7d;
