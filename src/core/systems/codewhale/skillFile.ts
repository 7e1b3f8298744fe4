import { asciiLower, isRustWhitespace, rustTrim, rustTrimEnd, rustTrimStart } from '../../text/rustText';

/**
 * Codewhale's general SKILL.md parser (codewhale.md §5.2), reproduced step by step:
 * the front matter runs from the first `---` to the next `---` anywhere after it, and
 * only our own line reader looks inside. No front-matter library and no engine is
 * involved, so a `---js` fence is just a line without a colon and nothing is ever
 * evaluated. Trimming is Rust's (`rustText.ts`): a leading byte-order mark is not
 * whitespace, so a BOM-prefixed file has no front matter.
 */

export type ParsedSkill =
  | {
      readonly ok: true;
      readonly name: string;
      readonly description: string;
      readonly body: string;
      readonly bodyOffset: number;
      /** UTF-16 offsets [start, end) of the front-matter `name` value as written, quotes included; none for a block scalar or a heading. */
      readonly nameSpan?: readonly [number, number];
    }
  | {
      readonly ok: false;
      readonly reason: string;
      /** Codewhale panics on this text instead of warning (a byte slice inside a character). */
      readonly panics?: boolean;
    };

/** Thrown inside the block reader where upstream's `&raw[strip..]` would panic. */
class UpstreamPanic extends Error {}

export function parseCodewhaleSkill(text: string): ParsedSkill {
  if (!rustTrimStart(text).startsWith('---')) return headingSkill(text);
  const start = text.indexOf('---') + 3;
  const end = text.indexOf('---', start);
  if (end < 0) return { ok: false, reason: 'missing frontmatter closing delimiter' };
  let fields: Map<string, Field>;
  try {
    fields = parseBlock(text.slice(start, end), start);
  } catch (e) {
    if (!(e instanceof UpstreamPanic)) throw e;
    return { ok: false, reason: e.message, panics: true };
  }
  const name = fields.get('name');
  if (name === undefined || name.value === '') return { ok: false, reason: 'missing required frontmatter field: name' };
  const rawBody = text.slice(end + 3);
  const body = rustTrim(rawBody);
  return {
    ok: true,
    name: name.value,
    description: fields.get('description')?.value ?? '',
    body,
    bodyOffset: end + 3 + (rawBody.length - rustTrimStart(rawBody).length),
    ...(name.span ? { nameSpan: name.span } : {}),
  };
}

/** Without a fence: the first match of `(?m)^#\s+(.+)$`, trimmed; the body is the whole trimmed text. */
function headingSkill(text: string): ParsedSkill {
  const name = rustTrim(firstHeading(text) ?? '');
  if (name === '') return { ok: false, reason: 'no frontmatter and no `# Heading` found to use as skill name' };
  const body = rustTrim(text);
  return { ok: true, name, description: '', body, bodyOffset: text.length - rustTrimStart(text).length };
}

/**
 * Rust's `(?m)^#\s+(.+)$` by hand: `\s` is Unicode White_Space and crosses line
 * breaks, `.` stops only at `\n`, and the greedy `\s+` gives back one whitespace
 * character when nothing else is left for `.+` on that line.
 */
function firstHeading(text: string): string | undefined {
  for (let p = 0; p < text.length; p = text.indexOf('\n', p) + 1 || text.length) {
    if (text[p] !== '#') continue;
    let k = p + 1;
    while (k < text.length && isRustWhitespace(text.charCodeAt(k))) k++;
    for (let s = k; s > p + 1; s--) {
      if (s < text.length && text[s] !== '\n') {
        const lineEnd = text.indexOf('\n', s);
        return text.slice(s, lineEnd < 0 ? text.length : lineEnd);
      }
    }
  }
  return undefined;
}

const BLOCK_SCALARS = new Set(['>', '|', '>-', '>+', '|-', '|+']);

/** A front-matter value, and where a one-line value is written (for a quick fix that rewrites it). */
interface Field {
  readonly value: string;
  readonly span?: readonly [number, number];
}

/**
 * `key: value` lines (codewhale.md §5.2): keys trimmed and ASCII-lowercased; one pair of quotes
 * removed; YAML block scalars. `offset`: where the block starts in the file's text.
 */
