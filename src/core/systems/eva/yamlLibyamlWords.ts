import type { CST, YAMLParseError } from 'yaml';
import {
  NODE_EXPECTED,
  blockEntryExpected,
  closeOf,
  columnOf,
  entryEndExpected,
  type LibyamlRefusal,
} from './yamlRefusal';
import { simpleKeyGivenUp } from './yamlKeyIndicators';
import { verbatimTagEnd } from './yamlTagUri';

/**
 * A refusal the yaml library states in its own words, restated as libyaml 0.2.5 (serde_yaml
 * 0.9, Eva's parser; eva.md §2.1) states the same fault of the text: its words, at the place
 * its scanner or parser stops (problem_mark). Only the words and the place change: a text
 * refused stays refused, and one the rules below do not recognise keeps the library's words.
 *
 * - an anchor or alias with no name (`& x`, `*`): "did not find expected alphabetic or
 *   numeric character", at the character after the indicator;
 * - a mapping begun after a key on its line (`k: a: b`, `k: ? a`, the library's "Nested
 *   mappings are not allowed in compact mappings"): at the inner key's `:` ("mapping values
 *   are not allowed in this context") or its `?` ("mapping keys …"); the same after a
 *   document marker (`--- a: b`; `--- - a`: "block sequence entries …");
 * - such a mapping inside a flow collection (`{k: a: b}`, "Block collections are not
 *   allowed within flow collections"): at the inner `:`, "did not find expected ',' or '}'"
 *   (or `]`, the collection's own close); a block sequence's `-` there (`[ - ]`): "did not
 *   find expected node content", at the `-`;
 * - a block mapping's key over two lines ("Implicit keys need to be on a single line"): the
 *   first key of a mapping is no key to libyaml, which stops at its `:` ("mapping values are
 *   not allowed in this context"); a later key, at the mapping's indentation, is one libyaml
 *   requires to end on its line: it stops at the key's first token on a later line ("could
 *   not find expected ':'");
 * - a tag whose handle no `%TAG` names (`!e!x a`): "found undefined tag handle", at the tag,
 *   unless the tokens libyaml scans before it resolves the tag (the node's other properties
 *   and the token after them) hold a fault of their own: an anchor with no name or one
 *   ended by another character (`!e!x & a`), a token that cannot start (`!e!x @a`);
 * - a character no plain scalar starts with (`%`, `@`, the backquote): "found character that
 *   cannot start any token"; a `,` with no entry before it: "did not find expected node
 *   content"; a quoted scalar the text ends in: "found unexpected end of stream"; a block
 *   scalar's header with more than its indicators: "did not find expected comment or line
 *   break" (an indentation indicator `0`: "found an indentation indicator equal to 0");
 * - a token after a node that is complete (an alias after properties, `k: !t *a`; a second
 *   node on the line of the first): what libyaml's parser expected there (below);
 * - a flow collection's entries not separated ("Missing , or : between flow … items"):
 *   "did not find expected ',' or ']'" (or `}`), where the library says; a `?` written where
 *   a flow mapping's value stands (`{a: ? b}`) is no node: "did not find expected node
 *   content" at the `?`.
 */
