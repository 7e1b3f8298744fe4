import { pythonRepr, pythonSplitLines, pythonStrip, universalNewlines } from './pythonText';

/** Rivumi's skill name rule (rivumi.md §3.1), also its plugin-name and keyword rule. */
export const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export type RivumiSkillParse =
  | {
      readonly ok: true;
      readonly name: string;
      readonly description: string;
      readonly body: string;
      readonly nameFromFrontmatter: boolean;
    }
  | {
      readonly ok: false;
      readonly code:
        | 'rivumi.skill.frontmatter'
        | 'rivumi.skill.frontmatter-nul'
        | 'rivumi.skill.name'
        | 'rivumi.skill.body'
        | 'rivumi.skill.description-length';
      readonly message: string;
      readonly line: number;
      readonly name?: string;
      readonly nameFromFrontmatter?: boolean;
    };

/**
 * Rivumi's own front-matter grammar (rivumi.md §3.4) — not YAML, and deliberately not
 * gray-matter: Rivumi only recognizes an exact `---\n` … `\n---\n` fence, which no
 * general library reproduces (`---\n---\nbody` is *not* front matter here).
 * `fileName` is the bare file name used in messages; `stem` the default name.
 */
export function parseRivumiSkill(raw: string, fileName: string, stem: string): RivumiSkillParse {
  const text = universalNewlines(raw);
  let body = pythonStrip(text);
  const meta = new Map<string, string>();
  // The front-matter block when there is one: the only text a name or description comes from.
  let block = '';
  if (text.startsWith('---\n')) {
    const end = text.indexOf('\n---\n', 4);
    if (end >= 0) {
      block = text.slice(4, end);
      body = pythonStrip(text.slice(end + 5));
      let lineNo = 0;
      for (const rawLine of pythonSplitLines(block)) {
        lineNo++;
        const line = pythonStrip(rawLine);
        if (line === '') continue;
        const colon = line.indexOf(':');
        const key = colon < 0 ? undefined : line.slice(0, colon);
        if (key !== 'name' && key !== 'description') {
          return {
            ok: false,
            code: 'rivumi.skill.frontmatter',
            message: `unsupported project skill frontmatter in ${pythonRepr(fileName)}`,
            line: lineNo,
          };
        }
        const value = pythonStrip(line.slice(colon + 1));
        if (value.includes('\0'))
          return {
            ok: false,
            code: 'rivumi.skill.frontmatter-nul',
            message: `project skill frontmatter contains NUL: ${fileName}`,
            line: lineNo,
          };
        meta.set(key, value);
      }
    }
  }
  const fmName = meta.get('name');
  const nameFromFrontmatter = fmName !== undefined && fmName !== '';
  const name = nameFromFrontmatter ? fmName : stem;
  const description = meta.get('description') ?? '';
  if (!SAFE_NAME.test(name))
    return {
      ok: false,
      code: 'rivumi.skill.name',
      message: `invalid project skill name: ${pythonRepr(name)}`,
      line: nameFromFrontmatter ? lineOfKey(block, 'name') : 0,
    };
  if (body === '' || body.includes('\0'))
    return {
      ok: false,
      code: 'rivumi.skill.body',
      message: `project skill body cannot be blank or contain NUL: ${fileName}`,
      line: 0,
    };
  if ([...description].length > 400) {
    // A record error (§3.4 step 9): the name is valid, and the caller checks the other record field with it.
    return {
      ok: false,
      code: 'rivumi.skill.description-length',
      message: `project skill description exceeds 400 characters: ${fileName}`,
      line: lineOfKey(block, 'description'),
      name,
      nameFromFrontmatter,
    };
  }
  return { ok: true, name, description, body, nameFromFrontmatter };
}

/** The line of the file (the block starts at line 1) that gives `key` its value: the last, as the last one wins. */
function lineOfKey(block: string, key: string): number {
  let line = 0;
  block.split('\n').forEach((l, i) => {
    if (l.startsWith(`${key}:`)) line = i + 1;
  });
  return line;
}

/** Python `Path.stem`: the name without its last suffix (`.h.md` → `.h`). */
export function fileStem(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(0, dot) : fileName;
}
