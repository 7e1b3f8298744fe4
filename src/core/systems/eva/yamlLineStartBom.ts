import { Scalar, isMap, isSeq, visit, type Document, type YAMLMap, type YAMLSeq } from 'yaml';
import { blockEntryExpected, columnOf } from './yamlRefusal';

/**
 * A BOM at the start of a line as libyaml 0.2.5 reads it (serde_yaml 0.9, Eva's parser; eva.md
 * §2.1), once the document's structure is known. The parser reads a copy with a space for each
 * such BOM (libyamlLineStartBoms, yamlReader.ts), which is right only where the BOM stood
 * between tokens: this finds the first that stands inside a scalar, and what libyaml makes of it.
 */

/**
 * How libyaml reads the first BOM at the start of a line (a space in the copy parsed) that lies
 * inside a scalar's text, if one does. Inside a quoted scalar, a flow collection or a plain
 * scalar at the document's root it is text: the caller parses the copy with it left in place.
 * A plain scalar in block context ends at such a line, since the BOM stands left of the
 * scalar's block (libyaml checks indentation before it skips the BOM as one column); what
 * follows on that line or after it then stands where no token may: refused at that token, in
 * the words of the collection the scalar belongs to. `start` is where the scalar starts, to
 * order the refusal among the copy's own errors: those the scalar read on holds come from
 * reading the line on.
 */
export function lineStartBomReading(
  doc: Document.Parsed,
  text: string,
): 'text' | { readonly start: number; readonly offset: number; readonly message: string } | undefined {
  const boms: number[] = [];
  for (let at = text.indexOf('\ufeff'); at !== -1; at = text.indexOf('\ufeff', at + 1))
    if (at === 0 || text[at - 1] === '\n') boms.push(at);
  let reading: ReturnType<typeof lineStartBomReading>;
  let firstBom = Infinity;
  visit(doc, {
    Scalar(_key, node, path) {
      const range = node.range;
      if (!range || range[0] === range[1]) return undefined;
      // The first line-start BOM at or after the scalar's start (a binary search: one scan per scalar is quadratic).
      let lo = 0;
      let hi = boms.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((boms[mid] as number) < range[0]) lo = mid + 1;
        else hi = mid;
      }
      const bom = boms[lo];
      if (bom === undefined || bom >= range[1] || bom >= firstBom) return undefined;
      firstBom = bom;
      const collections = path.filter((p): p is YAMLMap | YAMLSeq => isMap(p) || isSeq(p));
      const parent = collections.at(-1);
      if (node.type !== Scalar.PLAIN || !parent || collections.some((c) => c.flow)) reading = 'text';
      else {
        let token = bom + 1;
        while (/[ \t\n\r]/.test(text[token] ?? '')) token++;
        reading = { start: range[0], offset: token, message: expectedAfter(parent, path, text) };
      }
      return undefined;
    },
  });
  return reading;
}

/** What libyaml's parser expected where a plain scalar of `parent` ended early (blockEntryExpected). */
function expectedAfter(parent: YAMLMap | YAMLSeq, path: readonly unknown[], text: string): string {
  if (isMap(parent)) return blockEntryExpected('mapping', false);
  const owner = path
    .slice(0, path.indexOf(parent))
    .filter((p): p is YAMLMap => isMap(p))
    .at(-1);
  const indentless =
    !!owner?.range && !!parent.range && columnOf(text, owner.range[0]) === columnOf(text, parent.range[0]);
  return blockEntryExpected('sequence', indentless);
}
