import { UNSAFE_BUT_NEWLINE } from '../text/displayText';

/**
 * `--json` and SARIF output: the values stay exactly what the repository holds (a parser
 * reads back the same strings), but the bytes on a terminal are safe. JSON.stringify
 * already escapes C0 controls and lone surrogates; a C1 control (U+009B is a one-byte
 * CSI to some terminals), a bidi or invisible character or U+2028 would pass raw, so
 * each is written as its `\uXXXX` escape, which JSON reads as the same character.
 */
export function jsonText(value: unknown): string {
  return safeJson(JSON.stringify(value, rawBytesAsHex, 2)) + '\n';
}

/**
 * Exactly `jsonText(value)`, handed to `write` in pieces of about a mebibyte: a large
 * report (`list --json` is 40 MB at 10,000 bundles) never exists as one string, nor as
 * the one buffer a single write would copy it into. A text shorter than a piece is
 * written once, whole.
 *
 * The value and the members of its top-level object or array are laid out here, as
 * JSON.stringify lays them out; an array (or a `JsonList`) one level down is written a
 * run of elements at a time, each run by one JSON.stringify with the same replacer,
 * placed at its depth inside empty arrays that are cut off again (one call per element
 * cost more than the elements' text); every other member and element is one
 * JSON.stringify, its lines moved to their depth. The text is the same because
 * JSON.stringify's only raw newlines are its indentation (a newline inside a string is
 * escaped), and no unsafe character is escaped across two pieces (each lies inside one
 * string literal). One difference no value here has: a member or element below the top
 * level that defines `toJSON` is asked with the key `""` or its place in its run, not
 * its own key.
 */
export function writeJsonText(value: unknown, write: (text: string) => void): void {
  const out = new Pieces(write);
  const prepared = preparedValue({ '': value }, '', value);
  if (isPlainObject(prepared)) members(prepared as Record<string, unknown>, out);
  else if (Array.isArray(prepared)) elements(prepared.length, (i) => (prepared as unknown[])[i], 0, out);
  else {
    // toJSON and the replacer are applied already: what is left is a primitive (or nothing).
    const text = JSON.stringify(prepared);
    if (text === undefined) throw new TypeError('the value has no JSON text');
    out.add(safeJson(text));
  }
  out.add('\n');
  out.flush();
}

/**
 * A JSON array whose elements are made as they are written: `writeJsonText` maps each
 * source element when it reaches it and drops it after, so the mapped copies of a
 * large list never all exist at once. Anything else (JSON.stringify, `jsonText`)
 * sees the mapped array through `toJSON`, so the text is the same either way.
 */
export class JsonList<S, T> {
  constructor(
    readonly source: readonly S[],
    readonly map: (s: S) => T,
  ) {}

  toJSON(): T[] {
    return this.source.map((s) => this.map(s));
  }
}

/**
 * Pieces of text collected up to a mebibyte, then written as one. A text that would
 * take a piece past a mebibyte is cut there (never between the two halves of a
 * surrogate pair, which each write would spell as a replacement character).
 */
class Pieces {
  private pending: string[] = [];
  private size = 0;

  constructor(private readonly write: (text: string) => void) {}

  add(text: string): void {
    let rest = text;
    while (this.size + rest.length >= PIECE_CHARS) {
      const cut = pairSafeCut(rest, PIECE_CHARS - this.size);
      this.pending.push(rest.slice(0, cut));
      this.flush();
      rest = rest.slice(cut);
    }
    if (rest.length === 0) return;
    this.pending.push(rest);
    this.size += rest.length;
  }

