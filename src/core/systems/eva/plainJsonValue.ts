import { createScanner } from 'jsonc-parser';
import { emptyOwnRecord } from '../../documents/ownRecord';
import { resolveUntagged, scalarValue } from './yamlScalars';

/** jsonc-parser's token kinds (its `SyntaxKind`, a const enum that isolated modules cannot read). */
const SyntaxKind = {
  OpenBraceToken: 1,
  CloseBraceToken: 2,
  OpenBracketToken: 3,
  CloseBracketToken: 4,
  CommaToken: 5,
  ColonToken: 6,
  NullKeyword: 7,
  TrueKeyword: 8,
  FalseKeyword: 9,
  StringLiteral: 10,
  NumericLiteral: 11,
  EOF: 17,
} as const;

/**
 * serde_yaml's value of a JSON text that reads the same in both languages, without the YAML
 * reader; `undefined` where the text is not plainly such JSON, and the YAML reader must decide.
 *
 * Eva reads a schema file (`read_schema`) with serde_yaml, so Skillgate reads it with its
 * libyaml-exact reader (yamlDocument.ts). That reader builds a concrete tree with positions for
 * every diagnostic: on a 300 KB schema it takes half a second per index, where a schema needs
 * only its value. JSON is YAML's flow style, and libyaml reads it to the same value except where
 * this refuses the fast way: a character libyaml's reader refuses or reads as a line break (a
 * tab, NEL, LS, PS, a BOM past the first), a `\u` escape (libyaml refuses one of a surrogate),
 * a key whose `:` is on a later line or past the 1024 characters libyaml holds a simple key,
 * nesting near serde_yaml's recursion limit, and a key given twice (serde_yaml refuses it; the
 * caller's `JSON.parse` keeps the last). Scalars are typed as serde_yaml types them (`1.0` a
 * float, `1e400` a string), by the same resolution the YAML reader uses; mappings are
 * prototype-free records, as that reader builds them. `test/unit/eva.plainJsonValue.test.ts`
 * holds the two readings equal over generated JSON.
 *
 * `text` must be JSON that `JSON.parse` has taken: the scanner below does not check grammar.
 */
export function plainJsonValue(text: string): Record<string, unknown> | undefined {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // A document opening with anything but `{` (space, a line break) is left to the YAML reader:
  // rare in a schema, and what libyaml makes of it is not worth a second proof here.
  if (body.charCodeAt(0) !== 0x7b || OUTSIDE_PLAIN_JSON.test(body) || ESCAPE_OTHER_THAN_JSON_SHORT.test(body))
    return undefined;
  const scanner = createScanner(body, true);
  scanner.scan(); // the root's `{`
  const root = emptyOwnRecord<unknown>();
  // The collections open around the scanner, innermost last: the root until its `}`.
  const open: Array<unknown[] | Record<string, unknown>> = [root];
  // In a mapping, whether the next string is a key (after its `{` or a `,`) or a value (after a `:`).
  let awaitingKey = true;
  // The key read last in the innermost mapping, and where it starts (its `:` must be near).
  let key = '';
  let keyStart = 0;
  const innermost = () => open[open.length - 1] as unknown[] | Record<string, unknown>;
  const add = (value: unknown): void => {
    const container = innermost();
    if (Array.isArray(container)) container.push(value);
    else container[key] = value;
  };
  // JSON.parse took the text, so every token stands where JSON's grammar puts it.
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    switch (kind) {
      case SyntaxKind.OpenBraceToken:
      case SyntaxKind.OpenBracketToken: {
        const container = kind === SyntaxKind.OpenBraceToken ? emptyOwnRecord<unknown>() : [];
        add(container);
        if (open.push(container) > MAX_DEPTH) return undefined;
        awaitingKey = true;
        break;
      }
      case SyntaxKind.CloseBraceToken:
      case SyntaxKind.CloseBracketToken:
        open.pop();
        break;
      case SyntaxKind.CommaToken:
        awaitingKey = true;
        break;
      case SyntaxKind.StringLiteral: {
        const container = innermost();
        if (Array.isArray(container) || !awaitingKey) add(scanner.getTokenValue());
        else {
          key = scanner.getTokenValue();
          // serde_yaml refuses a mapping that repeats a key; the YAML reader words the refusal.
          if (Object.hasOwn(container, key)) return undefined;
          keyStart = scanner.getTokenOffset();
          awaitingKey = false;
        }
        break;
      }
      case SyntaxKind.ColonToken: {
        const span = body.slice(keyStart, scanner.getTokenOffset());
        if (span.length > MAX_KEY_SPAN || LINE_BREAK.test(span)) return undefined;
        break;
      }
      case SyntaxKind.NumericLiteral:
      case SyntaxKind.TrueKeyword:
      case SyntaxKind.FalseKeyword:
      case SyntaxKind.NullKeyword: {
        const scalar = resolveUntagged(scanner.getTokenValue(), true);
        if (scalar.kind === 'error') return undefined;
        add(scalarValue(scalar));
        break;
      }
      default:
        // No other token is JSON (jsonc-parser's Unknown): not plain.
        return undefined;
    }
  }
  return root;
}

/**
 * Anything but line feed, carriage return, printable ASCII and the printable characters libyaml
 * reads as themselves: so no tab, C0 or C1 control, DEL, NEL (U+0085), LS or PS (U+2028, U+2029,
 * line breaks to libyaml), BOM (U+FEFF), U+FFFE, U+FFFF, or lone surrogate.
 */
const OUTSIDE_PLAIN_JSON = /[^\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\u{10000}-\u{10ffff}]/u;
/** A backslash followed by anything but JSON's short escapes (`\u…` among them); an escaped `\` before a `u` too. */
const ESCAPE_OTHER_THAN_JSON_SHORT = /\\[^"\\/bfnrt]/;
const LINE_BREAK = /[\n\r]/;
/** Well inside libyaml's 1024 characters from a simple key's start to its `:` (UTF-16 units are never fewer). */
const MAX_KEY_SPAN = 1000;
/** Well inside serde_yaml's recursion limit of 128 (yamlLimits.ts). */
const MAX_DEPTH = 100;
