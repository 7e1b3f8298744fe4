import { Alias, CST, Scalar, isAlias, isMap, isNode, isScalar, isSeq, type Document } from 'yaml';
import { YamlAnchors } from './yamlAnchors';
import { dropUnreadFinalBreak } from './yamlBlockEnd';
import { readFlowScalarsAsLibyaml } from './yamlFlowScalars';
import { parseLibyamlDocument } from './yamlLibyamlParse';
import { firstRefusedTab } from './yamlTabs';
import { nonSpecificVerbatimTags } from './yamlVerbatimTag';
import { firstSurrogateEscape } from './yamlEscapes';
import { firstRefusedProperty } from './yamlProperties';
import { readDirectives } from './yamlDirectives';
import { readKeyIndicators } from './yamlKeyIndicators';
import { rootBlockScalarReading } from './yamlRootBlockScalar';
import { FirstRefusal, YamlRefusal, type LibyamlRefusal } from './yamlRefusal';
import { libyamlRefusal } from './yamlLibyamlWords';
import type { SerdePath } from './yamlDuplicateKey';
import { firstRefusedCharacter, libyamlLineBreaks, libyamlLineStartBoms, readerChunkStart } from './yamlReader';
import { READER_REFUSAL, yamlErrorPlace } from './yamlErrorPlace';
import { Converter, keyText, scalarText, serdeChild } from './yamlConverter';
import { flowDepthExcess } from './yamlLimits';
import { lineStartBomReading } from './yamlLineStartBom';
import { LineMap } from '../../text/lineMap';
import type { DocPath, ParsedDocument } from '../../documents/document';
import type { Range } from '../../model';

/**
 * YAML read as Eva-CLI reads it with serde_yaml 0.9 (eva.md §2.1): one document,
 * scalars typed by serde_yaml's own rules (yamlScalars.ts; the yaml library's core-schema
 * values are not used), duplicate keys an error, `<<` an ordinary key, local tags (`!foo`) kept
 * as inert tagged values, other tags read through, aliases expanded within a bound. Nothing is
 * resolved to code or objects: the value is plain data (prototype-free mappings).
 *
 * This file holds the parse and the document it gives, whose ranges place each field; the value
 * is built by yamlConverter.ts (its shapes: yamlValue.ts), within the bounds of yamlLimits.ts.
 */

export type YamlOutcome =
  | { readonly ok: true; readonly document: YamlDocument }
  | {
      readonly ok: false;
      readonly message: string;
      readonly range: Range;
      readonly line: number;
      readonly column: number;
    };