export function libyamlRefusal(
  error: YAMLParseError,
  cst: CST.Document | undefined,
  text: string,
): LibyamlRefusal | undefined {
  const at = error.pos[0];
  const message = error.message;
  if (error.code === 'BAD_ALIAS' && /cannot be an empty string$/.test(message))
    return { offset: at + 1, message: 'did not find expected alphabetic or numeric character' };
  if (!cst) return undefined;
  if (error.code === 'BLOCK_AS_IMPLICIT_KEY' || error.code === 'BLOCK_IN_FLOW')
    return innerMapping(cst, at, error.code === 'BLOCK_IN_FLOW');
  if (error.code === 'MULTILINE_IMPLICIT_KEY' && message === 'Implicit keys need to be on a single line')
    return keyOverLines(cst, at, text);
  if (
    (error.code === 'MULTILINE_IMPLICIT_KEY' || error.code === 'KEY_OVER_1024_CHARS') &&
    / flow sequence (pairs need|key$)/.test(message)
  )
    return flowKeyGivenUp(cst, at, text);
  // A handle with no suffix (`!! x`): libyaml asks for the URI after the handle.
  if (error.code === 'TAG_RESOLVE_FAILED' && / tag has no suffix$/.test(message))
    return {
      offset: at + (/^![0-9A-Za-z_-]*!/.exec(text.slice(at))?.[0].length ?? 1),
      message: 'did not find expected tag URI',
    };
  if (error.code === 'TAG_RESOLVE_FAILED' && message === 'Verbatim tags must end with a >') {
    const end = verbatimTagEnd(text, at);
    if (typeof end !== 'number') return { offset: end.at, message: end.problem };
  }
  if (error.code === 'TAG_RESOLVE_FAILED' && /^![0-9A-Za-z_-]*!/.test(message.replace(/^Could not resolve tag: /, '')))
    return afterProperties(text, at) ?? { offset: at, message: 'found undefined tag handle' };
  if (error.code === 'BAD_SCALAR_START' && /^Plain value cannot start with /.test(message))
    return { offset: at, message: NO_TOKEN };
  if (error.code === 'UNEXPECTED_TOKEN' && /^Unexpected , in flow (sequence|map)$/.test(message))
    return { offset: at, message: NODE_EXPECTED };
  if (/^Block scalar header includes extra characters/.test(message)) return blockScalarHeader(text, at);
  if (
    error.code === 'BAD_PROP_ORDER' ||
    (error.code === 'MISSING_CHAR' &&
      message === 'Tags and anchors must be separated from the next token by white space')
  )
    return indicatorAfterProperties(cst, at, text);
  if (error.code === 'MISSING_CHAR' && message === 'Missing newline after block sequence props')
    return indicatorAfterProperties(cst, afterProperty(text, at), text);
  if (error.code === 'ALIAS_PROPS' || (error.code === 'UNEXPECTED_TOKEN' && / at node end$/.test(message)))
    return nodeEnded(cst, at, text);
  if (error.code === 'MISSING_CHAR') {
    if (/^Missing closing ["']quote$/.test(message) && at >= text.length)
      return { offset: at, message: 'found unexpected end of stream' };
    if (message === 'Missing , or : between flow sequence items') return { offset: at, message: entryEndExpected(']') };
    if (message === 'Missing , or : between flow map items') return { offset: at, message: entryEndExpected('}') };
    if (message === 'Missing , between flow map items')
      return valueExpected(cst, at) ?? { offset: at, message: entryEndExpected('}') };
    if (message === 'Block collection cannot start on same line with directives-end marker')
      return afterMarker(cst, at);
  }
  return undefined;
}

type Item = CST.CollectionItem;
interface Found {
  readonly token: CST.BlockMap | CST.BlockSequence | CST.FlowCollection;
  /** The flow collection it stands in, if any. */
  readonly flow: CST.FlowCollection | undefined;
}

/** Every collection of the tree, in text order, with the flow collection it stands in. */
function collections(cst: CST.Document): Found[] {
  const out: Found[] = [];
  const walk = (token: CST.Token | null | undefined, flow: CST.FlowCollection | undefined): void => {
    if (!token) return;
    if (token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection') {
      out.push({ token, flow });
      const inner = token.type === 'flow-collection' ? token : flow;
      for (const item of token.items as Item[]) {
        walk(item.key, inner);
        walk(item.value, inner);
      }
    }
  };
  walk(cst.value, undefined);
  return out;
}

/** Where an item starts: its first token that is not white space or a comment. */
function itemStart(item: Item): number | undefined {
  const props = item.start.find((t) => !TRIVIA.has(t.type));
  return props?.offset ?? item.key?.offset ?? item.value?.offset;
}

const TRIVIA = new Set(['space', 'newline', 'comment', 'byte-order-mark', 'comma']);

/**
 * The block mapping the library refused at `at` (its first item starts there, or the
 * mapping's own node does): libyaml stops at its first key's indicator.
 */
function innerMapping(cst: CST.Document, at: number, inFlow: boolean): LibyamlRefusal | undefined {
  for (const { token, flow } of collections(cst)) {
    // A `-` before white space in a flow collection (`[ - ]`): a block entry where a node should start.
    if (token.type === 'block-seq' && inFlow && flow && token.offset === at)
      return { offset: at, message: NODE_EXPECTED };
    if (token.type !== 'block-map') continue;
    const first = token.items[0];
    if (!first || (itemStart(first) !== at && token.offset !== at)) continue;
    if (inFlow !== (flow !== undefined)) return undefined;
    const question = first.start.find((t) => t.type === 'explicit-key-ind');
    const colon = first.sep?.find((t) => t.type === 'map-value-ind');
    if (flow) {
      if (question || !colon) return undefined;
      return { offset: colon.offset, message: entryEndExpected(closeOf(flow)) };
    }
    if (question) return { offset: question.offset, message: 'mapping keys are not allowed in this context' };
    if (colon) return { offset: colon.offset, message: MAPPING_VALUES };
    return undefined;
  }
  return undefined;
}

const MAPPING_VALUES = 'mapping values are not allowed in this context';

/** A block mapping's key, refused at `at` for spanning lines. */
function keyOverLines(cst: CST.Document, at: number, text: string): LibyamlRefusal | undefined {
  for (const { token, flow } of collections(cst)) {
    if (token.type !== 'block-map' || flow) continue;
    const index = token.items.findIndex((item) => item.key && (item.key.offset === at || itemStart(item) === at));
    if (index === -1) continue;
    const item = token.items[index] as Item;
    if (item.start.some((t) => t.type === 'explicit-key-ind')) return undefined;
    if (index === 0) {
      const colon = item.sep?.find((t) => t.type === 'map-value-ind');
      return colon && { offset: colon.offset, message: MAPPING_VALUES };
    }
    // libyaml requires a key at the mapping's indentation to end on the line it starts on,
    // and stops at the first token it scans on a later line.
    const start = itemStart(item) as number;
    const line = lineEnd(text, start);
    const later = [
      ...item.start.filter((t) => !TRIVIA.has(t.type)).map((t) => t.offset),
      ...tokenStarts(item.key),
      ...(item.sep ?? []).filter((t) => !TRIVIA.has(t.type)).map((t) => t.offset),
      ...tokenStarts(item.value),
    ].find((offset) => offset > line);
    return later === undefined ? undefined : { offset: later, message: "could not find expected ':'" };
  }
  return undefined;
}

/**
 * A flow sequence's pair whose key the library refused at `at` (over two lines, or over 1024
 * characters): where libyaml no longer holds the key possible at its `:` (simpleKeyGivenUp),
 * the key is an entry of its own and the parser refuses the `:`.
 */
function flowKeyGivenUp(cst: CST.Document, at: number, text: string): LibyamlRefusal | undefined {
  for (const { token } of collections(cst)) {
    if (token.type !== 'flow-collection' || closeOf(token) !== ']') continue;
    for (const [index, item] of token.items.entries()) {
      const start = itemStart(item);
      const colon = item.sep?.find((t) => t.type === 'map-value-ind');
      if (start === undefined || !colon || at < start || at > colon.offset) continue;
      // An entry with no `,` before it: the parser stops where it starts.
      if (index > 0 && !item.start.some((t) => t.type === 'comma'))
        return { offset: start, message: entryEndExpected(']') };
      if (item.start.some((t) => t.type === 'explicit-key-ind') || !simpleKeyGivenUp(text, start, colon.offset))
        return undefined;
      return { offset: colon.offset, message: entryEndExpected(']') };
    }
  }
  return undefined;
}

/** The offset of the line break ending the line `offset` is on (the text's length on the last). */
function lineEnd(text: string, offset: number): number {
  const end = text.indexOf('\n', offset);
  return end === -1 ? text.length : end;
}

/** Where each token libyaml scans in `token` starts, in text order. */
function tokenStarts(token: CST.Token | null | undefined): number[] {
  if (!token) return [];
  switch (token.type) {
    case 'block-map':
    case 'block-seq':
    case 'flow-collection': {
      const out: number[] = token.type === 'flow-collection' ? [token.start.offset] : [];
      for (const item of token.items as Item[]) {
        out.push(...item.start.filter((t) => !TRIVIA.has(t.type) || t.type === 'comma').map((t) => t.offset));
        out.push(...tokenStarts(item.key));
        out.push(...(item.sep ?? []).filter((t) => !TRIVIA.has(t.type)).map((t) => t.offset));
        out.push(...tokenStarts(item.value));
      }
      if (token.type === 'flow-collection')
        out.push(...token.end.filter((t) => !TRIVIA.has(t.type) || t.type === 'comma').map((t) => t.offset));
      return out;
    }
    case 'block-scalar':
      return [...token.props.flatMap((p) => tokenStarts(p)), token.offset];
    case 'space':
    case 'newline':
    case 'comment':
    case 'byte-order-mark':
      return [];
    default:
      return [token.offset];
  }
}

/** `{a: ? b}`: the `?` where the value stands starts no node for libyaml (after properties, ends none). */
function valueExpected(cst: CST.Document, at: number): LibyamlRefusal | undefined {
  for (const { token } of collections(cst)) {
    if (token.type !== 'flow-collection' || token.start.source !== '{') continue;
    const index = token.items.findIndex((item) => item.key?.offset === at || itemStart(item) === at);
    if (index < 1) continue;
    const question = token.items[index]?.start.find((t) => t.type === 'explicit-key-ind');
    const before = token.items[index - 1] as Item;
    const valueless = before.sep?.some((t) => t.type === 'map-value-ind') && !before.value;
    if (!question || !valueless) return undefined;
    // After properties (`{a: &b ? x}`) the value is their empty node, complete: an entry's end is expected.
    const props = before.sep?.some((t) => t.type === 'anchor' || t.type === 'tag');
    return { offset: question.offset, message: props ? entryEndExpected('}') : NODE_EXPECTED };
  }
  return undefined;
}

/** A block collection on the line of `---`: libyaml stops at its first indicator. */
function afterMarker(cst: CST.Document, at: number): LibyamlRefusal | undefined {
  const value = cst.value;
  if (value?.type === 'block-seq') {
    const dash = value.items[0]?.start.find((t) => t.type === 'seq-item-ind');
    return dash && { offset: dash.offset, message: 'block sequence entries are not allowed in this context' };
  }
  if (value?.type === 'block-map')
    return innerMapping(cst, value.items[0] ? (itemStart(value.items[0]) ?? at) : at, false);
  return undefined;
}

const NO_TOKEN = 'found character that cannot start any token';

/**
 * An indicator after a node's properties on their line (`- &a ? x`, `&a? x`, `[&a ? x]`,
 * `{a: &b : x}`, `- &a - x`): to libyaml the properties are an empty node's, complete, and
 * the indicator stands where its parser expects the collection's next entry (in a flow
 * collection) or where its scanner allows no block key or entry (in block context).
 */
function indicatorAfterProperties(cst: CST.Document, at: number, text: string): LibyamlRefusal | undefined {
  const indicator = text[at];
  const path = pathTo(cst, at);
  const flow = path?.filter((c): c is CST.FlowCollection => c.type === 'flow-collection').at(-1);
  if (flow && (indicator === '?' || indicator === ':' || indicator === '-'))
    return { offset: at, message: entryEndExpected(closeOf(flow)) };
  if (flow || !/[ \t\n\r]|^$/.test(text.charAt(at + 1))) return undefined;
  if (indicator === '?') return { offset: at, message: 'mapping keys are not allowed in this context' };
  if (indicator === '-') return { offset: at, message: 'block sequence entries are not allowed in this context' };
  return undefined;
}

/** The first token after the property at `at` on its line (the text's length if none). */
function afterProperty(text: string, at: number): number {
  let i = at;
  while (i < text.length && !/[ \t\n\r]/.test(text[i] as string)) i++;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i;
}

/**
 * A block scalar's header with more than its indicators (`|x`, `|-+`, `|0`), refused at the
 * first character libyaml does not read as one: an indentation indicator `0` has words of its
 * own, anything else is met where a comment or the line break is expected.
 */
function blockScalarHeader(text: string, at: number): LibyamlRefusal | undefined {
  const header = /[|>][+-]?$/.exec(text.slice(Math.max(0, at - 2), at));
  if (!header) return { offset: at, message: 'did not find expected comment or line break' };
  if (text[at] === '0') return { offset: at, message: 'found an indentation indicator equal to 0' };
  return { offset: at, message: 'did not find expected comment or line break' };
}

/**
 * A token after a node that is complete (`k: !t *a`: the tag's node is empty and the alias
 * follows it; `'a' b`; a second node after the document's root): libyaml's parser says what
 * it expected there instead, in the collection the node closes an entry of. Only a token on
 * the node's own line is placed so (on a later line libyaml may have closed collections by
 * indentation first), except after the root node, where every token is unexpected.
 */
function nodeEnded(cst: CST.Document, at: number, text: string): LibyamlRefusal | undefined {
  const path = pathTo(cst, at);
  if (!path) return undefined;
  const owner = path.at(-1);
  if (!owner) return { offset: at, message: 'did not find expected <document start>' };
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  if (!/[^ \t]/.test(text.slice(lineStart, at))) return undefined;
  if (owner.type === 'flow-collection') return { offset: at, message: entryEndExpected(closeOf(owner)) };
  if (owner.type === 'block-map') return { offset: at, message: blockEntryExpected('mapping', false) };
  const parent = path.at(-2);
  const indentless = parent?.type === 'block-map' && columnOf(text, parent.offset) === columnOf(text, owner.offset);
  return { offset: at, message: blockEntryExpected('sequence', indentless) };
}

/**
 * The collections a token at `offset` stands in, outermost first (empty: at the document's
 * root, after its node); undefined if no token of the tree starts there.
 */
function pathTo(
  cst: CST.Document,
  offset: number,
): Array<CST.BlockMap | CST.BlockSequence | CST.FlowCollection> | undefined {
  const path: Array<CST.BlockMap | CST.BlockSequence | CST.FlowCollection> = [];
  const within = (tokens: readonly CST.Token[] | undefined) => tokens?.some((t) => t.offset === offset) ?? false;
  const find = (token: CST.Token | null | undefined): boolean => {
    if (!token) return false;
    if (token.offset === offset) return true;
    if ('end' in token && Array.isArray(token.end) && within(token.end)) return true;
    if (token.type === 'block-scalar') return within(token.props);
    if (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection') return false;
    path.push(token);
    for (const item of token.items as Item[])
      if (within(item.start) || find(item.key) || within(item.sep) || find(item.value)) return true;
    if (token.type === 'flow-collection' && within(token.end)) return true;
    path.pop();
    return false;
  };
  if (within(cst.start)) return undefined;
  if (find(cst.value)) {
    // The root node's own trailing tokens come after the document's node.
    return path;
  }
  return within(cst.end) ? [] : undefined;
}

/**
 * The tokens libyaml's parser reads after a node's tag, before it resolves the tag's handle:
 * the node's other properties, then one token more. The first fault the scanner finds there.
 */
function afterProperties(text: string, tag: number): LibyamlRefusal | undefined {
  let i = tag;
  while (i < text.length && !/[ \t\n]/.test(text[i] as string)) i++;
  for (;;) {
    while (/[ \t\n]/.test(text[i] ?? '')) i++;
    if (text[i] === '#') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (text[i] === '!') {
      while (i < text.length && !/[ \t\n]/.test(text[i] as string)) i++;
      continue;
    }
    if (text[i] !== '&') break;
    let end = i + 1;
    while (/[0-9A-Za-z_-]/.test(text[end] ?? '')) end++;
    if (end === i + 1 || !/^(?:[ \t\n?:,\]}%@`]|$)/.test(text.charAt(end)))
      return { offset: end, message: 'did not find expected alphabetic or numeric character' };
    i = end;
  }
  return i < text.length && '%@`'.includes(text[i] as string) ? { offset: i, message: NO_TOKEN } : undefined;
}
