import { CST } from 'yaml';
import {
  FirstRefusal,
  NODE_EXPECTED,
  blockEntryExpected,
  closeOf,
  entryEndExpected,
  type LibyamlRefusal,
} from './yamlRefusal';

/** libyaml's words where no token may start. */
const NO_TOKEN = 'found character that cannot start any token';

/**
 * Where libyaml 0.2.5 (serde_yaml 0.9, Eva's parser; eva.md §2.1) reads the key indicators
 * `?` and `:` otherwise than the yaml library, so Skillgate said "registered" for a manifest
 * Eva-CLI refuses, or read another key than Eva's:
 *
 * - a block mapping's entry is a key, then `:` and a value: lines the library kept as the value
 *   of an explicit key with no `:` (` ? a: b` then `  c: d`, less indented than `a`) and then
 *   dropped are no key to libyaml ("did not find expected key");
 * - libyaml has no empty implicit key: a `:` with no key before it, no `?` and no anchor or
 *   tag, is met where a key is expected (block context: `: a`, `k: v` then a line `: a`,
 *   `- : a`: "did not find expected key") or a node (flow context: `{: a}`, `[a, : b]`:
 *   "did not find expected node content");
 * - in a flow collection `?` and `:` are indicators even when a character other than a space
 *   follows them. `{?a: 1}` is the key `a` and `[?a]` the pair `a: null` (the yaml library
 *   read the text `?a`); `[a, :b]` is refused, as is a `?` where a value stands
 *   (`{a: ?b}`, `[? ?a]`) or after an anchor or tag (`[&x ?a]`: "did not find expected ','
 *   or ']'"), and a `:` a plain scalar is followed by at once, itself followed by a flow
 *   indicator (`{b:[x]}`: "found unexpected ':'").
 *
 * Works on the parser's concrete tree before it is composed (its items keep the `?`, the `:`
 * and the properties they were written with): a `?` key read as libyaml reads it is rewritten
 * in place into the explicit key the library composes; the first refused place in the text is
 * returned, in libyaml's words. A flow `?` before a quote, a comment or properties (`[?"q"]`,
 * `[?&a x]`) is already an indicator: the lexer pushes it (yamlLibyamlParse.ts).
 */