function parseBlock(block: string, offset: number): Map<string, Field> {
  const out = new Map<string, Field>();
  // Rust `str::lines`: split at `\n`, drop one `\r` before it, no empty last line. A `\r`
  // ending the last line has no `\n` after it and stays (Rust 1.77+, rust-lang/rust#94435).
  const pieces = block.split('\n');
  const starts: number[] = [];
  pieces.reduce((at, piece) => (starts.push(at), at + piece.length + 1), offset);
  const lines = pieces.map((l, i, all) => (i < all.length - 1 && l.endsWith('\r') ? l.slice(0, -1) : l));
  if (block.endsWith('\n') || block === '') lines.pop();
  let i = 0;
  while (i < lines.length) {
    const raw = lines[i] as string;
    const line = rustTrim(raw);
    const colon = line.indexOf(':');
    if (line === '' || line.startsWith('#') || colon < 0) {
      i++;
      continue;
    }
    const key = asciiLower(rustTrim(line.slice(0, colon)));
    const value = rustTrim(line.slice(colon + 1));
    if (!BLOCK_SCALARS.has(value)) {
      const quoted =
        value.length >= 2 &&
        ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'")));
      // The trimmed value ends where the trimmed line ends: its start is that end less its length.
      const end = (starts[i] as number) + rustTrimEnd(raw).length;
      out.set(key, { value: quoted ? value.slice(1, -1) : value, span: [end - value.length, end] });
      i++;
      continue;
    }
    const baseIndent = indentOf(raw);
    const taken: string[] = [];
    let contentIndent: number | undefined;
    for (i++; i < lines.length; i++) {
      const next = lines[i] as string;
      if (rustTrim(next) === '') {
        taken.push('');
        continue;
      }
      if (indentOf(next) <= baseIndent) break;
      contentIndent ??= indentOf(next);
      taken.push(next);
    }
    const strip = contentIndent ?? baseIndent;
    const kept = taken.map((l) => (l === '' ? '' : cutBytes(l, Math.min(indentOf(l), strip))));
    if (value.endsWith('-')) while (kept.length > 0 && kept[kept.length - 1] === '') kept.pop();
    else if (!value.endsWith('+'))
      while (kept.length >= 2 && kept[kept.length - 1] === '' && kept[kept.length - 2] === '') kept.pop();
    out.set(key, { value: value.startsWith('>') ? fold(kept) : kept.join('\n') });
  }
  return out;
}

/** Folded scalar: lines joined by spaces, an empty line a paragraph break. */
function fold(lines: readonly string[]): string {
  let result = '';
  let pendingSpace = false;
  for (const line of lines) {
    if (line === '') {
      result += '\n';
      pendingSpace = false;
    } else {
      if (pendingSpace) result += ' ';
      result += line;
      pendingSpace = true;
    }
  }
  return result;
}

/**
 * Upstream's `raw.len() - raw.trim_start().len()`: the leading whitespace in UTF-8 bytes, so
 * U+3000 counts 3 and U+00A0 counts 2 (all whitespace is in the BMP: one unit each here).
 */
function indentOf(line: string): number {
  return Buffer.byteLength(line.slice(0, line.length - rustTrimStart(line).length), 'utf8');
}

/** `&line[bytes..]` on leading whitespace; a cut inside a character is a panic upstream. */
function cutBytes(line: string, bytes: number): string {
  let units = 0;
  let b = 0;
  while (b < bytes) b += Buffer.byteLength(line[units++] as string, 'utf8');
  if (b !== bytes)
    throw new UpstreamPanic(
      `Codewhale panics reading this front matter: a block scalar's indentation cut at byte ${bytes} falls inside a multi-byte whitespace character`,
    );
  return line.slice(units);
}

/**
 * Runs of non-alphanumerics become `-`, lowercase, trimmed of `-`, at most 64; empty ⇒
 * `skill`. A `plugin:skill` name (exactly one colon, text on both sides) is normalized
 * segment by segment and keeps its colon (codewhale.md §5.2).
 */
export function normalizeSkillName(name: string): string {
  const parts = rustTrim(name).split(':');
  if (parts.length === 2 && parts[0] !== '' && parts[1] !== '')
    return `${normalizeSegment(parts[0] as string)}:${normalizeSegment(parts[1] as string)}`;
  return normalizeSegment(name);
}

function normalizeSegment(name: string): string {
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
