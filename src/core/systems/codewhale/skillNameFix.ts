import type { FixDraft } from '../../diagnostics/fixBasis';
import { LineMap } from '../../text/lineMap';
import { isSafeCommandName, parseCodewhaleSkill, type ParsedSkill } from './skillFile';

/**
 * The quick fix for a skill name Codewhale normalizes (codewhale.md §5.2): write the name it
 * loads the skill under, which its warning names, in place of the front-matter value. Nothing
 * the agent loads changes, and the warning that keeps the bundle from becoming active (§5.3)
 * goes. Only for a one-line front-matter value, and only when the name is a safe command name
 * (a `plugin:skill` name keeps its colon and its warning); the edited text is parsed again and
 * must read the same skill under that name.
 */
export function skillNameFix(
  text: string,
  parsed: Extract<ParsedSkill, { ok: true }>,
  normalized: string,
  file: string,
): FixDraft | undefined {
  const span = parsed.nameSpan;
  if (!span || !isSafeCommandName(normalized)) return undefined;
  const edited = text.slice(0, span[0]) + normalized + text.slice(span[1]);
  const again = parseCodewhaleSkill(edited);
  if (!again.ok || again.name !== normalized || again.description !== parsed.description || again.body !== parsed.body)
    return undefined;
  const range = new LineMap(text).range(span[0], span[1] - span[0]);
  return { title: `Write the skill name as \`${normalized}\``, edits: [{ file, range, newText: normalized }] };
}
