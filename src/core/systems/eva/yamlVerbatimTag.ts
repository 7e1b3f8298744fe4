import type { Document } from 'yaml';

/**
 * `!<!>` is libyaml's verbatim form of the non-specific tag `!`: libyaml reads `!<!> x` as
 * it reads `! x` (the tag `!`), and so does Eva-CLI. The yaml library refuses it ("Verbatim
 * tags aren't resolved"), so Skillgate refused a manifest Eva loads. Where the library
 * refused one, and libyaml would not (a space, a tab, a line break or the end follows it),
 * the copy to parse again reads `!` and three spaces: same length, same tag.
 * Undefined when there is none: the document stands as parsed.
 */
export function nonSpecificVerbatimTags(doc: Document.Parsed, text: string): string | undefined {
  const at: number[] = [];
  for (const error of doc.errors) {
    const tag = error.pos[0];
    if (!error.message.startsWith("Verbatim tags aren't resolved") || text.substr(tag, 4) !== '!<!>') continue;
    if (/^[ \t\n\r]?$/.test(text.charAt(tag + 4))) at.push(tag);
  }
  if (at.length === 0) return undefined;
  // One pass over the text, however many tags (a copy per tag is quadratic).
  at.sort((a, b) => a - b);
  const parts: string[] = [];
  let from = 0;
  for (const tag of at) {
    if (tag < from) continue;
    parts.push(text.slice(from, tag), '!   ');
    from = tag + 4;
  }
  parts.push(text.slice(from));
  return parts.join('');
}
