import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { LineMap } from '../text/lineMap';
import { nestingExcess } from './nesting';
import { loneSurrogateEscape } from './serdeStrings';
import { outOfRangeNumber } from './serdeNumbers';
import { locatePlainJson, plainJsonPropertyCount } from './plainJson';
import type { DocPath, ParseOutcome, ParsedDocument } from './document';
import type { Range } from '../model';

export interface JsonOptions {
  /**
   * Python's json module (Rivumi) accepts `NaN`, `Infinity` and `-Infinity`; serde
   * (Codewhale) does not. Duplicate keys: Python keeps the last; serde refuses
   * duplicate struct fields, which `duplicateKeys: 'error'` reports.
   */
  readonly python?: boolean;
  /**
   * Arrays and objects open at once beyond which the text is refused unparsed (see
   * nesting.ts); each caller passes its agent's limit, the default is the strictest.
   */
  readonly maxDepth?: number;
}

/** serde_json's limit (128 levels fail), the lowest of the agents' parsers. */
const DEFAULT_MAX_DEPTH = 127;

/** Strict JSON with positions: no comments, no trailing commas. */
export function parseJsonDocument(file: string, text: string, options: JsonOptions = {}): ParseOutcome {
  const deep = nestingExcess(text, options.maxDepth ?? DEFAULT_MAX_DEPTH, 'json');
  if (deep) {
    const lines = new LineMap(text);
    const at = lines.position(deep.offset);
    // serde_json's words for the same refusal.
    return {
      ok: false,
      message: `recursion limit exceeded at line ${at.line + 1} column ${at.character + 1}`,
      range: lines.range(deep.offset, 1),
      nesting: deep,
    };
  }
  if (!options.python) {
    // Text the native parser reads is plain JSON, which jsonc-parser also reads without
    // an error and to the same value: ranges come from scanning it, only when asked.
    const native = nativeValue(text);
    if (native) return serdeRefusal(text) ?? { ok: true, document: new PlainJsonDocument(file, text, native.value) };
  }
  const errors: ParseError[] = [];
  const replaced = new Map<number, number>();
  const source = options.python ? maskPythonConstants(text, replaced) : text;
  const root = parseTree(source, errors, {
    disallowComments: true,
    allowTrailingComma: false,
    allowEmptyContent: false,
  });
  const first = errors[0];
  if (first || !root) {
    const offset = first?.offset ?? 0;
    const what = first ? describeJsonError(printParseErrorCode(first.error)) : 'empty document';
    const lines = new LineMap(text);
    const at = lines.position(offset);
    return {
      ok: false,
      message: `${what} at line ${at.line + 1} column ${at.character + 1}`,
      range: lines.range(offset, first?.length ?? 0),
    };
  }
  // The tree is kept for ranges; the value comes from the native parser when it
  // agrees that this is plain JSON (same values; a `__proto__` key is an own key
  // there too), and from the tree otherwise (Python's constants, whitespace that
  // only jsonc-parser accepts).
  const refused = options.python ? undefined : serdeRefusal(text);
  if (refused) return refused;
  const native = options.python && replaced.size === 0 ? nativeValue(text) : undefined;
  const value = native ? native.value : valueWithConstants(root, replaced);
  return { ok: true, document: new JsonDocument(file, text, value, root) };
}

/**
 * serde_json's refusal of a string it cannot hold (serdeStrings.ts) or a number it cannot
 * read (serdeNumbers.ts), in the words and place of the other parse errors: the first in
 * the text, where serde_json stops.
 */
function serdeRefusal(text: string): ParseOutcome | undefined {
  const lone = loneSurrogateEscape(text);
  const number = outOfRangeNumber(lone ? text.slice(0, lone.start) : text);
  const first = number ?? lone;
  if (!first) return undefined;
  const lines = new LineMap(text);
  const at = lines.position(first.at);
  return {
    ok: false,
    message: `${first.message} at line ${at.line + 1} column ${at.character + 1}`,
    range: lines.range(first.start, first.at + 1 - first.start),
  };
}

/**
 * A document the native parser read (nearly every manifest): no syntax tree, ranges by
 * scanning the text (plainJson.ts), a tree built only when its keys may repeat.
 */
class PlainJsonDocument implements ParsedDocument {
  constructor(
    readonly file: string,
    readonly text: string,
    readonly value: unknown,
  ) {}

