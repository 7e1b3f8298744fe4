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
 * libyaml's scanner reads a single- or double-quoted scalar up to its closing quote, its
 * continuation lines at any indentation, even none (`description: "a` / `b"` is `a b` to
 * Eva); only a document marker (`---`, `...`) at the start of a line ends it with an error.
 * The yaml library's lexer ends such a scalar at the first line indented no more than its
 * parent, so Skillgate refused ("Missing closing quote") a manifest Eva-CLI loads. This parse
 * is the library's `parseDocument` with that one rule of its lexer replaced; everything else,
 * the folding of the lines included, is the library's.
 */
export function parseLibyamlDocument(
  text: string,
  options: ParseOptions & DocumentOptions & SchemaOptions,
  /** Shown the first document's concrete tree before it is composed. */
  inspect?: (cst: CST.Document) => void,
): Document.Parsed {
  const parser = new Parser();
  // The parser's documented way to take another lexer is to be fed its lexemes.
  const lexemes = quotedScalarLexer().lex(text);
  let documents = 0;
  const seen = (token: CST.Token): CST.Token => {
    if (token.type === 'document' && documents++ === 0) inspect?.(token);
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

/** The lexer's internals this correction relies on (yaml 2.x). */
interface LexerInternals {
  buffer: string;
  pos: number;
  indentNext: number;
  continueScalar(offset: number): number;
}

function quotedScalarLexer(): Lexer {
  const lexer = new Lexer();
  const internals = lexer as unknown as LexerInternals;
  const continueScalar = internals.continueScalar;
  // Asked where a scalar's next line continues (-1: it does not): while a quoted scalar is
  // read, the lexer stands on its opening quote. A plain scalar cannot start with a quote, and
  // a block scalar's content asks only when its line is indented (a space there) or when
  // nothing is indented, where the library already ignores indentation.
  internals.continueScalar = function (this: LexerInternals, offset: number): number {
    const quote = this.buffer[this.pos];
    if (quote !== '"' && quote !== "'") return continueScalar.call(this, offset);
    return isDocumentMarker(this.buffer, offset) ? -1 : offset;
  };
  return lexer;
}

/** `---` or `...` at `offset`, followed by a space, a tab, a line break or the end. */
function isDocumentMarker(text: string, offset: number): boolean {
  const marker = text.substr(offset, 3);
  if (marker !== '---' && marker !== '...') return false;
  const next = text.charAt(offset + 3);
  return next === '' || next === ' ' || next === '\t' || next === '\n' || next === '\r';
}
