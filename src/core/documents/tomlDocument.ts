import { parseTOML, getStaticTOMLValue, traverseNodes, type AST } from 'toml-eslint-parser';
import { LineMap } from '../text/lineMap';
import { nestingExcess } from './nesting';
import type { DocPath, ParseOutcome, ParsedDocument } from './document';
import type { Range } from '../model';

interface Spot {
  readonly key: readonly [number, number];
  readonly value: readonly [number, number];
  /**
   * How the key is written when one entry alone writes it, on lines of its own: a key/value
   * pair of a table's body (or of the top), or a table's own header with its body (`value`).
   * Undefined for a key written otherwise: inside an inline table or an array, by the dotted
   * keys of pairs, by the header of a table beneath it, or a table with a table of its own
   * written elsewhere (`[a.b]` beside `[a]`).
   */
  readonly entry: 'pair' | 'table' | undefined;
}

/**
 * TOML with positions, from toml-eslint-parser's AST (TOML 1.0, duplicate keys refused).
 * A value tree deeper than `maxDepth` (nesting.ts) is refused before parsing. A leading
 * byte-order mark is skipped, as the toml crate skips it (codewhale.md §4.2); the text and
 * its offsets keep it, so the line map can leave it out of positions as the editor does.
 */
export function parseTomlDocument(file: string, text: string, maxDepth: number): ParseOutcome {
  const lines = new LineMap(text);
  const deep = nestingExcess(text, maxDepth, 'toml');
  // toml_edit's words for the same refusal.
  if (deep)
    return { ok: false, message: 'recursion limit exceeded', range: lines.range(deep.offset, 1), nesting: deep };
  // TOML 1.0 knows no lone carriage return: a line ends in LF or CRLF, and a CR is a control
  // character that no string or comment may hold. toml-eslint-parser reads every CR as a line
  // break, so `# note\rargs = ["--x"]` would gain a key the toml crate refuses the file for.
  const cr = LONE_CR.exec(text);
  if (cr)
    return { ok: false, message: 'a carriage return must be followed by a line feed', range: lines.range(cr.index, 0) };
  let ast: AST.TOMLProgram;
  try {
    // A space in its place: the parser refuses U+FEFF, and every offset stays the text's.
    ast = parseTOML(text.startsWith('\uFEFF') ? ` ${text.slice(1)}` : text, { tomlVersion: '1.0.0' });
  } catch (e) {
    const err = e as { index?: number; message?: string };
    let index = typeof err.index === 'number' ? err.index : 0;
    // The parser points at the start of the next line when a line ends too early; the line at fault is the one before.
    if (index > 0 && text[index - 1] === '\n') index--;
    if (index > 0 && text[index] === '\n' && text[index - 1] === '\r') index--;
    // At a line break (or the end) the range is empty: one character there would reach past the line's end.
    const atBreak = index >= text.length || text[index] === '\n' || text[index] === '\r';
    return { ok: false, message: err.message ?? 'invalid TOML', range: lines.range(index, atBreak ? 0 : 1) };
  }
  const spots = new Map<string, Spot>();
  const withTables = new Set<string>();
  const top = ast.body[0];
  for (const node of top.body) {
    if (node.type === 'TOMLTable') {
      // A header also defines the tables above it, and `[[a]]` the array `a`: each is placed at
      // its first header, so a diagnostic on the array (`mcp_servers must be a table`) has a place.
      for (let i = 1; i < node.resolvedKey.length; i++) {
        const parent = keyOf(node.resolvedKey.slice(0, i));
        withTables.add(parent);
        if (!spots.has(parent)) spots.set(parent, { key: node.key.range, value: node.range, entry: undefined });
      }
      const entry = node.kind === 'standard' ? 'table' : undefined;
      spots.set(keyOf(node.resolvedKey), { key: node.key.range, value: node.range, entry });
      for (const kv of node.body) collectKeyValue(kv, node.resolvedKey, spots, 'pair');
    } else collectKeyValue(node, [], spots, 'pair');
  }
  for (const at of withTables) {
    const spot = spots.get(at);
    if (spot?.entry) spots.set(at, { key: spot.key, value: spot.value, entry: undefined });
  }
  // toml-eslint-parser builds tables by assignment: a `__proto__` key reaches
  // Object.prototype (`[a.__proto__]` then writes into every object of the process) or
  // vanishes from its table (a server Codewhale runs would not be shown). Refused before
  // any value is built; the file cannot be read faithfully, so it fails closed.
  for (const [at, spot] of spots) {
    if ((JSON.parse(at) as (string | number)[]).includes('__proto__'))
      return {
        ok: false,
        message: 'the key `__proto__` cannot be read faithfully; Skillgate refuses this file',
        range: lines.range(spot.key[0], spot.key[1] - spot.key[0]),
      };
  }
  const big = outOfRangeInteger(ast);
  if (big)
    return {
      ok: false,
      message: 'integer out of the 64-bit signed range',
      range: lines.range(big[0], big[1] - big[0]),
    };
  let value: unknown;
  try {
    value = getStaticTOMLValue(ast);
  } catch (e) {
    return { ok: false, message: (e as Error).message, range: lines.range(0, 0) };
  }
  return { ok: true, document: new TomlDocument(file, text, value, spots, lines) };
}