/** Parses decoded text (a leading BOM is dropped, as libyaml does). */
export function parseEvaYaml(file: string, decoded: string): YamlOutcome {
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  // The text as the editor holds it: a U+FEFF still leading it (a file starting with two) is a
  // character VS Code shows and libyaml skips as one column, so positions count it.
  const lines = new LineMap(text, true);
  // `mark`: where serde_yaml's words place an error that is not where the user fixes it (`offset`,
  // which the range, line and column keep, as the editor counts); the words count as libyaml does.
  const bomBytes = text === decoded ? 0 : 3;
  const fail = (detail: string, offset: number, length = 0, mark?: number): YamlOutcome => {
    const at = lines.position(offset);
    return {
      ok: false,
      message: `failed to parse YAML: ${detail}${yamlErrorPlace(detail, text, mark ?? offset, bomBytes)}`,
      range: lines.range(offset, length),
      line: at.line + 1,
      column: at.character + 1,
    };
  };
  // libyaml's reader refuses a character as soon as it decodes the chunk holding it: in the
  // first chunk, before any token; in a later one, after the syntax errors of those before.
  // Chunks count the file's bytes, a leading BOM's included.
  const chunkOf = (offset: number) => readerChunkStart(decoded, offset + decoded.length - text.length);
  const refused = firstRefusedCharacter(text);
  const refusedChunk = refused === undefined ? undefined : chunkOf(refused);
  const readerError = (): YamlOutcome => fail(READER_REFUSAL, refused ?? 0, 1);
  if (refusedChunk === 0) return readerError();
  const depth = flowDepthExcess(text);
  if (depth !== undefined) return fail('recursion limit exceeded', depth, 1);
  let doc: Document.Parsed;
  // Copies of the same length as the text: every range the parser gives is an offset into the file.
  const directives = readDirectives(libyamlLineBreaks(text));
  const parsed = directives.text;
  const spaced = libyamlLineStartBoms(parsed);
  // Of the parse kept: a key libyaml does not find or reads otherwise, an anchor name or a tag's end it refuses.
  let keyRefusal: LibyamlRefusal | undefined;
  // The concrete tree of the parse kept, to restate its first error in libyaml's words.
  let tree: { cst: CST.Document; copy: string } | undefined;
  const inspect = (cst: CST.Document, copy: string) => {
    tree = { cst, copy };
    const found = new FirstRefusal();
    for (const refusal of [readKeyIndicators(cst, copy), firstRefusedProperty(cst, copy)])
      if (refusal) found.refuse(refusal.offset, refusal.message, refusal.at);
    keyRefusal = found.first;
  };
  let bomReading: ReturnType<typeof lineStartBomReading>;
  try {
    let copy = spaced;
    doc = parseLibyamlDocument(copy, PARSE_OPTIONS, inspect);
    // A BOM libyaml reads as text (in a scalar): the copy with it left in place.
    bomReading = spaced !== parsed ? lineStartBomReading(doc, parsed) : undefined;
    if (bomReading === 'text') doc = parseLibyamlDocument((copy = parsed), PARSE_OPTIONS, inspect);
    const retagged = nonSpecificVerbatimTags(doc, copy);
    if (retagged !== undefined) doc = parseLibyamlDocument(retagged, PARSE_OPTIONS, inspect);
  } catch (e) {
    // A stack overflow in the composer on pathological nesting: refused, never a crash.
    if (e instanceof RangeError) return fail('recursion limit exceeded', 0);
    throw e;
  }
  const directive = directives.refusal;
  // Directives with no `---` after them: refused by the directive's reading, at libyaml's place.
  const first = directive
    ? doc.errors.find((e) => e.message !== 'Missing directives-end/doc-start indicator line')
    : doc.errors[0];
  // libyaml scans in text order: whichever of these comes first is the error it reports.
  const escape = firstSurrogateEscape(doc, text);
  const tab = firstRefusedTab(doc, parsed);
  const before = (offset: number) => refusedChunk === undefined || chunkOf(offset) < refusedChunk;
  // The library's first error as libyaml states it, where libyaml's words for it are known.
  const restated = first && libyamlRefusal(first, tree?.cst, tree?.copy ?? text);
  const firstAt = first && Math.max(first.pos[0], restated?.offset ?? 0);
  const precedes = (offset: number) => (firstAt === undefined || offset <= firstAt) && before(offset);
  // Each ordered by where libyaml meets it (`at`), reported where libyaml reports it.
  const bomRefusal = typeof bomReading === 'object' ? bomReading : undefined;
  const rootBlock = rootBlockScalarReading(doc, parsed);
  const rootRefusal = rootBlock && 'refusedAt' in rootBlock ? rootBlock.refusedAt : undefined;
  const scanned = [
    directive && { at: directive.line, offset: directive.offset, length: 1, message: directive.message },
    escape && { at: escape.offset, ...escape, message: 'found invalid Unicode character escape code' },
    tab && { at: tab.offset, offset: tab.offset, length: 1, message: tab.message },
    keyRefusal && {
      at: keyRefusal.at ?? keyRefusal.offset,
      offset: keyRefusal.offset,
      length: 1,
      message: keyRefusal.message,
    },
    bomRefusal && { at: bomRefusal.start, offset: bomRefusal.offset, length: 1, message: bomRefusal.message },
    rootRefusal === undefined
      ? undefined
      : { at: rootRefusal, offset: rootRefusal, length: 1, message: 'did not find expected <document start>' },
  ].reduce((a, b) => (b && (!a || b.at < a.at) ? b : a), undefined);
  // A required simple key libyaml checks before it reads on from a token's start: at one place,
  // its refusal comes before what its parser refuses there (`{a` then a line `b: c` as a key),
  // though not before a fault its scanner finds inside a token begun earlier (`{a` then `:,}`).
  const staleKeyFirst =
    restated?.message === STALE_REQUIRED_KEY && restated.offset === scanned?.at && PARSER_REFUSAL.test(scanned.message);
  if (scanned && precedes(scanned.at) && !staleKeyFirst) return fail(scanned.message, scanned.offset, scanned.length);
  if (restated) return before(restated.offset) ? fail(restated.message, restated.offset, 1) : readerError();
  if (first && before(first.pos[0])) {
    const detail = describe(first.code, first.message);
    // The parser's own stack ran out (caught by the library, or thrown as above, as deep as the
    // stack happens to be): where it ran out is no place libyaml names, so none is named.
    if (detail === 'recursion limit exceeded') return fail(detail, 0);
    return fail(detail, first.pos[0], first.pos[1] - first.pos[0]);
  }
  if (refusedChunk !== undefined) return readerError();
  dropUnreadFinalBreak(doc, text);
  readFlowScalarsAsLibyaml(doc, text);
  if (rootBlock && 'value' in rootBlock && isScalar(doc.contents))
    doc.contents.value = doc.contents.source = rootBlock.value;
  const anchors = new YamlAnchors();
  const converter = new Converter(doc, anchors, text);
  try {
    const value = converter.toValue(doc.contents, 0, null);
    return { ok: true, document: new YamlDocument(file, text, value, doc, lines, anchors) };
  } catch (e) {
    if (e instanceof YamlRefusal) return fail(e.message, e.offset, e.length, e.mark);
    // A key is named by its text, written out recursively: a deeply nested key may exhaust the stack.
    if (e instanceof RangeError) return fail('recursion limit exceeded', 0);
    throw e;
  }
}