export function readKeyIndicators(cst: CST.Document, text: string): LibyamlRefusal | undefined {
  const found = new FirstRefusal();
  const refuse = (offset: number, message: string, at = offset) => found.refuse(offset, message, at);
  // Items in text order, each before what its key and value hold.
  const walk = (token: CST.Token | null | undefined): void => {
    if (!token || !('items' in token)) return;
    const flowCollection = token.type === 'flow-collection' ? token : undefined;
    const flow = flowCollection !== undefined;
    for (const item of token.items) {
      if (item.key === null && !keyWritten(item)) {
        const indicator = item.sep?.find((t) => t.type === 'map-value-ind');
        if (indicator) refuse(indicator.offset, flow ? NODE_EXPECTED : blockEntryExpected('mapping', false));
      }
      // A value with no `:` before it: the lines after an explicit key's collection, indented
      // less than its first entry (` ? a: b` then `  c: d`). The library keeps them as a value
      // and then drops them; libyaml finds no key there.
      if (token.type === 'block-map' && item.value && !item.sep?.some((t) => t.type === 'map-value-ind'))
        refuse(item.value.offset, blockEntryExpected('mapping', false));
      if (flowCollection) {
        const explicit = item.start.some((t) => t.type === 'explicit-key-ind');
        const props = item.start.some((t) => t.type === 'anchor' || t.type === 'tag');
        // The node where a key or a sequence entry starts (an entry of a pair written `[a: b]` is its key).
        const entry = plainScalar(item.key ?? (item.sep ? undefined : item.value));
        const led = entry?.source.charAt(0);
        if (entry && led === ':') refuse(entry.offset, NODE_EXPECTED);
        else if (entry && led === '?') {
          if (explicit) refuse(entry.offset, NODE_EXPECTED);
          else if (props) refuse(entry.offset, entryEndExpected(closeOf(flowCollection)));
          // `[??a]`: a second key indicator where the first one's key should start.
          else if (entry.source.charAt(1) === '?') refuse(entry.offset + 1, NODE_EXPECTED);
          else if (startsPlainScalar(entry.source.slice(1), text.charAt(entry.offset + 2))) asExplicitKey(item, entry);
          // `[?- x]`: a `-` before white space is a block entry, no node; `[?|]`: no token starts at `|`.
          else if (entry.source.charAt(1) === '-') refuse(entry.offset + 1, NODE_EXPECTED);
          else if ('|>%@`'.includes(entry.source.charAt(1))) refuse(entry.offset + 1, NO_TOKEN);
        }
        // Properties after a key with no `:` between (`{'a' &x}`): they start another node, where
        // libyaml's parser expects the entry's `,` or the close. The library gave them to an empty
        // value. The parser meets them once the scanner has read the line on to a flow indicator
        // (the key before them might still end at a `:`): a fault it scans there comes first.
        const afterKey = item.sep?.find((t) => t.type !== 'space' && t.type !== 'newline' && t.type !== 'comment');
        if (item.key && (afterKey?.type === 'anchor' || afterKey?.type === 'tag'))
          refuse(afterKey.offset, entryEndExpected(closeOf(flowCollection)), simpleKeyEnd(text, afterKey.offset));
        const question = item.start.find((t) => t.type === 'explicit-key-ind');
        const skipped =
          question && closeOf(flowCollection) === ']' ? tokenSkippedAfterKey(text, question.offset) : undefined;
        if (skipped !== undefined) refuse(skipped, entryEndExpected(']'));
        // A value after `:` (an entry written alone was taken above).
        const value = plainScalar(item.sep ? item.value : undefined);
        if (value && /^[?:]/.test(value.source)) refuse(value.offset, NODE_EXPECTED);
        for (const scalar of [plainScalar(item.key), plainScalar(item.value)]) {
          const colon = scalar && colonBeforeFlowIndicator(scalar, text);
          if (colon !== undefined) refuse(colon, "found unexpected ':'");
        }
        // After the scanner's own faults at the same place (`{a` then `:,}`): the parser's.
        const indicator = item.sep?.find((t) => t.type === 'map-value-ind');
        const keyStart = item.start.find((t) => t.type === 'anchor' || t.type === 'tag')?.offset ?? item.key?.offset;
        if (indicator && !question && keyStart !== undefined && simpleKeyGivenUp(text, keyStart, indicator.offset))
          refuse(indicator.offset, entryEndExpected(closeOf(flowCollection)));
      }
      walk(item.key);
      walk(item.value);
    }
  };
  walk(cst.value);
  return found.first;
}

/**
 * A flow sequence's `?` followed by no key, only a `]`, `,` or `:` (`[?]`, `[? , a]`,
 * `[? : a]`): libyaml 0.2.5's parser reads the empty key and then skips the token after the
 * `?` (its yaml_parser_parse_flow_sequence_entry_mapping_key consumes the token it only
 * peeked), so the `]` closes nothing, the `,` separates nothing, the `:` introduces no value.
 * Where libyaml then expects the sequence's `,` or `]` and finds another token, it refuses
 * there: the start of that token, returned (the end of the text if none). After a `,` or `:`,
 * a `,` or `]` is what it expects (`[?,]`, `[? :, a]`: read as the library reads them), and
 * a second `:` is a value it reads (`[? , : a]`, left to the library, which refuses it).
 */
function tokenSkippedAfterKey(text: string, question: number): number | undefined {
  const skipped = nextTokenAt(text, question + 1);
  const ch = text[skipped];
  if (ch !== ']' && ch !== ',' && ch !== ':') return undefined;
  const after = nextTokenAt(text, skipped + 1);
  if (ch !== ']' && after < text.length && ',]:'.includes(text[after] as string)) return undefined;
  return after;
}

/** The start of the first token at or after `from`: past white space, line breaks and comments. */
function nextTokenAt(text: string, from: number): number {
  let at = from;
  for (;;) {
    while (at < text.length && ' \t\n\r'.includes(text[at] as string)) at++;
    if (text[at] !== '#') return at;
    while (at < text.length && text[at] !== '\n' && text[at] !== '\r') at++;
  }
}

