import {
  Alias,
  CST,
  Scalar,
  isAlias,
  isMap,
  isNode,
  isScalar,
  isSeq,
  visit,
  type Document,
  type Node as YamlNode,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';
import { YamlAnchors, offsetOf } from './yamlAnchors';
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
import { FirstRefusal, blockEntryExpected, columnOf, type LibyamlRefusal } from './yamlRefusal';
import { libyamlRefusal } from './yamlLibyamlWords';
import { duplicateEntryMessage, mappingStartMark, type SerdePath } from './yamlDuplicateKey';
import { firstRefusedCharacter, libyamlLineBreaks, libyamlLineStartBoms, readerChunkStart } from './yamlReader';
import { READER_REFUSAL, yamlErrorPlace } from './yamlErrorPlace';
import {
  YamlFloat,
  resolveCoreTagged,
  resolveUntagged,
  scalarIdentity,
  scalarKeyText,
  scalarValue,
  type ScalarResolution,
  type YamlScalar,
} from './yamlScalars';
import { LineMap } from '../../text/lineMap';
import { emptyOwnRecord } from '../../documents/ownRecord';
import type { DocPath, ParsedDocument } from '../../documents/document';
import type { Range } from '../../model';

/**
 * YAML read as Eva-CLI reads it with serde_yaml 0.9 (eva.md §2.1): one document,
 * scalars typed by serde_yaml's own rules (yamlScalars.ts; the yaml library's core-schema
 * values are not used), duplicate keys an error, `<<` an ordinary key, local tags (`!foo`) kept
 * as inert tagged values, other tags read through, aliases expanded within a bound. Nothing is
 * resolved to code or objects: the value is plain data (prototype-free mappings).
 */

export { YamlFloat } from './yamlScalars';

/**
 * A value under a local tag (`!foo`, `!<!foo>`): serde_yaml's `Value::Tagged`, never resolved. A
 * tag libyaml resolves to a URI (`!!js/function`, `!<tag:x>`) is no tag to serde_yaml.
 */
export class YamlTagged {
  constructor(
    readonly tag: string,
    readonly value: unknown,
  ) {}
}

/** serde_yaml's recursion limit (its `remaining_depth` of 128). */
export const MAX_YAML_DEPTH = 128;
/** serde_yaml stops alias expansion past 100 jumps per parser event ("repetition limit exceeded"). */
const ALIAS_JUMPS_PER_NODE = 100;
/** [Skillgate] Expanded nodes in all: bounds memory where serde_yaml bounds only jumps. */
export const MAX_EXPANDED_NODES = 250_000;

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

/**
 * How libyaml reads the first BOM at the start of a line (a space in the copy parsed) that lies
 * inside a scalar's text, if one does. Inside a quoted scalar, a flow collection or a plain
 * scalar at the document's root it is text: the caller parses the copy with it left in place.
 * A plain scalar in block context ends at such a line, since the BOM stands left of the
 * scalar's block (libyaml checks indentation before it skips the BOM as one column); what
 * follows on that line or after it then stands where no token may: refused at that token, in
 * the words of the collection the scalar belongs to. `start` is where the scalar starts, to
 * order the refusal among the copy's own errors: those the scalar read on holds come from
 * reading the line on.
 */
function lineStartBomReading(
  doc: Document.Parsed,
  text: string,
): 'text' | { readonly start: number; readonly offset: number; readonly message: string } | undefined {
  const boms: number[] = [];
  for (let at = text.indexOf('\ufeff'); at !== -1; at = text.indexOf('\ufeff', at + 1))
    if (at === 0 || text[at - 1] === '\n') boms.push(at);
  let reading: ReturnType<typeof lineStartBomReading>;
  let firstBom = Infinity;
  visit(doc, {
    Scalar(_key, node, path) {
      const range = node.range;
      if (!range || range[0] === range[1]) return undefined;
      // The first line-start BOM at or after the scalar's start (a binary search: one scan per scalar is quadratic).
      let lo = 0;
      let hi = boms.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((boms[mid] as number) < range[0]) lo = mid + 1;
        else hi = mid;
      }
      const bom = boms[lo];
      if (bom === undefined || bom >= range[1] || bom >= firstBom) return undefined;
      firstBom = bom;
      const collections = path.filter((p): p is YAMLMap | YAMLSeq => isMap(p) || isSeq(p));
      const parent = collections.at(-1);
      if (node.type !== Scalar.PLAIN || !parent || collections.some((c) => c.flow)) reading = 'text';
      else {
        let token = bom + 1;
        while (/[ \t\n\r]/.test(text[token] ?? '')) token++;
        reading = { start: range[0], offset: token, message: expectedAfter(parent, path, text) };
      }
      return undefined;
    },
  });
  return reading;
}

