import {
  CST,
  Composer,
  Lexer,
  Parser,
  Scalar,
  YAMLParseError,
  visit,
  type Document,
  type DocumentOptions,
  type ParseOptions,
  type SchemaOptions,
} from 'yaml';
import { addTagDirective, decodeTagEscapes } from './yamlDecodedTags';
import { dropKeyLengthErrorsLibyamlHolds } from './yamlKeyLength';

/**
 * The yaml library's `parseDocument`, with the few rules of its lexer and parser replaced
 * where libyaml's scanner (serde_yaml 0.9, Eva's parser; eva.md §2.1) reads a text Eva-CLI
 * loads that the library refused; everything else, the folding of lines included, is the
 * library's:
 *
 * - a single- or double-quoted scalar goes on up to its closing quote, its continuation lines
 *   at any indentation, even none (`description: "a` / `b"` is `a b` to Eva); only a document
 *   marker (`---`, `...`) at the start of a line ends it, with an error. The library ended it
 *   at the first line indented no more than its parent ("Missing closing quote");
 * - inside a flow collection no indentation is checked: its lines, and a plain scalar's
 *   continuation lines there, may start in any column (`k: [a,` then `b]`). The library
 *   ended the collection there ("must be sufficiently indented");
 * - a comment that starts a line inside a flow collection (`{a: b` then `# c` then `}`):
 *   the library took the line break before it for the value's and asked for white space.
 */
export function parseLibyamlDocument(
  text: string,
  options: ParseOptions & DocumentOptions & SchemaOptions,
  /** Shown the first document's concrete tree before it is composed. */
  inspect?: (cst: CST.Document, text: string) => void,
): Document.Parsed {
  const parser = new Parser();
  // The parser's documented way to take another lexer is to be fed its lexemes.
  const lexemes = libyamlLexer().lex(text);
  let documents = 0;
  let first: CST.Document | undefined;
  // The `%TAG` prefixes declared before the first document.
  const prefixes = new Map<string, string>();
  const seen = (token: CST.Token): CST.Token => {
    if (token.type === 'directive' && documents === 0) addTagDirective(token.source, prefixes);
    if (token.type === 'document') {
      readAsLibyaml(token, text);
      if (documents++ === 0) {
        first = token;
        inspect?.(token, text);
        decodeTagEscapes(token, prefixes);
      }
    }
    return token;
  };
  const tokens = (function* () {
    for (const lexeme of lexemes) for (const token of parser.next(lexeme)) yield seen(token);
    for (const token of parser.end()) yield seen(token);
  })();
  let doc: Document.Parsed | undefined;
  for (const next of new Composer(options).compose(tokens, true, text.length)) {
    if (!doc) doc = next;
    else {
      // As parseDocument does: a second document is an error of the first.
      doc.errors.push(
        new YAMLParseError([next.range[0], next.range[1]], 'MULTIPLE_DOCS', 'Source contains multiple documents'),
      );
      break;
    }
  }
  // compose(…, forceDoc = true) yields a document even for an empty text.
  const parsed = doc as Document.Parsed;
  if (first) dropKeyLengthErrorsLibyamlHolds(parsed, first, text);
  if (text.endsWith('\\"')) unterminatedAtEnd(parsed, text);
  return parsed;
}

/**
 * The concrete tree's readings that libyaml makes otherwise than the library, in one pass:
 * each collection's entries as `blockScalarValueAtKeyIndent` regroups them, then each entry's
 * comments, properties and anchor, before what its key and value hold (the properties an
 * entry gives its value's first key are that key's before that key is looked at).
 */
function readAsLibyaml(doc: CST.Document, text: string): void {
  const separate = (tokens: CST.Token[] | undefined) => separateComments(tokens, text);
  const walk = (token: CST.Token | null | undefined): void => {
    if (!token) return;
    if ('props' in token) separate(token.props);
    if ('end' in token && Array.isArray(token.end)) separate(token.end);
    if (!('items' in token)) return;
    if (token.type === 'block-map') blockScalarValuesAtKeyIndent(token);
    for (const item of token.items) {
      separate(item.start);
      separate(item.sep);
      propertiesOfEmptyKey(item);
      separateAnchorFromValue(item);
      separateAnchorFromText(item.start, item.key ?? (item.sep ? undefined : item.value));
      separateAnchorFromText(item.sep, item.value);
      walk(item.key);
      walk(item.value);
    }
  };
  separate(doc.start);
  separateAnchorFromText(doc.start, doc.value);
  walk(doc.value);
  separate(doc.end);
}

