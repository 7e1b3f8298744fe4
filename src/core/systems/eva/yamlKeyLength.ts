import type { CST, Document } from 'yaml';

/** libyaml's bound on a simple key: its `:` within this many characters of where the key starts. */
const MAX_SIMPLE_KEY_CHARACTERS = 1024;

/**
 * libyaml 0.2.5 (serde_yaml 0.9, Eva's parser; eva.md §2.1) holds a simple key possible while
 * its `:` stands within 1024 characters of its start (yaml_parser_stale_simple_keys counts
 * the characters its reader decoded); the yaml library measures the same span in UTF-16 units,
 * so a key of 600 emoji (1200 units) was refused where Eva reads it. The library's
 * "at most 1024 chars" errors for the keys libyaml holds (a block mapping's, a flow sequence's
 * pair's; a flow mapping's keys the library never bounds, see yamlKeyIndicators.ts) are
 * dropped from `doc`, the first document of `cst`.
 */
export function dropKeyLengthErrorsLibyamlHolds(doc: Document.Parsed, cst: CST.Document, text: string): void {
  if (!doc.errors.some((e) => e.code === 'KEY_OVER_1024_CHARS')) return;
  const held: Array<readonly [number, number]> = [];
  const walk = (token: CST.Token | null | undefined): void => {
    if (!token || !('items' in token)) return;
    for (const item of token.items) {
      const colon = item.sep?.find((t) => t.type === 'map-value-ind');
      // The key starts at its first property, as both count it.
      const start = item.start.find((t) => t.type === 'anchor' || t.type === 'tag')?.offset ?? item.key?.offset;
      if (colon && start !== undefined && [...text.slice(start, colon.offset)].length <= MAX_SIMPLE_KEY_CHARACTERS)
        held.push([start, colon.offset]);
      walk(item.key);
      walk(item.value);
    }
  };
  walk(cst.value);
  // The library places the error at the key (a block mapping's) or at its `:` (a flow sequence's).
  const libyamlHolds = (at: number) => held.some(([start, colon]) => start <= at && at <= colon);
  for (let i = doc.errors.length - 1; i >= 0; i--) {
    const error = doc.errors[i] as (typeof doc.errors)[number];
    if (error.code === 'KEY_OVER_1024_CHARS' && libyamlHolds(error.pos[0])) doc.errors.splice(i, 1);
  }
}