  private lineMap: LineMap | undefined;
  private get lines(): LineMap {
    return (this.lineMap ??= new LineMap(this.text));
  }

  spanRange(start: number, end: number): Range {
    return this.lines.range(start, end - start);
  }

  /**
   * Each scan reads from the start: a document asked for many ranges (every key of a
   * wide object) builds the tree once after SCANS_BEFORE_TREE, whose lookups are indexed.
   */
  private scans = 0;
  private treeDocument: JsonDocument | undefined;
  private get tree(): JsonDocument | undefined {
    if (this.treeDocument || ++this.scans <= SCANS_BEFORE_TREE) return this.treeDocument;
    const root = parseTree(this.text, [], { disallowComments: true, allowTrailingComma: false });
    if (root) this.treeDocument = new JsonDocument(this.file, this.text, this.value, root);
    return this.treeDocument;
  }

  valueRange(path: DocPath): Range {
    if (this.tree) return this.tree.valueRange(path);
    const spot = locatePlainJson(this.text, path);
    return this.lines.range(spot.start, spot.end - spot.start);
  }

  valueSpan(path: DocPath): readonly [number, number] {
    if (this.tree) return this.tree.valueSpan(path);
    const spot = locatePlainJson(this.text, path);
    return [spot.start, spot.end];
  }

  keyRange(path: DocPath): Range {
    if (this.tree) return this.tree.keyRange(path);
    const spot = locatePlainJson(this.text, path);
    const [start, end] = spot.key ?? [spot.start, spot.end];
    return this.lines.range(start, end - start);
  }

  literalAt(path: DocPath): string | undefined {
    if (this.tree) return this.tree.literalAt(path);
    const spot = locatePlainJson(this.text, path);
    return spot.depth === path.length ? this.text.slice(spot.start, spot.end) : undefined;
  }

  /** As many properties in the text as own keys in the value: no key repeats, no tree needed. */
  duplicateKeys(): DocPath[] {
    if (plainJsonPropertyCount(this.text) === ownKeyCount(this.value)) return [];
    const root = parseTree(this.text, [], { disallowComments: true, allowTrailingComma: false });
    return root ? new JsonDocument(this.file, this.text, this.value, root).duplicateKeys() : [];
  }
}

const SCANS_BEFORE_TREE = 16;

function ownKeyCount(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let n = 0;
  if (Array.isArray(value)) for (const v of value) n += ownKeyCount(v);
  else
    for (const k of Object.keys(value)) {
      n += 1 + ownKeyCount((value as Record<string, unknown>)[k]);
    }
  return n;
}

class JsonDocument implements ParsedDocument {
  constructor(
    readonly file: string,
    readonly text: string,
    readonly value: unknown,
    private readonly root: Node,
  ) {}

  /** Built on the first range asked for: most documents never need one. */
  private lineMap: LineMap | undefined;
  private get lines(): LineMap {
    return (this.lineMap ??= new LineMap(this.text));
  }

  spanRange(start: number, end: number): Range {
    return this.lines.range(start, end - start);
  }

  /**
   * Each object's properties by key, built the first time a path goes through it.
   * jsonc-parser's `findNodeAtLocation` scans an object's properties one by one, so a
   * range for each of n keys of one object cost n² (15,000 MCP servers: seconds). The
   * last of duplicate keys wins, as in the value (`JSON.parse`, Python's json and serde's
   * maps keep the last): a finding about the value lands on the text that holds it.
   */
  private readonly propertiesOf = new WeakMap<Node, Map<string, Node>>();

  private nodeAt(path: DocPath): Node | undefined {
    let node: Node | undefined = this.root;
    for (const segment of path) {
      if (!node) return undefined;
      if (node.type === 'array' && typeof segment === 'number') node = node.children?.[segment];
      else if (node.type === 'object' && typeof segment === 'string') node = this.properties(node).get(segment);
      else return undefined;
    }
    return node;
  }

  private properties(object: Node): Map<string, Node> {
    let map = this.propertiesOf.get(object);
    if (!map) {
      map = new Map();
      for (const prop of object.children ?? []) {
        const [k, v] = prop.children ?? [];
        if (k && v && prop.children?.length === 2) map.set(k.value as string, v);
      }
      this.propertiesOf.set(object, map);
    }
    return map;
  }