/**
 * Comments libyaml reads where the library asks for white space before the `#`. libyaml skips
 * white space and comments between any two tokens, and needs no white space before a `#`
 * that cannot belong to the token before it: after a flow indicator, a closing quote or a
 * block scalar's header (`k: {#c`, `k: "v"#c`, `k: |#c`). In a flow collection, a comment
 * that starts a line is such a case for the library too: the line break before it closed the
 * value before. An empty space token in front says there is white space, for the composer.
 * (A `#` right after a plain scalar, a tag, an anchor or an alias is part of it, for both.)
 */
function separateComments(tokens: CST.Token[] | undefined, text: string): void {
  if (!tokens) return;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as CST.Token;
    if (token.type === 'comment' && token.offset > 0 && !/[ \t]/.test(text.charAt(token.offset - 1)))
      tokens.splice(i++, 0, { type: 'space', offset: token.offset, indent: 0, source: '' });
  }
}

/**
 * Properties at the start of a line, followed on that line by a `:` with no key (`k:` then
 * `  &a : x`): to libyaml a simple key starts at the properties, so they are the empty key's,
 * and the mapping `{null: x}` is k's value. The library gave them to k's value, a mapping whose
 * first key then had nothing written before its `:`, and refused it. They move to that key.
 */
function propertiesOfEmptyKey(item: CST.CollectionItem): void {
  const inner = item.value?.type === 'block-map' ? item.value.items[0] : undefined;
  const sep = item.sep;
  if (!sep || !inner || inner.key != null || inner.start.length > 0 || inner.sep?.[0]?.type !== 'map-value-ind') return;
  // The properties (and spaces) after the last line break of the separator.
  let from = sep.length;
  while (from > 0 && ['anchor', 'tag', 'space'].includes((sep[from - 1] as CST.SourceToken).type)) from--;
  const moved = sep.slice(from);
  if (from > 0 && sep[from - 1]?.type === 'newline' && moved.some((t) => t.type !== 'space'))
    inner.start.push(...sep.splice(from));
}

/**
 * An anchor the lexer ended at a `:` (`&a: x`, see `pushUntil` below) names the empty key
 * before that `:`, as `&a : x` does: the library asks for white space after an anchor, which
 * libyaml does not. An empty space token between them says there is, for the composer.
 */
function separateAnchorFromValue(item: CST.CollectionItem): void {
  const first = item.sep?.[0];
  const last = item.start.at(-1);
  if (
    item.key == null &&
    first?.type === 'map-value-ind' &&
    last?.type === 'anchor' &&
    last.offset + last.source.length === first.offset
  )
    item.sep?.unshift({ type: 'space', offset: first.offset, indent: 0, source: '' });
}

/**
 * An anchor the lexer ended at a `?` or a `:` that starts the text of its node (`&a:x`,
 * `&a?x`, see `pushUntil` below): libyaml reads the anchor `a` on the text `:x`, where the
 * library asks for white space after an anchor. An empty space token between them says there
 * is, for the composer.
 */
function separateAnchorFromText(tokens: CST.Token[] | undefined, node: CST.Token | null | undefined): void {
  const last = tokens?.at(-1);
  if (
    last?.type === 'anchor' &&
    node?.type === 'scalar' &&
    node.offset === last.offset + last.source.length &&
    /^[?:]/.test(node.source)
  )
    tokens?.push({ type: 'space', offset: node.offset, indent: 0, source: '' });
}

/**
 * A key with no value on its line, then a block scalar's header at the key's own indentation
 * (`k:` then `|` in the same column, then the text indented): libyaml ends a block mapping's
 * value only at a line indented less than its keys, and no simple key starts at `|` or `>`, so
 * the block scalar is the key's value. The library took it for the next key ("Implicit keys need
 * to be on a single line"). Properties before the header (`!t |`) start a key to libyaml too:
 * those stay refused.
 */
function blockScalarValuesAtKeyIndent(map: CST.BlockMap): void {
  const trivia = (t: CST.SourceToken) => t.type === 'newline' || t.type === 'space' || t.type === 'comment';
  for (let i = 1; i < map.items.length; i++) {
    const item = map.items[i] as CST.BlockMap['items'][number];
    const before = map.items[i - 1] as CST.BlockMap['items'][number];
    // The library nests the keys after the block scalar in a mapping of the same indentation,
    // as that key's value: they are the outer mapping's next keys.
    const rest = item.value?.type === 'block-map' && item.value.indent === map.indent ? item.value : undefined;
    if (
      item.key?.type === 'block-scalar' &&
      (!item.value || rest) &&
      item.start.every(trivia) &&
      (item.sep ?? []).every(trivia) &&
      !before.value &&
      before.sep?.some((t) => t.type === 'map-value-ind')
    ) {
      before.sep.push(...item.start);
      before.value = item.key;
      // What stands after the block scalar (the next key's indentation, empty lines) goes
      // before the next key, or stays as an item of its own, as the library keeps trailing lines.
      const after = item.sep ?? [];
      const next = rest ? rest.items[0] : map.items[i + 1];
      if (next) next.start.unshift(...after);
      map.items.splice(i--, 1, ...(rest ? rest.items : !next && after.length > 0 ? [{ start: after }] : []));
    }
  }
}

