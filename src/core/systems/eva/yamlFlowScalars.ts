import { Scalar, visit, type Document } from 'yaml';

/**
 * Flow scalars (plain, single- and double-quoted) read as libyaml reads them (serde_yaml 0.9,
 * Eva's parser; eva.md §2.1) where the yaml library reads another value, so Skillgate read
 * another value than Eva's:
 *
 * - LS and PS (U+2028, U+2029) break lines for libyaml, and it keeps them in the value where
 *   a line feed would fold to a space; the parser reads a copy with `\n` for them
 *   (yamlReader.ts), which folds them;
 * - in a double-quoted scalar, after `\` ends a line, every empty line that follows is a line
 *   feed of the value (`"a\` / `` / `b"` is `a\nb`, as YAML 1.2 says too); the library folded
 *   the first to a space.
 *
 * Only such scalars are read again, from the text.
 */
export function readFlowScalarsAsLibyaml(doc: Document.Parsed, text: string): void {
  if (!READ_OTHERWISE.test(text)) return;
  visit(doc, {
    Scalar(_key, node) {
      const style = STYLES.get(node.type ?? '');
      if (!style || !node.range) return;
      const raw = text.slice(node.range[0], node.range[1]);
      if (!(style === 'double' ? READ_OTHERWISE : LS_PS).test(raw)) return;
      // The value the composer read is kept twice: as the value, and as the source the scalar is typed from.
      const value = libyamlFlowScalar(raw, style);
      node.value = value;
      if (typeof node.source === 'string') node.source = value;
    },
  });
}

type FlowStyle = 'plain' | 'single' | 'double';

const STYLES = new Map<string, FlowStyle>([
  [Scalar.PLAIN, 'plain'],
  [Scalar.QUOTE_SINGLE, 'single'],
  [Scalar.QUOTE_DOUBLE, 'double'],
]);

const BREAK = '(?:\\r\\n|[\\n\\r\\u0085\\u2028\\u2029])';
/** What the yaml library reads otherwise: an escaped line break then an empty line, or an LS or PS (a line break to libyaml, kept in the value). */
const READ_OTHERWISE = new RegExp(`\\\\${BREAK}[ \\t]*${BREAK}|[\\u2028\\u2029]`);
const LS_PS = /[\u2028\u2029]/;

/**
 * libyaml's scan of a flow scalar (`raw` as written, quotes included; one the parser accepted:
 * every escape is known): runs of text; between them, blanks kept when no line break follows,
 * a single line break folded to a space, and the breaks after a first one (or after an
 * escaped one) kept as line feeds. CR LF, CR, LF and NEL read as `\n`, LS and PS as
 * themselves. A single-quoted scalar's `''` is a quote; only a double-quoted one has escapes.
 */
function libyamlFlowScalar(raw: string, style: FlowStyle): string {
  let out = '';
  const quoted = style !== 'plain';
  let i = quoted ? 1 : 0;
  const end = quoted ? raw.length - 1 : raw.length;
  let leadingBlanks = false;
  const breakAt = (at: number): number =>
    raw[at] === '\r' && raw[at + 1] === '\n' ? 2 : BREAK_CHARS.includes(raw[at] ?? '') ? 1 : 0;
  const lineFeed = (at: number): string => (raw[at] === '\u2028' || raw[at] === '\u2029' ? (raw[at] as string) : '\n');
  while (i < end) {
    // Text up to a blank or a line break.
    while (i < end && raw[i] !== ' ' && raw[i] !== '\t' && breakAt(i) === 0) {
      if (style === 'single' && raw[i] === "'") {
        out += "'";
        i += 2;
        continue;
      }
      if (style !== 'double' || raw[i] !== '\\') {
        out += raw[i];
        i++;
        continue;
      }
      const escaped = breakAt(i + 1);
      if (escaped > 0) {
        i += 1 + escaped;
        leadingBlanks = true;
        break;
      }
      const [value, length] = escapeAt(raw, i + 1);
      out += value;
      i += 1 + length;
    }
    if (i >= end) break;
    let whitespace = '';
    let leadingBreak = '';
    let trailingBreaks = '';
    for (let n = breakAt(i); i < end && (raw[i] === ' ' || raw[i] === '\t' || n > 0); n = breakAt(i)) {
      if (n === 0) {
        if (!leadingBlanks) whitespace += raw[i];
        i++;
      } else if (!leadingBlanks) {
        whitespace = '';
        leadingBreak = lineFeed(i);
        leadingBlanks = true;
        i += n;
      } else {
        trailingBreaks += lineFeed(i);
        i += n;
      }
    }
    if (leadingBlanks) {
      out += leadingBreak === '\n' ? trailingBreaks || ' ' : leadingBreak + trailingBreaks;
      leadingBlanks = false;
    } else out += whitespace;
  }
  return out;
}

const BREAK_CHARS = '\n\r\u0085\u2028\u2029';

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
};

/** The escape after a backslash at `at`: its value and how many characters it took. */
function escapeAt(raw: string, at: number): [string, number] {
  const c = raw[at] ?? '';
  const simple = SIMPLE_ESCAPES[c];
  if (simple !== undefined) return [simple, 1];
  const digits = c === 'x' ? 2 : c === 'u' ? 4 : c === 'U' ? 8 : 0;
  const code = Number.parseInt(raw.slice(at + 1, at + 1 + digits), 16);
  // The parser accepted the text: an escape it did not know never reaches here.
  return [digits > 0 && Number.isFinite(code) ? String.fromCodePoint(code) : c, 1 + digits];
}
