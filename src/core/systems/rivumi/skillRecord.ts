import { decodeUtf8, readRegularFile } from '../../fs/safeFs';
import type { Findings } from '../../diagnostics/findings';
import { reportHidden } from '../../diagnostics/hiddenCharacterFinding';
import { LineMap } from '../../text/lineMap';
import { hasNoUtf8 } from './pythonText';
import { FILE_START } from '../../model';
import { fileStem, parseRivumiSkill } from './skillFile';
import { osPath } from '../../fs/rawNames';
import type { RivumiSkill } from './model';
import { rivumiReadFailure } from './readFailure';
import { deniedToRivumi } from './deniedLoad';
import { MAX_SKILL_BYTES } from './limits';
import { quotedNameFix } from './quotedNameFix';
import type { FixDraft } from '../../diagnostics/fixBasis';

/**
 * One skill file as Rivumi loads it (skills.py `_load_skill_file`, rivumi.md §3.3-§3.4): the
 * per-file checks in Rivumi's order, then the front matter (skillFile.ts), into the skill's
 * record. Project and plugin skills share it, a plugin skill being parsed exactly like a
 * project skill (§5.5); a file past the 16-skill cap has a record too, never opened.
 */

/** A skill past the 16-skill cap (§3.2, §5.5): Rivumi never opens it, so it has only its name. */
export function beyondCap(fileName: string, file: string, source: string, plugin: string | null): RivumiSkill {
  const name = fileStem(fileName);
  return {
    name,
    qualifiedName: plugin ? `${plugin}.${name}` : name,
    file,
    source,
    plugin,
    description: '',
    body: '',
    state: 'beyond_cap',
  };
}

/** §3.3 checks in order, then the front matter (§3.4), for a project or plugin skill. */
export function readSkill(
  abs: string,
  fileName: string,
  source: string,
  plugin: string | null,
  findings: Findings,
): RivumiSkill {
  const stem = fileStem(fileName);
  const base = {
    name: stem,
    qualifiedName: plugin ? `${plugin}.${stem}` : stem,
    file: abs,
    source,
    plugin,
    description: '',
    body: '',
  };
  const invalid = (
    code: Parameters<Findings['inFile']>[0],
    message: string,
    range = FILE_START,
    fix?: FixDraft,
  ): RivumiSkill => {
    return { ...base, state: 'invalid', error: findings.inFile(code, message, abs, range, fix ? { fix } : undefined) };
  };
  // readRegularFile checks the last component (no link), the type and the size (from fstat) before reading.
  const read = readRegularFile(osPath(abs), MAX_SKILL_BYTES);
  if (!read.ok) {
    const why = rivumiReadFailure(abs, read, MAX_SKILL_BYTES);
    if (why.kind === 'os-error')
      return why.denied
        ? { ...base, state: 'invalid', error: deniedToRivumi(why.text, 'skill', abs, findings) }
        : invalid('rivumi.skill.file', why.text);
    return why.kind === 'too-large'
      ? invalid('rivumi.skill.too-large', `project skill exceeds ${MAX_SKILL_BYTES} bytes: ${fileName}`)
      : invalid('rivumi.skill.file', `project skill must be a regular markdown file: ${fileName}`);
  }
  const text = decodeUtf8(read.bytes);
  if (text === undefined) return invalid('rivumi.skill.utf8', `project skill is not valid UTF-8: ${fileName}`);
  const parsed = parseRivumiSkill(text, fileName, stem);
  const lines = new LineMap(text);
  // The record's limits (§3.4 step 9) are one pydantic validation: every field over its limit is an error of the same failure.
  const nameTooLong = (name: string | undefined) =>
    plugin && name !== undefined && [...`${plugin}.${name}`].length > 64 ? `${plugin}.${name}` : undefined;
  // The record's `source` is a str with a length limit (1-512): pydantic reads it as UTF-8 first, and a
  // file name that is not UTF-8 (Python lists byte 0xFF as U+DCFF) has none (schemas.ts, constrainedText).
  const sourceError = hasNoUtf8(source) ? `project skill file name is not valid UTF-8: ${fileName}` : undefined;
  if (!parsed.ok) {
    // Only the description-length failure carries a name: the record's other limit is checked with it. pydantic
    // reports the record's fields in their order (name, description, body, source, §3.1), so the name comes first.
    const longName = nameTooLong(parsed.name);
    const nameFailure = longName
      ? invalid(
          'rivumi.skill.qualified-name-length',
          `plugin skill name exceeds 64 characters: ${longName}`,
          parsed.nameFromFrontmatter ? lines.lineRange(parsed.nameLine ?? 0) : FILE_START,
        )
      : undefined;
    const fix = parsed.code === 'rivumi.skill.name' ? quotedNameFix(text, parsed.line, fileName, stem, abs) : undefined;
    if (fix) findings.addText(abs, { text });
    const failed = invalid(parsed.code, parsed.message, lines.lineRange(parsed.line), fix);
    if (sourceError && parsed.code === 'rivumi.skill.description-length')
      findings.inFile('rivumi.skill.source-utf8', sourceError, abs);
    return nameFailure ?? failed;
  }
  const qualifiedName = plugin ? `${plugin}.${parsed.name}` : parsed.name;
  if (nameTooLong(parsed.name)) {
    return invalid(
      'rivumi.skill.qualified-name-length',
      `plugin skill name exceeds 64 characters: ${qualifiedName}`,
      parsed.nameFromFrontmatter ? lines.lineRange(parsed.nameLine ?? 0) : FILE_START,
    );
  }
  if (sourceError) return invalid('rivumi.skill.source-utf8', sourceError);
  reportHidden(text, abs, findings);
  return {
    ...base,
    name: parsed.name,
    qualifiedName,
    description: parsed.description,
    body: parsed.body,
    state: 'valid',
  };
}