/** libyaml's words where a simple key it requires (a block mapping's key) is no longer possible. */
const STALE_REQUIRED_KEY = "could not find expected ':'";
/** libyaml's parser's words where a token stands that it did not expect. */
const PARSER_REFUSAL = /^did not find expected (?:key|node content|'-' indicator|',' or)/;

const PARSE_OPTIONS = {
  version: '1.2',
  schema: 'core',
  merge: false,
  // Duplicate keys are refused while the value is built (Converter): serde_yaml too finds them
  // only once the document has parsed, so a syntax error anywhere comes first.
  uniqueKeys: false,
  prettyErrors: false,
  strict: true,
  stringKeys: false,
} as const;

function describe(code: string, message: string): string {
  if (code === 'DUPLICATE_KEY') return 'duplicate entry with key';
  if (code === 'MULTIPLE_DOCS') return 'deserializing from YAML containing more than one document is not supported';
  // The parser met nesting deep enough to exhaust its stack: serde_yaml's words for it.
  if (/call stack/i.test(message)) return 'recursion limit exceeded';
  return message;
}

/** A parsed Eva YAML file: its plain value and the source range of each field. */
export class YamlDocument implements ParsedDocument {
  /** `text` is without the encoding's mark, which parseEvaYaml dropped (RangedText, fixBasis.ts). */
  readonly markDropped = true;

  constructor(
    readonly file: string,
    readonly text: string,
    readonly value: unknown,
    private readonly doc: Document.Parsed,
    private readonly lines: LineMap,
    private readonly anchors: YamlAnchors,
  ) {}