/** What libyaml's parser expected where a plain scalar of `parent` ended early (blockEntryExpected). */
function expectedAfter(parent: YAMLMap | YAMLSeq, path: readonly unknown[], text: string): string {
  if (isMap(parent)) return blockEntryExpected('mapping', false);
  const owner = path
    .slice(0, path.indexOf(parent))
    .filter((p): p is YAMLMap => isMap(p))
    .at(-1);
  const indentless =
    !!owner?.range && !!parent.range && columnOf(text, owner.range[0]) === columnOf(text, parent.range[0]);
  return blockEntryExpected('sequence', indentless);
}

function describe(code: string, message: string): string {
  if (code === 'DUPLICATE_KEY') return 'duplicate entry with key';
  if (code === 'MULTIPLE_DOCS') return 'deserializing from YAML containing more than one document is not supported';
  // The parser met nesting deep enough to exhaust its stack: serde_yaml's words for it.
  if (/call stack/i.test(message)) return 'recursion limit exceeded';
  return message;
}

/** A document the parser accepted but serde_yaml refuses: a limit, an unknown anchor, a key given twice through an alias. */
class YamlRefusal extends Error {
  constructor(
    message: string,
    readonly offset: number,
    /** How many characters the error's range covers from its offset. */
    readonly length = 0,
    /** Where serde_yaml's words place the error, when elsewhere than the range. */
    readonly mark?: number,
  ) {
    super(message);
  }
}

/**
 * The depth of `[`/`{` outside quotes and comments: the parser composes recursively, so
 * text nesting deeper than serde_yaml allows is refused before it is parsed.
 */
function flowDepthExcess(text: string): number | undefined {
  let depth = 0;
  let quote = '';
  let comment = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (comment) {
      if (c === '\n' || c === '\r') comment = false;
      continue;
    }
    if (quote) {
      if (c === quote) quote = '';
      continue;
    }
    if (c === '#' && (i === 0 || /\s/.test(text.charAt(i - 1)))) comment = true;
    else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '{') {
      if (++depth > MAX_YAML_DEPTH) return i;
    } else if ((c === ']' || c === '}') && depth > 0) depth--;
  }
  return undefined;
}

class Converter {
  private jumps = 0;
  private expanded = 0;
  private readonly maxJumps: number;

  constructor(
    doc: Document.Parsed,
    private readonly anchors: YamlAnchors,
    private readonly text: string,
  ) {
    this.maxJumps = ALIAS_JUMPS_PER_NODE * Math.max(1, countNodes(doc.contents, anchors));
  }

  /** `path`: serde_yaml's path to the node, for the words of a duplicate key inside it. */
  toValue(node: unknown, depth: number, path: SerdePath): unknown {
    if (depth > MAX_YAML_DEPTH) throw new YamlRefusal('recursion limit exceeded', offsetOf(node));
    if (++this.expanded > MAX_EXPANDED_NODES) throw new YamlRefusal('repetition limit exceeded', offsetOf(node));
    if (node === null || node === undefined) return null;
    if (isAlias(node)) {
      if (++this.jumps > this.maxJumps) throw new YamlRefusal('repetition limit exceeded', offsetOf(node));
      return this.toValue(this.target(node), depth + 1, path);
    }
    const plain = this.untagged(node as YamlNode, depth, path);
    const tag = localTag(node as YamlNode);
    return tag ? new YamlTagged(tag, plain) : plain;
  }

  private target(alias: Alias): YamlNode {
    const target = this.anchors.resolve(alias);
    if (!target) throw new YamlRefusal(`unknown anchor ${alias.source}`, offsetOf(alias));
    return target;
  }

