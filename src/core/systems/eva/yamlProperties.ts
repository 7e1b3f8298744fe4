import type { CST } from 'yaml';
import { FirstRefusal, type LibyamlRefusal } from './yamlRefusal';
import { firstRefusedEscape, verbatimTagEnd } from './yamlTagUri';

/**
 * A node's properties, anchors and tags, where libyaml 0.2.5 (serde_yaml 0.9, Eva's parser;
 * eva.md §2.1) scans them otherwise than the yaml library.
 *
 * libyaml names an anchor or an alias with ASCII letters, digits, `-` and `_` only, and the
 * name must end at white space or at one of `?:,]}%@` and the backquote. The yaml library takes any character but white space and
 * `,[]{}`, so `&defaults.v1` or `&café` was a name to Skillgate and an error to Eva
 * ("did not find expected alphabetic or numeric character", at the first other character);
 * and a name followed at once by `[` or `{` (`&x[1]`) one the library ends there.
 *
 * Where the name ends at `@` or the backquote, libyaml then finds no token ("found character
 * that cannot start any token"). Where it ends at a `:` or a `?` (`*a: x`, `&a:x`), the lexer
 * ends it there too (yamlLibyamlParse.ts), and the text after it is read as libyaml reads it.
 *
 * A tag ends where libyaml's URI characters end, which do not hold `#` (the library's do:
 * `!t#c` was one tag), and white space or the end must follow it, or a `,` in a flow
 * collection (`[!t]` is refused by libyaml, read by the library): "did not find expected
 * whitespace or line break", where the tag ends. Its `%`-escapes must be UTF-8 characters', and
 * a verbatim tag `!<…>` holds URI characters only, one at least (yamlTagUri.ts).
 */
export function firstRefusedProperty(cst: CST.Document, text: string): LibyamlRefusal | undefined {
  const found = new FirstRefusal();
  const refuse = (offset: number, message: string) => found.refuse(offset, message);
  const checkName = (token: CST.SourceToken | CST.FlowScalar) => {
    const name = token.source.slice(1);
    const other = name.search(/[^0-9A-Za-z_-]/);
    if (other === -1) {
      const next = text[token.offset + token.source.length];
      if (next === '[' || next === '{') refuse(token.offset + token.source.length, NOT_A_NAME);
      return;
    }
    const at = token.offset + 1 + other;
    const ch = name[other] as string;
    if (other === 0 || !'?:%@`'.includes(ch)) refuse(at, NOT_A_NAME);
    else if (ch === '@' || ch === '`') refuse(at, 'found character that cannot start any token');
  };
  const checkTag = (tag: CST.SourceToken, flow: boolean) => {
    const verbatim = tag.source.startsWith('!<') ? verbatimTagEnd(text, tag.offset) : undefined;
    if (verbatim && typeof verbatim !== 'number') return refuse(verbatim.at, verbatim.problem);
    const hash = tag.source.indexOf('#');
    const end = verbatim ?? (hash === -1 ? tag.offset + tag.source.length : tag.offset + hash);
    const escape = verbatim === undefined ? firstRefusedEscape(text.slice(tag.offset, end), tag.offset) : undefined;
    if (escape) return refuse(escape.at, escape.problem);
    const next = text.charAt(end);
    // A `%` the library's lexer did not take into the tag: no two hex digits follow it.
    if (next === '%') refuse(end, 'did not find URI escaped octet');
    else if (!(next === '' || ' \t\n\r'.includes(next) || (flow && next === ',')))
      refuse(end, 'did not find expected whitespace or line break');
  };
  // Anchors and tags stand among the tokens before a node (a document's, an item's, after a
  // `:`); aliases stand as nodes. A text without `&`, `*` or `!` holds none of them.
  if (!/[&*!]/.test(text)) return undefined;
  const properties = (tokens: readonly CST.SourceToken[] | undefined, flow: boolean) => {
    for (const t of tokens ?? []) {
      if (t.type === 'anchor') checkName(t);
      else if (t.type === 'tag') checkTag(t, flow);
    }
  };
  const node = (token: CST.Token | null | undefined): void => {
    if (!token) return;
    if (token.type === 'alias') checkName(token);
    else if ('items' in token) {
      const flow = token.type === 'flow-collection';
      for (const item of token.items as CST.CollectionItem[]) {
        properties(item.start, flow);
        properties(item.sep, flow);
        node(item.key);
        node(item.value);
      }
    }
  };
  properties(cst.start, false);
  node(cst.value);
  return found.first;
}

const NOT_A_NAME = 'did not find expected alphabetic or numeric character';