  /** The node at `path` and the pair naming it, following aliases; undefined past the last that exists. */
  private walk(path: DocPath): { node: unknown; key: unknown; depth: number } {
    let node: unknown = this.doc.contents;
    let key: unknown = undefined;
    let depth = 0;
    for (const segment of path) {
      // Aliases as the value read them (yamlAnchors.ts); the yaml library's own resolve visits the whole document each time.
      const target: unknown = node instanceof Alias ? this.anchors.resolve(node) : node;
      let next: unknown = undefined;
      let nextKey: unknown = undefined;
      if (isMap(target)) {
        const pair = target.items.find(
          (p) => keyText(p.key instanceof Alias ? this.anchors.resolve(p.key) : p.key) === segment,
        );
        if (pair) {
          next = pair.value;
          nextKey = pair.key;
        }
      } else if (isSeq(target) && typeof segment === 'number') next = target.items[segment];
      if (next === undefined || next === null) {
        // A key with no value (`key:`) still has a key range.
        if (nextKey !== undefined) return { node: nextKey, key: nextKey, depth: depth + 1 };
        break;
      }
      node = next;
      key = nextKey;
      depth++;
    }
    return { node, key, depth };
  }

  /**
   * serde_yaml's path to the value at `path`, for its error words: each key as libyaml wrote it
   * (`0x10`, `~`, the empty key), `?` under an alias or a collection key (the record names those
   * otherwise); a segment past what the document holds is its name.
   */
  serdePath(path: DocPath): SerdePath {
    let node: unknown = this.doc.contents;
    let out: SerdePath = null;
    for (const segment of path) {
      const target: unknown = node instanceof Alias ? this.anchors.resolve(node) : node;
      if (typeof segment === 'number') {
        node = isSeq(target) ? target.items[segment] : undefined;
        out = { parent: out, index: segment };
        continue;
      }
      const pair = isMap(target)
        ? target.items.find((p) => keyText(p.key instanceof Alias ? this.anchors.resolve(p.key) : p.key) === segment)
        : undefined;
      node = pair?.value;
      out = pair ? serdeChild(out, pair.key) : { parent: out, key: segment };
    }
    return out;
  }

  literalAt(path: DocPath): string | undefined {
    const { node, depth } = this.walk(path);
    if (depth !== path.length) return undefined;
    const range = (node as { range?: [number, number, number] } | null)?.range;
    return range ? this.text.slice(range[0], range[1]) : undefined;
  }

  /** The record names of the keys of the mapping at `path`, in the order the document writes them. */
  keyNamesInOrder(path: DocPath): string[] {
    const { node, depth } = this.walk(path);
    if (depth !== path.length) return [];
    const target: unknown = node instanceof Alias ? this.anchors.resolve(node) : node;
    if (!isMap(target)) return [];
    return target.items.map((p) => keyText(p.key instanceof Alias ? this.anchors.resolve(p.key) : p.key));
  }

  /**
   * The scalar at `path` as libyaml hands it to serde_yaml (aliases followed): its text, its
   * style and its resolved tag; undefined for a collection or a path that does not exist. A key
   * with no value has the empty plain scalar.
   */
  scalarAt(path: DocPath): { text: string; style: 'plain' | 'literal' | 'other'; tag: string | undefined } | undefined {
    const { node, key, depth } = this.walk(path);
    if (depth !== path.length) return undefined;
    if (path.length > 0 && node === key) return { text: '', style: 'plain', tag: undefined };
    const target = isAlias(node) ? this.anchors.resolve(node) : node;
    if (!isScalar(target)) return undefined;
    const style = target.type === Scalar.PLAIN ? 'plain' : target.type === Scalar.BLOCK_LITERAL ? 'literal' : 'other';
    return { text: scalarText(target), style, tag: target.tag };
  }

  /**
   * Whether the node at `path`, as written there (an alias not followed), carries a tag or an
   * anchor: properties a node's own range leaves out (the yaml library's `tag`, `anchor`).
   */
  hasNodeProperties(path: DocPath): boolean {
    const { node, key, depth } = this.walk(path);
    if (depth !== path.length || node === key || !isNode(node)) return false;
    return node.tag !== undefined || node.anchor !== undefined;
  }