  private untagged(node: YamlNode, depth: number, path: SerdePath): unknown {
    if (isScalar(node)) return scalarValue(this.scalar(node));
    if (isSeq(node)) return node.items.map((item, index) => this.toValue(item, depth + 1, { parent: path, index }));
    // What is left is a mapping (aliases were followed before).
    const out = emptyOwnRecord<unknown>();
    const nonString = {
      names: new Set<string>(),
      shadowed: 0,
      taggedStrings: new Set<string>(),
      shadowedNonStrings: 0,
    };
    const seen = new Set<string>();
    // Each pair's value, kept for serdeKeys: a key whose record name another took still has its own.
    const values: unknown[] = [];
    for (const pair of (node as YAMLMap<unknown, unknown>).items) {
      // serde_yaml replays an alias key as the key it names, so `*k : v` may repeat a key.
      const key = this.key(isAlias(pair.key) ? this.target(pair.key) : pair.key);
      // Keys repeat when serde_yaml's values are equal (`012` and "012" are one string; `12` and "12"
      // are a number and a string). The parser's own check of unique keys is off: it compares each key
      // with every key before it, quadratic in a mapping of 40,000 keys (9 s); this one is a lookup,
      // with the parser's range (one character at the later key).
      // serde_yaml's words place the error at the mapping's start; its range stays on the repeated key.
      if (seen.has(key.identity))
        throw new YamlRefusal(
          duplicateEntryMessage(path, key.scalar, key.tagged),
          offsetOf(pair.key),
          1,
          mappingStartMark(this.text, offsetOf(node), !!(node.anchor || node.tag)),
        );
      seen.add(key.identity);
      const value = this.toValue(pair.value, depth + 1, serdeChild(path, pair.key));
      values.push(value);
      // A record holds one entry per name: upstream looks fields up by string key only, so a string key
      // takes the name over a number or boolean key written the same way.
      // A string under a tag (`!t id`) is still a string to serde_yaml's `as_str`.
      const taggedString = key.tagged && key.scalar?.kind === 'str';
      if (key.isString) {
        if (nonString.names.delete(key.text)) {
          nonString.shadowed++;
          if (!nonString.taggedStrings.delete(key.text)) nonString.shadowedNonStrings++;
        }
        out[key.text] = value;
      } else if (!(key.text in out)) {
        out[key.text] = value;
        nonString.names.add(key.text);
        if (taggedString) nonString.taggedStrings.add(key.text);
      } else {
        nonString.shadowed++;
        if (!taggedString) nonString.shadowedNonStrings++;
      }
    }
    if (nonString.names.size || nonString.shadowed) {
      NON_STRING_KEYS.set(out, nonString);
      // Only a mapping with a key other than a plain string can hold a key serde derive reads
      // otherwise; they are read when asked for (a wide mapping of such keys parses no slower).
      let keys: readonly SerdeKey[] | undefined;
      const items = (node as YAMLMap<unknown, unknown>).items;
      SERDE_KEYS.set(out, () => (keys ??= items.map((pair, i) => this.serdeKey(pair.key, values[i]))));
    }
    return out;
  }

  /** A mapping key as serde derive reads it (SerdeKey); `written` may be an alias. */
  private serdeKey(written: unknown, value: unknown): SerdeKey {
    const node = isAlias(written) ? this.target(written) : written;
    const range = (written as { range?: [number, number, number] } | null)?.range;
    const span: readonly [number, number] = range ? [range[0], range[1]] : [0, 0];
    const name = this.key(node).text;
    if (isSeq(node) || isMap(node))
      return {
        name,
        text: undefined,
        collection: isSeq(node) ? 'sequence' : 'map',
        tagged: this.holdsLocalTag(node, 0),
        span,
        value,
      };
    // libyaml's text of the scalar (no node: the empty plain scalar).
    const text = isScalar(node) ? (typeof node.source === 'string' ? node.source : String(node.value ?? '')) : '';
    return { name, text, collection: undefined, tagged: isScalar(node) && isLocalTagged(node), span, value };
  }

  /** True when a local tag stands on `node` or anywhere inside it (aliases followed, depth bounded). */
  private holdsLocalTag(node: unknown, depth: number): boolean {
    if (depth > MAX_YAML_DEPTH) return false;
    const target = isAlias(node) ? this.anchors.resolve(node) : node;
    if (!target || typeof target !== 'object') return false;
    if (isLocalTagged(target as YamlNode)) return true;
    if (isSeq(target)) return target.items.some((item) => this.holdsLocalTag(item, depth + 1));
    if (isMap(target))
      return target.items.some((p) => this.holdsLocalTag(p.key, depth + 1) || this.holdsLocalTag(p.value, depth + 1));
    return false;
  }

  /** A scalar node typed as serde_yaml types it; text it refuses is a parse error at the scalar. */
  private scalar(node: Scalar): YamlScalar {
    const r = resolveScalar(node);
    if (r.kind === 'error') throw new YamlRefusal(r.message, offsetOf(node));
    return r;
  }

