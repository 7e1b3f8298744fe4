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
      /** The file line of the front matter's `name` (0 when the name is the stem). */
      readonly nameLine: number;
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
      readonly nameLine?: number;
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
  // The file line (the block starts at line 1) of each key's last value, as the editor counts lines.
  const keyLines = new Map<string, number>();
  if (text.startsWith('---\n')) {
    const end = text.indexOf('\n---\n', 4);
    if (end >= 0) {
      const block = text.slice(4, end);
      body = pythonStrip(text.slice(end + 5));
      // Python's splitlines also breaks at U+2028, U+0085, \v and others the editor shows
      // within a line: each of its lines is placed on the editor's line (\n) that holds it.
      const editorLines = block.split('\n');
      const pythonLines = editorLines.flatMap((l, i) => pythonSplitLines(l).map((piece) => [piece, i + 1] as const));
      for (const [rawLine, lineNo] of pythonLines) {
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
        keyLines.set(key, lineNo);
      }
    }
  }
  const fmName = meta.get('name');
  const nameFromFrontmatter = fmName !== undefined && fmName !== '';
  const name = nameFromFrontmatter ? fmName : stem;
  const nameLine = nameFromFrontmatter ? (keyLines.get('name') ?? 0) : 0;
  const description = meta.get('description') ?? '';
  if (!SAFE_NAME.test(name))
    return {
      ok: false,
      code: 'rivumi.skill.name',
      message: `invalid project skill name: ${pythonRepr(name)}`,
      line: nameLine,
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
      line: keyLines.get('description') ?? 0,
      name,
      nameFromFrontmatter,
      nameLine,
    };
  }
  return { ok: true, name, description, body, nameFromFrontmatter, nameLine };
}

/** Python `Path.stem`: the name without its last suffix (`.h.md` → `.h`). */
export function fileStem(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(0, dot) : fileName;
}