/**
 * A double-quoted scalar the text ends inside of, its last character an escaped quote
 * (`a: "x\"`): the library takes that quote for the closing one and reads `x"`; libyaml finds
 * the end of the stream ("found unexpected end of stream").
 */
function unterminatedAtEnd(doc: Document.Parsed, text: string): void {
  visit(doc, {
    Scalar(_key, node) {
      if (node.type !== Scalar.QUOTE_DOUBLE || node.range?.[1] !== text.length) return;
      let slashes = 0;
      while (text[text.length - 2 - slashes] === '\\') slashes++;
      if (slashes % 2 === 1)
        doc.errors.push(new YAMLParseError([text.length, text.length], 'MISSING_CHAR', 'Missing closing "quote'));
    },
  });
}

/** The lexer's internals these corrections rely on (yaml 2.x). */
interface LexerInternals {
  buffer: string;
  pos: number;
  flowLevel: number;
  indentNext: number;
  /** Where this lexer keeps the `indentNext` block context sets. */
  blockIndentNext: number;
  continueScalar(offset: number): number;
  pushUntil(test: (ch: string | undefined) => boolean): Generator<string, number>;
  pushIndicators(): Generator<string, number>;
  pushCount(n: number): Generator<string, number>;
  pushSpaces(allowTabs: boolean): Generator<string, number>;
  pushToIndex(i: number, allowEmpty: boolean): Generator<string, number>;
  pushTag(): Generator<string, number>;
  indentValue: number;
  flowKey: boolean;
}

/**
 * The library's lexer with two of its rules replaced, on the prototype of a class of its own:
 * an accessor defined on each lexer made every property of it slow to read (a third more time
 * to parse a large manifest).
 */
class LibyamlLexer extends Lexer {}

const libraryContinueScalar = (Lexer.prototype as unknown as LexerInternals).continueScalar;
const libraryPushUntil = (Lexer.prototype as unknown as LexerInternals).pushUntil;

/** The library's test for the end of an anchor or alias name (`pushUntil` above knows it by its answers). */
const isNotAnchorChar = (ch: string | undefined) => ch === undefined || ' ,[]{}\n\r\t'.includes(ch);