  /** A mapping key: its name in the record, and what makes two keys equal for serde_yaml. */
  private key(node: unknown): {
    text: string;
    identity: string;
    isString: boolean;
    /** The key's scalar value (none for a collection) and whether a tag makes it a tagged value. */
    scalar: YamlScalar | undefined;
    tagged: boolean;
  } {
    if (isScalar(node)) {
      // Under a tag that is not local (`!!js/x id:`) the key is the string of its text (resolveScalar).
      const s = this.scalar(node);
      const tag = localTag(node);
      // serde_yaml compares tags without their leading `!`, then the values under them.
      const identity = tag ? `t${tag.replace(/^!/, '')}\0${scalarIdentity(s)}` : scalarIdentity(s);
      return { text: scalarKeyText(s), identity, isString: !tag && s.kind === 'str', scalar: s, tagged: !!tag };
    }
    // No node (an empty key) is null; a collection key is named by its text.
    if (node === null || node === undefined)
      return { text: 'null', identity: 'n', isString: false, scalar: { kind: 'null' }, tagged: false };
    const text = String(node);
    return { text, identity: `c${text}`, isString: false, scalar: undefined, tagged: false };
  }
}

/**
 * The keys of a mapping that are not plain strings (`1:`, `true:`, `!k id:`, `[a]:`): the
 * record names them by their text, but serde_yaml's `get(Value::String(..))` never finds them,
 * so a required `id` written `!k id` is missing upstream. `shadowed` counts such keys whose
 * name a string key took (`"1": a` beside `1: b`): they are in no record, yet in the mapping.
 */
export interface NonStringKeys {
  readonly names: ReadonlySet<string>;
  readonly shadowed: number;
  /**
   * Of `names`, the keys that are a string under a tag (`!k id`): `get(Value::String(..))` does
   * not find them, but `as_str` reads through the tag (upstream's `additionalProperties`).
   */
  readonly taggedStrings: ReadonlySet<string>;
  /** Of `shadowed`, the keys that are not a string even through a tag. */
  readonly shadowedNonStrings: number;
}

const NON_STRING_KEYS = new WeakMap<object, NonStringKeys>();
const NO_NON_STRING_KEYS: NonStringKeys = {
  names: new Set(),
  shadowed: 0,
  taggedStrings: new Set(),
  shadowedNonStrings: 0,
};

export function nonStringKeys(record: object): NonStringKeys {
  return NON_STRING_KEYS.get(record) ?? NO_NON_STRING_KEYS;
}

/**
 * A mapping key as serde derive reads it (serde_yaml 0.9 `de.rs`). A struct's field name goes
 * through `deserialize_identifier`, which is `deserialize_str`: a scalar is its text, whatever
 * its tag or type (`1`, `"1"` and `!t 1` are all "1"), and a sequence or mapping is refused
 * ("invalid type: sequence, expected field identifier"). An entry buffered as serde's `Content`
 * reads its key through `deserialize_any`, which hands a locally tagged key to `visit_enum`:
 * refused, as a tagged value is (`tagged`, on the key or anywhere inside a collection key).
 */
export interface SerdeKey {
  /** The record's name for the key (the Converter's). */
  readonly name: string;
  /** The scalar's text as libyaml gives it (`''` for no key); undefined for a collection key. */
  readonly text: string | undefined;
  readonly collection: 'sequence' | 'map' | undefined;
  readonly tagged: boolean;
  /** The key as written, in the file. */
  readonly span: readonly [number, number];
  /**
   * This pair's value: the record's entry under `name` may be another pair's (`"1": a` takes the
   * name from `1: b`), but serde reads every pair.
   */
  readonly value: unknown;
}

const SERDE_KEYS = new WeakMap<object, () => readonly SerdeKey[]>();

/**
 * The keys of a mapping in document order as serde derive reads them, when one of them is not a
 * plain string; undefined when all are (each key is then its record name, and no two are equal).
 */
export function serdeKeys(record: object): readonly SerdeKey[] | undefined {
  return SERDE_KEYS.get(record)?.();
}

/**
 * A tag that still starts with `!` once libyaml resolved it (`!t`, `!<!t>`, not `!!binary`): the
 * only tag serde_yaml's `parse_tag` makes an enum of, so the value under it is tagged. Any other
 * tag is read through: a sequence or mapping under it is plain (`deserialize_any`).
 */
function localTag(node: YamlNode): string | undefined {
  const tag = node.tag;
  return tag?.startsWith('!') ? tag : undefined;
}

function isLocalTagged(node: YamlNode): boolean {
  return localTag(node) !== undefined;
}