  flush(): void {
    if (this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    this.size = 0;
    this.write(text);
  }
}

const PIECE_CHARS = 1 << 20;
const GAP = '  ';
/** Elements of an array one level down given to JSON.stringify at once: fewer calls, and few mapped copies alive. */
const RUN = 64;

/** `at`, or one further when `at` falls between the halves of a surrogate pair. */
function pairSafeCut(text: string, at: number): number {
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff ? at + 1 : at;
}

/**
 * Writes a member or element (`value`, at `depth` ≥ 1) as JSON.stringify would, or
 * returns false, writing nothing, when JSON.stringify would leave it out. An array one
 * level down is laid out here, element by element; anything else is one piece from
 * JSON.stringify, which applies `toJSON` and the replacer itself.
 */
function laidOut(value: unknown, depth: number, out: Pieces): boolean {
  if (depth === 1 && value instanceof JsonList) {
    const list = value as JsonList<unknown, unknown>;
    elements(list.source.length, (i) => list.map(list.source[i]), depth, out);
    return true;
  }
  if (depth === 1 && Array.isArray(value) && !hasToJson(value)) {
    elements(value.length, (i) => (value as unknown[])[i], depth, out);
    return true;
  }
  const text = JSON.stringify(value, rawBytesAsHex, 2);
  if (text === undefined) return false;
  out.add(safeJson(text.includes('\n') ? text.replaceAll('\n', '\n' + GAP.repeat(depth)) : text));
  return true;
}

/** The top-level object's members, one per line, as JSON.stringify spells them. */
function members(object: Record<string, unknown>, out: Pieces): void {
  let written = 0;
  for (const key of Object.keys(object)) {
    // A member JSON.stringify leaves out (undefined, a function) must not leave its key behind.
    const value = object[key];
    if (!hasJsonText(object, key, value)) continue;
    out.add(`${written === 0 ? '{\n' : ',\n'}${GAP}${safeJson(JSON.stringify(key))}: `);
    laidOut(value, 1, out);
    written++;
  }
  out.add(written === 0 ? '{}' : '\n}');
}

/**
 * An array's elements, one per line at `depth + 1`; an element with no JSON text is
 * `null`. The top level's elements are laid out one by one (an array among them is
 * written element by element); deeper ones a run at a time.
 */
function elements(length: number, at: (i: number) => unknown, depth: number, out: Pieces): void {
  if (length === 0) {
    out.add('[]');
    return;
  }
  const indent = GAP.repeat(depth + 1);
  const step = depth === 0 ? 1 : RUN;
  for (let i = 0; i < length; i += step) {
    out.add(`${i === 0 ? '[\n' : ',\n'}${indent}`);
    if (depth > 0) {
      const run = Array.from({ length: Math.min(step, length - i) }, (_, j) => at(i + j));
      out.add(safeJson(runText(run, depth)));
    } else if (!laidOut(at(i), depth + 1, out)) out.add('null');
  }
  out.add(`\n${GAP.repeat(depth)}]`);
}

/**
 * The elements of `run` as JSON.stringify writes them inside an array at `depth`: from
 * the first element's first character to the last one's last, each line indented for
 * `depth + 1`. The run is stringified inside `depth` arrays of one element, and the text
 * of those arrays and the run's own brackets is cut off.
 */
function runText(run: unknown[], depth: number): string {
  let nested: unknown = run;
  for (let d = 0; d < depth; d++) nested = [nested];
  const text = JSON.stringify(nested, rawBytesAsHex, 2);
  const { before, after } = runShell(depth);
  return text.slice(before, text.length - after);
}

/** How many characters come before a run's first element and after its last, at `depth`. */
function runShell(depth: number): { before: number; after: number } {
  let shell = runShells[depth];
  if (!shell) {
    let nested: unknown = [0];
    for (let d = 0; d < depth; d++) nested = [nested];
    const text = JSON.stringify(nested, null, 2);
    const at = text.indexOf('0');
    shell = { before: at, after: text.length - at - 1 };
    runShells[depth] = shell;
  }
  return shell;
}

const runShells: { before: number; after: number }[] = [];

/** Whether JSON.stringify writes `holder[key]` at all (a member whose value has no JSON text is skipped). */
function hasJsonText(holder: object, key: string, value: unknown): boolean {
  if (value instanceof JsonList) return true;
  const prepared = preparedValue(holder, key, value);
  return prepared !== undefined && typeof prepared !== 'function' && typeof prepared !== 'symbol';
}

/** What JSON.stringify serializes for `holder[key]`: after `toJSON` and the replacer. */
function preparedValue(holder: object, key: string, value: unknown): unknown {
  let v = value;
  if ((typeof v === 'object' && v !== null) || typeof v === 'bigint') {
    const toJSON = (v as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') v = (toJSON as (key: string) => unknown).call(v, key);
  }
  return rawBytesAsHex.call(holder, key, v);
}

/** An array JSON.stringify would hand to its own `toJSON` first (none of ours has one). */
function hasToJson(array: unknown[]): boolean {
  return typeof (array as { toJSON?: unknown }).toJSON === 'function';
}

/** An object JSON.stringify writes as `{…}`: not an array, a function or a boxed primitive. */
function isPlainObject(v: unknown): boolean {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    !(v instanceof Number || v instanceof String || v instanceof Boolean || v instanceof BigInt)
  );
}

/**
 * Such characters occur only inside string literals; the only raw newline is indentation.
 * Every text here is JSON.stringify's, which escapes each C0 control itself, so a text
 * of ASCII characters only (its UTF-8 length is its length) without DEL holds nothing to
 * escape. Most reports are such a text throughout, and that check costs about a
 * twentieth of the expression's scan (8 MB at 2,000 bundles: 1 against 20 ms).
 */
function safeJson(text: string): string {
  if (Buffer.byteLength(text, 'utf8') === text.length && !text.includes('\x7f')) return text;
  return text.replace(UNSAFE_BUT_NEWLINE, (ch) =>
    Array.from({ length: ch.length }, (_, i) => `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
  );
}

/** A raw name's bytes (`rawPath`, a Buffer) as hex: JSON would otherwise spell a Buffer as a list of numbers. */
function rawBytesAsHex(this: unknown, key: string, value: unknown): unknown {
  const original = (this as Record<string, unknown>)[key];
  return Buffer.isBuffer(original) ? original.toString('hex') : value;
}
