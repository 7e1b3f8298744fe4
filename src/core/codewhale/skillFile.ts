import matter from 'gray-matter';

/**
 * Codewhale's general SKILL.md parser (codewhale.md §5.2). gray-matter only splits
 * the fence; it must never interpret what is inside: by default it `eval`s `---js`
 * front matter. Every engine it knows is replaced by one that returns nothing, and
 * any other fence language is refused before an engine is looked up. Our own line
 * parser then reads the block.
 */

const INERT = { parse: (): Record<string, never> => ({}), stringify: (): string => '' };
const INERT_ENGINES = { yaml: INERT, yml: INERT, json: INERT, javascript: INERT, js: INERT, coffee: INERT, coffeescript: INERT, cson: INERT, toml: INERT };

export type ParsedSkill =
  | { readonly ok: true; readonly name: string; readonly description: string; readonly body: string; readonly bodyOffset: number }
  | { readonly ok: false; readonly reason: string };

export function parseCodewhaleSkill(text: string): ParsedSkill {
  const lead = text.length - text.trimStart().length;
  const content = text.slice(lead);
  if (!content.startsWith('---')) return headingSkill(text);
  const firstLineEnd = content.search(/\r?\n/);
  const fenceTail = firstLineEnd === -1 ? content.slice(3) : content.slice(3, firstLineEnd);
  const afterOpen = firstLineEnd === -1 ? '' : content.slice(firstLineEnd);
  if (!/\n---/.test(afterOpen)) return { ok: false, reason: 'missing frontmatter closing delimiter' };
  const language = fenceTail.trim();
  if (language !== '' && !(language.toLowerCase() in INERT_ENGINES)) {
    return { ok: false, reason: `unsupported frontmatter language \`${language}\`` };
  }
  let block: string;
  let body: string;
  try {
    const file = matter(content, { engines: INERT_ENGINES, language: 'yaml' });
    block = file.matter;
    body = file.content;
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
  const fields = parseBlock(block);
  const name = fields.get('name') ?? '';
  if (name === '') return { ok: false, reason: 'missing required frontmatter field: name' };
  const trimmedBody = body.trim();
  return { ok: true, name, description: fields.get('description') ?? '', body: trimmedBody, bodyOffset: Math.max(0, text.indexOf(trimmedBody)) };
}

function headingSkill(text: string): ParsedSkill {
  const m = /^#[ \t]+(.+?)[ \t#]*$/m.exec(text);
  if (!m) return { ok: false, reason: 'no frontmatter and no `# Heading` found to use as skill name' };
  const body = text.trim();
  return { ok: true, name: (m[1] ?? '').trim(), description: '', body, bodyOffset: Math.max(0, text.indexOf(body)) };
}

const BLOCK_SCALAR = /^[>|][+-]?$/;

/** `key: value` lines; keys trimmed and lowercased; one pair of quotes removed; block scalars. */
function parseBlock(block: string): Map<string, string> {
  const out = new Map<string, string>();
  const lines = block.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    let value = line.slice(colon + 1).trim();
    if (BLOCK_SCALAR.test(value)) {
      const folded = value.startsWith('>');
      const parts: string[] = [];
      while (i + 1 < lines.length && (/^\s/.test(lines[i + 1] as string) || (lines[i + 1] as string).trim() === '')) {
        parts.push((lines[++i] as string).trim());
      }
      value = (folded ? parts.join(' ') : parts.join('\n')).trim();
    } else if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value[value.length - 1] === value[0]) {
      value = value.slice(1, -1);
    }
    out.set(key, value);
  }
  return out;
}

/** Runs of non-alphanumerics become `-`, lowercase, trimmed of `-`, at most 64; empty ⇒ `skill`. */
export function normalizeSkillName(name: string): string {
  const n = name
    .replace(/[^A-Za-z0-9]+/g, '-')
    .toLowerCase()
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return n === '' ? 'skill' : n;
}

export function isSafeCommandName(name: string): boolean {
  return /^[a-z0-9][a-z0-9-]{0,63}$/.test(name);
}
