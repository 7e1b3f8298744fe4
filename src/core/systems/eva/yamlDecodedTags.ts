import type { CST } from 'yaml';
import { decodeUriEscapes } from './yamlTagUri';

/** The handles a text need not declare, and what they stand for. */
const DEFAULT_PREFIXES: ReadonlyMap<string, string> = new Map([
  ['!', '!'],
  ['!!', 'tag:yaml.org,2002:'],
]);

/**
 * The `%TAG` handles a directive token declares, added to `prefixes` (as written: the prefix's
 * escapes are decoded where a tag uses it).
 */
export function addTagDirective(directive: string, prefixes: Map<string, string>): void {
  const declared = /^%TAG[ \t]+(![0-9A-Za-z_-]*!?)[ \t]+([0-9A-Za-z_\-;/?:@&=+$.%!~*'()[\],]+)/.exec(directive);
  if (declared) prefixes.set(declared[1] as string, declared[2] as string);
}

/**
 * libyaml 0.2.5 (serde_yaml 0.9, Eva's parser; eva.md §2.1) decodes the `%`-escapes of a tag
 * wherever it scans them: in a `%TAG` prefix, in a verbatim tag and in any tag's suffix, so
 * `!<tag:yaml.org,2002:st%72> 5` is the string `5` to Eva, and `%TAG !e! tag:x%21,2000:` makes
 * `!e!a` the tag `tag:x!,2000:a`. The yaml library decodes only a suffix after a handle other
 * than `!`, and read a custom tag over the integer 5. Each tag token of the document `doc` whose
 * libyaml reading holds an escape the library would not decode is rewritten into the verbatim
 * tag the library resolves to libyaml's tag (`!` itself into `!`, which the library refuses
 * verbatim). Escapes libyaml refuses were refused before (yamlProperties.ts); tokens are
 * rewritten only after that check, and keep their offset.
 */
export function decodeTagEscapes(doc: CST.Document, prefixes: ReadonlyMap<string, string>): void {
  const rewrite = (tokens: readonly CST.Token[] | undefined) => {
    for (const token of tokens ?? []) {
      if (token.type !== 'tag' || !needsDecoding(token.source, prefixes)) continue;
      const tag = libyamlTag(token.source, prefixes);
      // `!!` has no verbatim form the library resolves: left as the library reads it.
      if (tag !== undefined && tag !== '!!') token.source = tag === '!' ? '!' : `!<${tag}>`;
    }
  };
  const node = (token: CST.Token | null | undefined): void => {
    if (!token) return;
    if (token.type === 'block-scalar') rewrite(token.props);
    else if ('items' in token)
      for (const item of token.items as CST.CollectionItem[]) {
        rewrite(item.start);
        rewrite(item.sep);
        node(item.key);
        node(item.value);
      }
  };
  rewrite(doc.start);
  node(doc.value);
}

/** The handle a shorthand tag starts with (`!`, `!!`, `!name!`) and its suffix. */
function split(source: string): { handle: string; suffix: string } {
  const handle = /^!(?:[0-9A-Za-z_-]*!)?/.exec(source)?.[0] ?? '!';
  return { handle, suffix: source.slice(handle.length) };
}

/** Whether libyaml's tag and the library's differ: an escape the library leaves as written. */
function needsDecoding(source: string, prefixes: ReadonlyMap<string, string>): boolean {
  if (source.startsWith('!<')) return source.includes('%');
  const { handle, suffix } = split(source);
  // A handle with no suffix is refused (`!!`), or the non-specific tag (`!`): the library's reading.
  if (suffix === '') return false;
  return (prefixes.get(handle) ?? '').includes('%') || (handle === '!' && suffix.includes('%'));
}

/** The tag libyaml gives a node for the tag token `source`; undefined where its handle is undeclared. */
function libyamlTag(source: string, prefixes: ReadonlyMap<string, string>): string | undefined {
  if (source.startsWith('!<')) return source.endsWith('>') ? decodeUriEscapes(source.slice(2, -1)) : undefined;
  const { handle, suffix } = split(source);
  const prefix = prefixes.get(handle) ?? DEFAULT_PREFIXES.get(handle);
  return prefix === undefined ? undefined : decodeUriEscapes(prefix) + decodeUriEscapes(suffix);
}