Object.defineProperties(LibyamlLexer.prototype, {
  // Asked where a scalar's next line continues (-1: it does not): while a quoted scalar is
  // read, the lexer stands on its opening quote. A plain scalar cannot start with a quote, and
  // a block scalar's content asks only when its line is indented (a space there) or when
  // nothing is indented, where the library already ignores indentation.
  continueScalar: {
    value(this: LexerInternals, offset: number): number {
      const quote = this.buffer[this.pos];
      if (quote !== '"' && quote !== "'") return libraryContinueScalar.call(this, offset);
      return isDocumentMarker(this.buffer, offset) ? -1 : offset;
    },
  },
  // An anchor or alias name is read up to a character the library does not take in a name
  // (white space, `,[]{}`), so `*a: x` was the alias `a:` followed by nothing it could read.
  // libyaml's names hold letters, digits, `-` and `_`, and one ends at a `:` or a `?`, whatever
  // follows it: `*a: x` is the alias `a` as a key; `&a: x` is the anchor `a` on an empty key;
  // `&a:x` and `&a?x` are the anchor `a` on the text `:x` or `?x` (in block context; in a flow
  // collection a `:` is a value indicator). Other characters in a name are refused by
  // yamlProperties.ts.
  pushUntil: {
    value(this: LexerInternals, test: (ch: string | undefined) => boolean): Generator<string, number> {
      const { buffer, pos } = this;
      // The lexer asks for a name only after `&` or `*`, with this test: it stops at `,`, not `:`.
      if ((buffer[pos] === '&' || buffer[pos] === '*') && test(',') && !test(':')) {
        const end = libyamlNameEnd(buffer, pos + 1);
        const pushed =
          end > pos + 1 && (buffer[end] === ':' || buffer[end] === '?')
            ? this.pushToIndex(end, false)
            : libraryPushUntil.call(this, test);
        // After an alias in a flow collection, a `:` is the value indicator (`[*a :x]`, `{*a:x}`),
        // as after a quoted scalar: the library read the text `:x`.
        return buffer[pos] === '*' && this.flowLevel > 0 ? keyBefore(this, pushed) : pushed;
      }
      return libraryPushUntil.call(this, test);
    },
  },
  // The properties and indicators before a node, as the library pushes them, with libyaml's
  // rules for a `-` and a `?` in a flow collection:
  // - `-` is an indicator only before white space: `[-, x]` and `{a: -}` hold the text `-`
  //   (the library took it for a block sequence's indicator and refused them);
  // - `?` is the key indicator whatever follows it; the library took it for one only before
  //   white space or a flow indicator, and read `[?"q"]` as the text `?"q"`. Before a quote, a
  //   comment or properties it is pushed here (`?a` is rewritten by yamlKeyIndicators.ts).
  pushIndicators: {
    *value(this: LexerInternals): Generator<string, number> {
      let n = 0;
      let before: Before = 'nothing';
      for (;;) {
        const ch = this.buffer[this.pos];
        const next = this.buffer[this.pos + 1];
        if (ch === '!') n += yield* this.pushTag();
        else if (ch === '&') n += yield* this.pushUntil(isNotAnchorChar);
        else if (ch === '-' || ch === '?' || ch === ':') {
          if (!indicatorAt(ch, next, this.flowLevel > 0, before)) return n;
          if (this.flowLevel === 0) this.indentNext = this.indentValue + 1;
          else this.flowKey = false;
          n += yield* this.pushCount(1);
        } else return n;
        before = ch === '!' || ch === '&' ? 'properties' : ch === '?' ? 'key' : 'indicator';
        n += yield* this.pushSpaces(true);
      }
    },
  },
  // Inside a flow collection libyaml checks no indentation (only a document marker at the
  // start of a line ends it). The lexer reads the indentation a line needs from `indentNext`,
  // which block context alone sets: inside a flow collection it reads none.
  indentNext: {
    get(this: LexerInternals): number {
      return this.flowLevel > 0 ? 0 : this.blockIndentNext;
    },
    set(this: LexerInternals, value: number) {
      this.blockIndentNext = value;
    },
  },
});

/** Pushes `name`, then tells the lexer that a `:` after it is the value indicator. */
function* keyBefore(lexer: LexerInternals, name: Generator<string, number>): Generator<string, number> {
  const n = yield* name;
  lexer.flowKey = true;
  return n;
}

/** White space, a line break or the end, after which the library reads `-`, `?` and `:` as indicators. */
function isEmpty(ch: string | undefined): boolean {
  return ch === undefined || ch === ' ' || ch === '\n' || ch === '\r' || ch === '\t';
}

/** What the lexer pushed before, among a node's properties and indicators. */
type Before = 'nothing' | 'properties' | 'key' | 'indicator';

/**
 * A `-`, `?` or `:` the lexer pushes as an indicator: before white space; in a flow collection
 * also `?` and `:` before a flow indicator, a `?` that comes first (nothing pushed before it)
 * before a quote, `#`, `&`, `!`, `*` or `:`, and a `:` after properties or a `?` (`[&a:x]`,
 * `{?:x}`: libyaml reads a `:` that starts a token in a flow collection as the value
 * indicator; the library read the text `:x`, or `?:x`). A `?` after another indicator or
 * properties (`{a: ?&b c}`, `[&x ?"a"]`) stays the library's text, which yamlKeyIndicators.ts
 * refuses in libyaml's words, as it does a `:` starting an entry or a value (`[a, :x]`).
 */
function indicatorAt(ch: '-' | '?' | ':', next: string | undefined, flow: boolean, before: Before): boolean {
  if (isEmpty(next)) return true;
  if (!flow || ch === '-') return false;
  if (ch === ':' && (before === 'properties' || before === 'key')) return true;
  return (
    ',[]{}'.includes(next as string) || (ch === '?' && before === 'nothing' && '"\'#&!*:'.includes(next as string))
  );
}

/** Where a name of libyaml's (letters, digits, `-`, `_`) that starts at `start` ends. */
function libyamlNameEnd(text: string, start: number): number {
  let end = start;
  while (end < text.length && /[0-9A-Za-z_-]/.test(text.charAt(end))) end++;
  return end;
}

function libyamlLexer(): Lexer {
  return new LibyamlLexer();
}

/** `---` or `...` at `offset`, followed by a space, a tab, a line break or the end. */
function isDocumentMarker(text: string, offset: number): boolean {
  const marker = text.substr(offset, 3);
  if (marker !== '---' && marker !== '...') return false;
  const next = text.charAt(offset + 3);
  return next === '' || next === ' ' || next === '\t' || next === '\n' || next === '\r';
}