  valueSpan(path: DocPath): readonly [number, number] {
    const { node } = this.walk(path);
    const range = (node as { range?: [number, number, number] } | null)?.range;
    return range ? [range[0], range[1]] : [0, 0];
  }

  valueRange(path: DocPath): Range {
    const [start, end] = this.valueSpan(path);
    return this.spanRange(start, end);
  }

  spanRange(start: number, end: number): Range {
    return this.lines.range(start, end - start);
  }

  keyRange(path: DocPath): Range {
    const { key, node } = this.walk(path);
    const range = ((key ?? node) as { range?: [number, number, number] } | null)?.range;
    return range ? this.lines.range(range[0], range[1] - range[0]) : this.lines.range(0, 0);
  }

  /** The key's range when the field exists, else the nearest existing ancestor's (eva.md §5 "points at"). */
  fieldRange(path: DocPath): Range {
    // A missing field points at the mapping that lacks it (the key of the last field that
    // exists, which is what keyRange finds), or at the first line at the root.
    return this.walk(path).depth === 0 ? this.lines.lineRange(0) : this.keyRange(path);
  }

  /**
   * UTF-16 offsets [start, end) of the whole lines that write the entry at `path` and nothing
   * else, through the line break that ends them: a key of a block mapping alone at the start of
   * its line, `:`, a one-line scalar (or none), at most a comment. Undefined for any other
   * writing: a flow mapping, an explicit `?` key, a tag or an anchor (written outside the node's
   * range, they break the line's shape), a block scalar or a collection as value; where the
   * mapping is reached through an alias or has an anchor (its aliases would lose the entry too);
   * where the entry is the mapping's only one (its removal would leave no mapping).
   */
  lineEntrySpan(path: DocPath): readonly [number, number] | undefined {
    const name = path[path.length - 1];
    let node: unknown = this.doc.contents;
    for (const segment of path.slice(0, -1)) {
      if (!isMap(node) || node.anchor !== undefined) return undefined;
      node = node.items.find((p) => isScalar(p.key) && keyText(p.key) === segment)?.value;
    }
    if (!isMap(node) || node.flow || node.anchor !== undefined || node.items.length < 2) return undefined;
    const named = node.items.filter(
      (p) => keyText(p.key instanceof Alias ? this.anchors.resolve(p.key) : p.key) === name,
    );
    const pair = named.length === 1 ? named[0] : undefined;
    const key = pair?.key;
    const value = pair?.value;
    if (!isScalar(key) || !key.range || !(value === null || isScalar(value))) return undefined;
    if (value && (value.type === Scalar.BLOCK_LITERAL || value.type === Scalar.BLOCK_FOLDED)) return undefined;
    const text = this.text;
    let start = key.range[0];
    while (start > 0 && text[start - 1] === ' ') start--;
    if (start > 0 && text[start - 1] !== '\n' && text[start - 1] !== '\r') return undefined;
    // libyaml also breaks lines at NEL, LS and PS (yamlReader.ts), which the editor does not:
    // text with one of them is not taken for one line.
    const between = /[ \t]*:[ \t]*/y;
    between.lastIndex = key.range[1];
    if (!between.test(text)) return undefined;
    let end = between.lastIndex;
    if (value?.range) {
      if (value.range[0] !== end || /[\r\n\u0085\u2028\u2029]/.test(text.slice(end, value.range[1]))) return undefined;
      end = value.range[1];
    }
    const rest = /[ \t]*(?:#[^\r\n\u0085\u2028\u2029]*)?(?:\r\n|\r|\n|$)/y;
    rest.lastIndex = end;
    return rest.test(text) ? [start, rest.lastIndex] : undefined;
  }

  /** True when the exact path exists. */
  has(path: DocPath): boolean {
    return this.walk(path).depth === path.length;
  }

  lineRange(line: number): Range {
    return this.lines.lineRange(line);
  }
}
