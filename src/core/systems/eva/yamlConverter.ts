import {
  Scalar,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type Alias,
  type Document,
  type Node as YamlNode,
  type YAMLMap,
} from 'yaml';
import { offsetOf, type YamlAnchors } from './yamlAnchors';
import { duplicateEntryMessage, mappingStartMark, type SerdePath } from './yamlDuplicateKey';
import { ALIAS_JUMPS_PER_NODE, MAX_EXPANDED_NODES, MAX_YAML_DEPTH } from './yamlLimits';
import { keepMappingKeys, type SerdeKey } from './yamlMappingKeys';
import { YamlRefusal } from './yamlRefusal';
import {
  resolveCoreTagged,
  resolveUntagged,
  scalarIdentity,
  scalarKeyText,
  scalarValue,
  type ScalarResolution,
  type YamlScalar,
} from './yamlScalars';
import { YamlTagged } from './yamlValue';
import { emptyOwnRecord } from '../../documents/ownRecord';

/**
 * The parsed tree made serde_yaml 0.9's `Value` (de.rs, as Eva-CLI's loader reads a manifest;
 * eva.md §2.1): scalars typed by serde_yaml's rules (yamlScalars.ts), aliases expanded within
 * its bounds (yamlLimits.ts), a key given twice refused in its words (yamlDuplicateKey.ts), a
 * value under a local tag kept as YamlTagged. Also how a record names a key, which the
 * document's ranges (yamlDocument.ts) follow to find a field.
 */

export class Converter {
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

  /**
   * `depth`: the sequences and mappings around the node, the alias's own place for a node an alias
   * names (serde_yaml's `jump` keeps its `remaining_depth`: only a collection spends one of its 128).
   * `path`: serde_yaml's path to the node, for the words of a duplicate key inside it.
   */
  toValue(node: unknown, depth: number, path: SerdePath): unknown {
    if (++this.expanded > MAX_EXPANDED_NODES) throw new YamlRefusal('repetition limit exceeded', offsetOf(node));
    if (node === null || node === undefined) return null;
    if (isAlias(node)) return this.toValue(this.jump(node), depth, path);
    if ((isSeq(node) || isMap(node)) && depth >= MAX_YAML_DEPTH)
      throw new YamlRefusal('recursion limit exceeded', offsetOf(node));
    const plain = this.untagged(node as YamlNode, depth, path);
    const tag = localTag(node as YamlNode);
    return tag ? new YamlTagged(tag, plain) : plain;
  }

  /** The node an alias names, one jump counted toward serde_yaml's repetition limit. */
  private jump(alias: Alias): YamlNode {
    if (++this.jumps > this.maxJumps) throw new YamlRefusal('repetition limit exceeded', offsetOf(alias));
    return this.target(alias);
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
      const key = this.key(pair.key, depth + 1, path);
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
      // Only a mapping with a key other than a plain string can hold a key serde derive reads
      // otherwise; they are read when asked for (a wide mapping of such keys parses no slower).
      let keys: readonly SerdeKey[] | undefined;
      const items = (node as YAMLMap<unknown, unknown>).items;
      keepMappingKeys(out, nonString, () => (keys ??= items.map((pair, i) => this.serdeKey(pair.key, values[i]))));
    }
    return out;
  }

  /** A mapping key as serde derive reads it (SerdeKey); `written` may be an alias. */
  private serdeKey(written: unknown, value: unknown): SerdeKey {
    const node = isAlias(written) ? this.target(written) : written;
    const range = (written as { range?: [number, number, number] } | null)?.range;
    const span: readonly [number, number] = range ? [range[0], range[1]] : [0, 0];
    const name = keyText(node);
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

  /**
   * A mapping key (`written` may be an alias): its name in the record, and what makes two keys
   * equal for serde_yaml. A sequence or mapping key is read as deep as a value (`next_key_seed`, at
   * the mapping's path), with its refusals and limits.
   */
  private key(
    written: unknown,
    depth: number,
    path: SerdePath,
  ): {
    text: string;
    identity: string;
    isString: boolean;
    /** The key's scalar value (none for a collection) and whether a tag makes it a tagged value. */
    scalar: YamlScalar | undefined;
    tagged: boolean;
  } {
    const node = isAlias(written) ? this.jump(written) : written;
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
    this.toValue(node, depth, path);
    return {
      text: String(node),
      identity: `c${this.identity(node)}`,
      isString: false,
      scalar: undefined,
      tagged: false,
    };
  }

  /**
   * serde_yaml's `Value` equality as a string, for a node already read without refusal (so its
   * aliases resolve and its depth is bounded): a mapping's pairs in no order, tags without their `!`.
   */
  private identity(node: unknown): string {
    const target = isAlias(node) ? this.target(node) : node;
    if (target === null || target === undefined) return 'n';
    const tag = localTag(target as YamlNode);
    let inner: string;
    if (isScalar(target)) inner = scalarIdentity(this.scalar(target));
    else if (isSeq(target)) inner = `[${target.items.map((item) => framed(this.identity(item))).join('')}]`;
    else
      inner = `{${(target as YAMLMap<unknown, unknown>).items
        .map((p) => framed(this.identity(p.key)) + framed(this.identity(p.value)))
        .sort()
        .join('')}}`;
    return tag ? `t${framed(tag.replace(/^!/, ''))}${inner}` : inner;
  }
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

/** A part of an identity, length first: unambiguous, and no longer for being nested (quoting would double each level). */
function framed(part: string): string {
  return `${part.length}:${part}`;
}

/** libyaml's text of a scalar (the parser's `source`), as serde_yaml's path names a key by it. */
export function scalarText(node: Scalar): string {
  return typeof node.source === 'string' ? node.source : String(node.value ?? '');
}

/** serde_yaml's path to the value of a pair written with `key` (path.rs): the key's text; `?` under an alias or a collection key. */
export function serdeChild(parent: SerdePath, key: unknown): SerdePath {
  if (isScalar(key)) return { parent, key: scalarText(key) };
  return key ? { parent, unknown: true } : { parent, key: '' };
}

/** A mapping key as the record names it (as the Converter does; `null` for none; a collection by its text). */
export function keyText(key: unknown): string {
  if (!isScalar(key)) return key === null || key === undefined ? 'null' : String(key);
  const r = resolveScalar(key);
  // Only a document that parsed is walked, so its keys resolved; the source stands in regardless.
  return r.kind === 'error' ? String(key.source) : scalarKeyText(r);
}
