import type { FixDraft } from '../../diagnostics/fixBasis';
import type { SkillContract } from './contracts';
import type { YamlDocument } from './yamlDocument';

/**
 * An object-schema stub for a missing side of a skill adapter, inserted as the last
 * entry of a block-style `skill` mapping at its indentation. Only offered when that
 * placement is unambiguous (block mapping, not flow `{…}` nor an alias).
 */
export function schemaStubFix(doc: YamlDocument, k: SkillContract, side: string): FixDraft | undefined {
  if (k.kind === 'lua_skill' || !doc.has(['skill', 'kind'])) return undefined;
  // A key written with no schema (`output_schema:`, `null`, `~`) reads as missing
  // (skillAdapterContract.ts inlineSchema); a stub after it would name the key twice, and
  // serde_yaml refuses a duplicate mapping key for the whole file (yamlDuplicateKey.ts), which
  // aborts the project's load.
  if (doc.has(['skill', `${side}_schema`])) return undefined;
  const [start] = doc.valueSpan(['skill']);
  // A flow mapping has no line for the entry; an alias (`skill: *base`) has its mapping at the
  // anchor, where an entry would change every alias of it, and after the alias it breaks the file.
  if (doc.text[start] === '{' || doc.text[start] === '*') return undefined;
  // The entries' indentation is the spaces that open the line of the mapping's first entry: a
  // key's own column is past an indicator or a property (`? kind`, `&k kind:`), and a stub there
  // would be more indented than the entries, which libyaml refuses. What may follow the spaces
  // is only those; a mapping opened on an indicator's line (`: source: codex`) has no such line.
  let lineStart = start;
  while (lineStart > 0 && doc.text[lineStart - 1] !== '\n' && doc.text[lineStart - 1] !== '\r') lineStart--;
  const opening = /^( *)(?:\? +|[&!]\S* +)*$/.exec(doc.text.slice(lineStart, start));
  if (!opening) return undefined;
  const indent = (opening[1] as string).length;
  const end = doc.valueRange(['skill']).end;
  // A block mapping's range ends after its last line break; without one (end of file), start a line.
  const newText = `${end.character === 0 ? '' : '\n'}${' '.repeat(indent)}${side}_schema: {type: object}\n`;
  return {
    title: `Add an ${side}_schema stub (type: object)`,
    edits: [{ file: doc.file, range: { start: end, end }, newText }],
  };
}
