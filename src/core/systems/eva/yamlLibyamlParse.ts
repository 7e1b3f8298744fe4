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
  const seen = (token: CST.Token): CST.Token => {
    if (token.type === 'document') {
      separateLineStartComments(token, text);
      if (documents++ === 0) inspect?.(token, text);
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
  if (text.endsWith('\\"')) unterminatedAtEnd(parsed, text);
  return parsed;
}

/**
 * A comment at the start of a line, first among an item's tokens in a flow collection: the
 * line break before it closed the value before, so the library finds no white space before
 * the `#`. An empty space token in front says there is, for the composer.
 */
function separateLineStartComments(doc: CST.Document, text: string): void {
  const walk = (token: CST.Token | null | undefined): void => {
    if (!token || !('items' in token)) return;
    for (const item of token.items) {
      if (token.type === 'flow-collection')
        for (const tokens of [item.start, item.sep]) {
          const first = tokens?.[0];
          if (first?.type === 'comment' && (first.offset === 0 || text[first.offset - 1] === '\n'))
            tokens?.unshift({ type: 'space', offset: first.offset, indent: 0, source: '' });
        }
      walk(item.key);
      walk(item.value);
    }
  };
  walk(doc.value);
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
}

/**
 * The library's lexer with two of its rules replaced, on the prototype of a class of its own:
 * an accessor defined on each lexer made every property of it slow to read (a third more time
 * to parse a large manifest).
 */
class LibyamlLexer extends Lexer {}

const libraryContinueScalar = (Lexer.prototype as unknown as LexerInternals).continueScalar;

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