/**
 * Text libyaml starts a plain scalar with after its `?` token in flow context: not an
 * indicator, or a `-` with no blank after it (`{?-}` is the key `-`: `next` is the text's
 * character after that `-`, where the library's scalar ended at a flow indicator).
 */
function startsPlainScalar(text: string, next: string): boolean {
  if (text === '-') return next !== '' && !/\s/.test(next);
  return /^(?:[^\s\-?:,[\]{}#&*!|>'"%@`]|-[^\s])/u.test(text);
}

/**
 * libyaml 0.2.5 refuses a `:` directly followed by `,`, `?`, `[`, `]`, `{` or `}` in a plain
 * scalar in flow context, `{b:[x]}` and `[a:,b]`: where the scalar's text holds one, or its
 * text ends where one starts (the library read `b` as a key and `[x]` as its value).
 */
function colonBeforeFlowIndicator(scalar: CST.FlowScalar, text: string): number | undefined {
  const inside = /:[,?[\]{}]/.exec(scalar.source);
  if (inside) return scalar.offset + inside.index;
  // libyaml's plain scalar reads on over white space and line breaks, and checks the `:` where
  // the next text starts as it checks one inside (`{a :,}`, `{a` then a line `:,}`); a `#`
  // there ends the scalar first.
  let end = scalar.offset + scalar.source.length;
  while (end < text.length && ' \t\n\r'.includes(text[end] as string)) end++;
  return text[end] === ':' && ',?[]{}'.includes(text[end + 1] ?? ' ') ? end : undefined;
}

/**
 * libyaml's scanner holds a simple key (one with no `?`) possible only while it stays on the
 * line the key starts on (at its first property, if any), and within 1024 characters of its
 * start (yaml_parser_stale_simple_keys). A `:` met later than that in a flow collection is
 * a value with no key: the key written before it is an entry of its own, complete, and the
 * parser refuses the `:` where the entry's `,` or the close should stand (`{a` then a line
 * `b: c`; a key of 1025 characters). The library read the key.
 */
export function simpleKeyGivenUp(text: string, start: number, colon: number): boolean {
  const key = text.slice(start, colon);
  if (key.includes('\n') || key.includes('\r')) return true;
  // libyaml counts characters, not UTF-16 units: count only what may be over.
  return key.length > MAX_SIMPLE_KEY_CHARACTERS && [...key].length > MAX_SIMPLE_KEY_CHARACTERS;
}

const MAX_SIMPLE_KEY_CHARACTERS = 1024;

/**
 * Just past the first flow indicator or line break at or after `from`: a pending simple key ends
 * there at the latest, once the scanner has read the token before it (`{'a' !t}`: the tag's fault
 * stands at the `}`).
 */
function simpleKeyEnd(text: string, from: number): number {
  const end = /[,[\]{}\n\r]/.exec(text.slice(from));
  return end ? from + end.index + 1 : text.length;
}

function plainScalar(token: CST.Token | null | undefined): CST.FlowScalar | undefined {
  return token?.type === 'scalar' ? token : undefined;
}

/** `?a` as libyaml tokenizes it: the indicator, then the key `a` (a pair's key, or an entry's). */
function asExplicitKey(item: CST.CollectionItem, scalar: CST.FlowScalar): void {
  item.start.push({ type: 'explicit-key-ind', offset: scalar.offset, indent: 0, source: '?' });
  const key: CST.FlowScalar = { ...scalar, offset: scalar.offset + 1, source: scalar.source.slice(1) };
  if (item.key) item.key = key;
  else {
    item.key = key;
    item.sep = [];
    delete item.value;
  }
}

/**
 * A `?` before the key, or a key of properties alone (`&a : b`, `!!str : b`: libyaml's simple
 * key starts at the anchor or tag, its node an empty scalar): the item's own flag, or among
 * the tokens before the `:`.
 */
function keyWritten(item: CST.CollectionItem): boolean {
  return (
    ('explicitKey' in item && item.explicitKey === true) ||
    item.start.some((t) => t.type === 'explicit-key-ind' || t.type === 'anchor' || t.type === 'tag')
  );
}