const LONE_CR = /\r(?!\n)/;
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

/**
 * The first integer outside i64, which TOML 1.0 requires a parser to refuse (the toml crate
 * does); toml-eslint-parser reads it, rounded to the nearest double.
 */
function outOfRangeInteger(ast: AST.TOMLProgram): AST.Range | undefined {
  let found: AST.Range | undefined;
  traverseNodes(ast, {
    enterNode(node) {
      if (
        !found &&
        node.type === 'TOMLValue' &&
        node.kind === 'integer' &&
        (node.bigint < I64_MIN || node.bigint > I64_MAX)
      )
        found = node.range;
    },
    leaveNode() {},
  });
  return found;
}

/** `entry`: 'pair' for a pair of a table's body or of the top, which has its own lines. */
function collectKeyValue(
  kv: AST.TOMLKeyValue,
  prefix: readonly (string | number)[],
  spots: Map<string, Spot>,
  entry: 'pair' | undefined,
): void {
  const path = [...prefix, ...kv.key.keys.map((k) => (k.type === 'TOMLBare' ? k.name : k.value))];
  // Dotted keys (`a.b = 1`) also define their parent tables.
  for (let i = prefix.length + 1; i < path.length; i++) {
    const parent = keyOf(path.slice(0, i));
    if (!spots.has(parent)) spots.set(parent, { key: kv.key.range, value: kv.range, entry: undefined });
  }
  spots.set(keyOf(path), { key: kv.key.range, value: kv.value.range, entry });
  collectContent(kv.value, path, spots);
}

function collectContent(node: AST.TOMLContentNode, path: readonly (string | number)[], spots: Map<string, Spot>): void {
  if (node.type === 'TOMLArray') {
    node.elements.forEach((el, i) => {
      spots.set(keyOf([...path, i]), { key: el.range, value: el.range, entry: undefined });
      collectContent(el, [...path, i], spots);
    });
  } else if (node.type === 'TOMLInlineTable') {
    for (const kv of node.body) collectKeyValue(kv, path, spots, undefined);
  }
}

function keyOf(path: readonly (string | number)[]): string {
  return JSON.stringify(path);
}

class TomlDocument implements ParsedDocument {
  constructor(
    readonly file: string,
    readonly text: string,
    readonly value: unknown,
    private readonly spots: ReadonlyMap<string, Spot>,
    private readonly lines: LineMap,
  ) {}

  private nearest(path: DocPath): Spot | undefined {
    for (let n = path.length; n > 0; n--) {
      const spot = this.spots.get(keyOf(path.slice(0, n)));
      if (spot) return spot;
    }
    return undefined;
  }

  valueRange(path: DocPath): Range {
    const spot = this.nearest(path);
    return spot ? this.lines.range(spot.value[0], spot.value[1] - spot.value[0]) : this.lines.range(0, 0);
  }

  valueSpan(path: DocPath): readonly [number, number] {
    const spot = this.nearest(path);
    return spot ? spot.value : [0, 0];
  }

  spanRange(start: number, end: number): Range {
    return this.lines.range(start, end - start);
  }

  keyRange(path: DocPath): Range {
    const spot = this.nearest(path);
    return spot ? this.lines.range(spot.key[0], spot.key[1] - spot.key[0]) : this.lines.range(0, 0);
  }

  literalAt(path: DocPath): string | undefined {
    const spot = this.spots.get(keyOf(path));
    return spot ? this.text.slice(spot.value[0], spot.value[1]) : undefined;
  }

  entrySpan(path: DocPath): readonly [number, number] | undefined {
    const spot = this.spots.get(keyOf(path));
    if (spot?.entry === 'pair') return [spot.key[0], spot.value[1]];
    return spot?.entry === 'table' ? spot.value : undefined;
  }
}

/**
 * UTF-16 offsets [start, end) of the one entry that writes the key at `path` and all it holds:
 * its key/value pair, or its table's header with the table's body. Undefined when no single
 * entry on lines of its own writes it (see Spot `entry`), or when `doc` is not TOML.
 */
export function tomlEntrySpan(doc: ParsedDocument, path: DocPath): readonly [number, number] | undefined {
  return doc instanceof TomlDocument ? doc.entrySpan(path) : undefined;
}