  private nearest(path: DocPath): Node {
    for (let n = path.length; n >= 0; n--) {
      const node = this.nodeAt(path.slice(0, n));
      if (node) return node;
    }
    return this.root;
  }

  valueRange(path: DocPath): Range {
    const node = this.nearest(path);
    return this.lines.range(node.offset, node.length);
  }

  valueSpan(path: DocPath): readonly [number, number] {
    const node = this.nearest(path);
    return [node.offset, node.offset + node.length];
  }

  keyRange(path: DocPath): Range {
    const node = this.nearest(path);
    const key = node.parent?.type === 'property' ? node.parent.children?.[0] : undefined;
    const target = key ?? node;
    return this.lines.range(target.offset, target.length);
  }

  literalAt(path: DocPath): string | undefined {
    const node = this.nodeAt(path);
    return node ? this.text.slice(node.offset, node.offset + node.length) : undefined;
  }

  /** Object keys that occur more than once, with the path of the later occurrence. */
  duplicateKeys(): DocPath[] {
    const found: DocPath[] = [];
    const visit = (node: Node, path: (string | number)[]): void => {
      if (node.type === 'object') {
        const seen = new Set<string>();
        for (const prop of node.children ?? []) {
          const key = prop.children?.[0]?.value as string;
          if (seen.has(key)) found.push([...path, key]);
          seen.add(key);
          const v = prop.children?.[1];
          if (v) visit(v, [...path, key]);
        }
      } else if (node.type === 'array') {
        (node.children ?? []).forEach((c, i) => visit(c, [...path, i]));
      }
    };
    visit(this.root, []);
    return found;
  }
}

export function jsonDuplicateKeys(doc: ParsedDocument): DocPath[] {
  return isJsonDocument(doc) ? doc.duplicateKeys() : [];
}

/** Whether `doc` was parsed from JSON text, the text a JSON edit may be made on. */
export function isJsonDocument(doc: ParsedDocument): doc is JsonDocument | PlainJsonDocument {
  return doc instanceof JsonDocument || doc instanceof PlainJsonDocument;
}

function describeJsonError(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

// Python's extra literals are swapped for number literals of the same length outside
// strings, so every offset stays exact; the parsed numbers at those offsets are then
// given their Python values.
const PY_CONSTANTS: readonly [string, string, number][] = [
  ['-Infinity', '-0.000000', Number.NEGATIVE_INFINITY],
  ['Infinity', '0.000000', Number.POSITIVE_INFINITY],
  ['NaN', '0.0', Number.NaN],
];

const GLUED = /^[0-9A-Za-z_.+-]$/;

function maskPythonConstants(text: string, replaced: Map<number, number>): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (inString) {
      out += c;
      if (c === '\\') {
        out += text[i + 1] ?? '';
        i++;
      } else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
      continue;
    }
    const hit = PY_CONSTANTS.find(([word]) => text.startsWith(word, i));
    // Python reads each constant as a whole token: glued to a digit, a point, a sign or a
    // letter (`1NaN`, `-NaN`, `NaN1`) it is an error, which the number mask must not hide.
    if (hit && !GLUED.test(text[i - 1] ?? '') && !GLUED.test(text[i + hit[0].length] ?? '')) {
      replaced.set(i, hit[2]);
      out += hit[1];
      i += hit[0].length - 1;
      continue;
    }
    out += c;
  }
  return out;
}

function nativeValue(text: string): { readonly value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

function valueWithConstants(node: Node, replaced: ReadonlyMap<number, number>): unknown {
  switch (node.type) {
    case 'object': {
      const obj: Record<string, unknown> = {};
      for (const prop of node.children ?? []) {
        const [k, v] = prop.children ?? [];
        // defineProperty, not assignment: a `__proto__` key stays an ordinary key.
        if (k && v)
          Object.defineProperty(obj, k.value as string, {
            value: valueWithConstants(v, replaced),
            enumerable: true,
            writable: true,
            configurable: true,
          });
      }
      return obj;
    }
    case 'array':
      return (node.children ?? []).map((c) => valueWithConstants(c, replaced));
    case 'number':
      return replaced.has(node.offset) ? replaced.get(node.offset) : node.value;
    default:
      return node.value;
  }
}