/**
 * serde_yaml's typing of a scalar from its text (the parser's `source`) and style (de.rs
 * `visit_scalar`): under a local tag, or none, a plain scalar is typed and any other is a string;
 * under any other tag, `!!bool`, `!!int`, `!!float` and `!!null` decide by themselves and the rest
 * (`!!str`, `!!js/x`, `!<tag:x>`) give the scalar's text as a string (`!!js/x 5` is "5").
 */
function resolveScalar(node: Scalar): ScalarResolution {
  const text = typeof node.source === 'string' ? node.source : String(node.value ?? '');
  const tag = node.tag;
  if (tag && !tag.startsWith('!')) return resolveCoreTagged(tag, text);
  return resolveUntagged(text, node.type === Scalar.PLAIN);
}

/** Counts the nodes of the tree (serde_yaml bounds alias jumps by its event count) and records anchors. */
function countNodes(node: unknown, anchors: YamlAnchors): number {
  let n = 0;
  const stack: unknown[] = [node];
  while (stack.length) {
    const cur = stack.pop();
    n++;
    const anchor = (cur as { anchor?: string } | null)?.anchor;
    // A node is visited before the nodes inside it, as YamlAnchors needs.
    if (anchor) anchors.add(anchor, cur as YamlNode);
    // One push per item: spreading a sequence of some 100,000 items into one call overflows the stack.
    if (isSeq(cur)) for (const item of cur.items) stack.push(item);
    else if (isMap(cur)) for (const p of cur.items) stack.push(p.key, p.value);
  }
  return n;
}

/** libyaml's text of a scalar (the parser's `source`), as serde_yaml's path names a key by it. */
function scalarText(node: Scalar): string {
  return typeof node.source === 'string' ? node.source : String(node.value ?? '');
}

/** serde_yaml's path to the value of a pair written with `key` (path.rs): the key's text; `?` under an alias or a collection key. */
function serdeChild(parent: SerdePath, key: unknown): SerdePath {
  if (isScalar(key)) return { parent, key: scalarText(key) };
  return key ? { parent, unknown: true } : { parent, key: '' };
}

/** A mapping key as the record names it (as the Converter does; `null` for none; a collection by its text). */
function keyText(key: unknown): string {
  if (!isScalar(key)) return key === null || key === undefined ? 'null' : String(key);
  const r = resolveScalar(key);
  // Only a document that parsed is walked, so its keys resolved; the source stands in regardless.
  return r.kind === 'error' ? String(key.source) : scalarKeyText(r);
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

  /** True when the exact path exists. */
  has(path: DocPath): boolean {
    return this.walk(path).depth === path.length;
  }

  lineRange(line: number): Range {
    return this.lines.lineRange(line);
  }
}

/** The value's type name in upstream's words (`schema type mismatch: …, got <actual>`). */
export function yamlTypeName(value: unknown): 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object' | 'tagged' {
  if (value === null || value === undefined) return 'null';
  if (value instanceof YamlTagged) return 'tagged';
  if (value instanceof YamlFloat) return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number' || typeof value === 'bigint') return 'number';
  if (typeof value === 'string') return 'string';
  if (Array.isArray(value)) return 'array';
  return 'object';
}

/**
 * A whole number as serde_yaml's `Number` has it (`as_i64`/`as_u64`): never a YamlFloat, even
 * `0.0`. A bare JS number can only be a float when it is not whole (a JSON schema's number).
 */
export function isYamlInteger(value: unknown): boolean {
  return (typeof value === 'number' && Number.isInteger(value)) || typeof value === 'bigint';
}

/**
 * serde_yaml's `untag`/`untag_ref`: the value under a local tag (the only tag that makes a
 * tagged value here; a node holds one tag, so one step is all). Its `as_str`, `as_mapping`,
 * `deserialize_str`, … read a value through it.
 */
export function untag(v: unknown): unknown {
  return v instanceof YamlTagged ? v.value : v;
}

/**
 * The document's root as serde derive reads a manifest struct from it: `deserialize_struct`
 * ignores a mapping's tag, so `--- !t` over a mapping is that mapping to Eva's loader.
 */
export function manifestRoot(doc: { readonly value: unknown }): unknown {
  const v = doc.value;
  return v instanceof YamlTagged && isMapping(v.value) ? v.value : v;
}

/** A plain mapping (not an array, not tagged). */
export function isMapping(value: unknown): value is Record<string, unknown> {
  return yamlTypeName(value) === 'object';
}
