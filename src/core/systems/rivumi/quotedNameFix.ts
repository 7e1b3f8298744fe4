import type { FixDraft } from '../../diagnostics/fixBasis';
import { pythonSplitLines, pythonStrip, universalNewlines } from './pythonText';
import { parseRivumiSkill, SAFE_NAME } from './skillFile';

/**
 * The quick fix for a skill name written in quotes (`name: "review"`): Rivumi's front matter
 * is no YAML and keeps the quotes (rivumi.md §3.4), so its name rule refuses the name and
 * the whole skill load fails. The name meant is the one inside the quotes, offered only when
 * that one passes the rule; the edited text is parsed again and must read that name.
 * `line`: the editor's line of the `name` Rivumi read (skillFile.ts).
 */
export function quotedNameFix(
  text: string,
  line: number,
  fileName: string,
  stem: string,
  file: string,
): FixDraft | undefined {
  const lines = universalNewlines(text).split('\n');
  const written = lines[line];
  // A line Python splits again (at U+2028, \v, …) holds more than this key.
  if (written === undefined || pythonSplitLines(written).length !== 1) return undefined;
  const entry = pythonStrip(written);
  if (!entry.startsWith('name:')) return undefined;
  const value = pythonStrip(entry.slice('name:'.length));
  const inner = value.slice(1, -1);
  const quoted = value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0]);
  if (!quoted || !SAFE_NAME.test(inner)) return undefined;
  const at = written.indexOf(value, written.indexOf(':') + 1);
  lines[line] = written.slice(0, at) + inner + written.slice(at + value.length);
  const again = parseRivumiSkill(lines.join('\n'), fileName, stem);
  if (
    again.ok
      ? again.name !== inner
      : again.code === 'rivumi.skill.name' || again.code.startsWith('rivumi.skill.frontmatter')
  )
    return undefined;
  return {
    title: `Write the skill name as ${inner}, without quotes`,
    edits: [
      {
        file,
        range: { start: { line, character: at }, end: { line, character: at + value.length } },
        newText: inner,
      },
    ],
  };
}
