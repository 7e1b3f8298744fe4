import { Scalar, isMap, isScalar, isSeq, visit, type Document } from 'yaml';

/**
 * The first tab libyaml's scanner refuses (serde_yaml 0.9 is libyaml 0.2.5; eva.md §2.1),
 * where the yaml library reads the tab as white space and the document as valid, so
 * Skillgate said "registered" for a manifest Eva-CLI refuses:
 *
 * - between tokens in block context, where a simple key may start (at the start of a line,
 *   after `-`, `?`, or a `:` with no key before it): "found character that cannot start any
 *   token" (`-\tx`, `a: "1"` then a line `\t`);
 * - in the indentation of a line a plain scalar reads on (its continuation lines and the
 *   blank lines after it), left of the column its block needs: "found a tab character that
 *   violates indentation" (`a: 1` then a line `\t`);
 * - in the indentation of a block scalar's lines, left of its content's column or before that
 *   column is known: "found a tab character where an indentation space is expected"
 *   (`a: |` then `  \ta`).
 *
 * Read from the parsed document's node ranges and the text (`text` is the parser's copy:
 * every line break is `\n`): no second parse. A text without a tab costs one search.
 */
export function firstRefusedTab(doc: Document.Parsed, text: string): RefusedTab | undefined {
  if (!text.includes('\t')) return undefined;
  const layout = Layout.of(doc, text);
  let first: RefusedTab | undefined;
  const keep = (found: RefusedTab | undefined) => {
    if (found && (!first || found.offset < first.offset)) first = found;
  };
  for (const s of layout.scalars) {
    if (s.kind === 'plain') keep(plainScalarTab(text, s));
    else if (s.kind === 'block') keep(blockScalarTab(text, s));
  }
  // One check per run of white space (what a tab is allowed after does not change within it)
  // and one comment search per line: linear in a text of tabs.
  let line = -1;
  let comment = Infinity;
  for (let i = text.indexOf('\t'); i !== -1 && (!first || i < first.offset); i = text.indexOf('\t', i + 1)) {
    let j = i;
    while (j > 0 && text[j - 1] === ' ') j--;
    if (text[j - 1] === '\t' || layout.inScalar(i) || layout.inFlow(i)) continue;
    if (lineStart(text, i) !== line) {
      line = lineStart(text, i);
      comment = commentOrDirectiveStart(text, line, layout);
    }
    if (i > comment) continue;
    if (startsSimpleKey(text, i, layout)) {
      keep({ offset: i, message: 'found character that cannot start any token' });
      break;
    }
  }
  return first;
}

export interface RefusedTab {
  readonly offset: number;
  readonly message: string;
}

type ScalarKind = 'plain' | 'quoted' | 'block';

interface ScalarSpan {
  readonly kind: ScalarKind;
  readonly start: number;
  /** Where the scalar's own text ends. */
  readonly end: number;
  /** Past the white space and blank lines libyaml's scanner reads as part of the scalar. */
  readonly reach: number;
  /** libyaml's `parser->indent` at the scalar: the column of the innermost block collection, -1 at the top. */
  readonly parentIndent: number;
}

class Layout {
  private constructor(
    readonly scalars: readonly ScalarSpan[],
    private readonly flows: readonly (readonly [number, number])[],
  ) {}

  static of(doc: Document.Parsed, text: string): Layout {
    const scalars: ScalarSpan[] = [];
    const flows: [number, number][] = [];
    visit(doc, {
      Node(_key, node, path) {
        const range = node.range;
        if (!range) return;
        if ((isMap(node) || isSeq(node)) && node.flow) flows.push([range[0], range[1]]);
        if (!isScalar(node)) return;
        const [start, end] = [range[0], range[1]];
        // An empty value (`a:`) is a node with no text: no scalar for libyaml's scanner.
        if (start === end) return;
        const kind = scalarKind(node);
        // libyaml reads a plain or block scalar's trailing white space and line breaks with it
        // (and checks their tabs as plainScalarTab and blockScalarTab do).
        const reach = kind === 'quoted' ? end : skipBlank(text, end);
        scalars.push({ kind, start, end, reach, parentIndent: blockIndent(path, text) });
      },
    });
    scalars.sort((a, b) => a.start - b.start);
    flows.sort((a, b) => a[0] - b[0]);
    const outermost: [number, number][] = [];
    for (const flow of flows) {
      const last = outermost[outermost.length - 1];
      if (!last || flow[0] >= last[1]) outermost.push(flow);
    }
    return new Layout(scalars, outermost);
  }

  /** True inside a scalar's own text, or in the white space a plain or block scalar reads after it. */
  inScalar(offset: number): boolean {
    // Scalars do not overlap: the last one starting at or before the offset is the only candidate.
    let lo = 0;
    let hi = this.scalars.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.scalars[mid] as ScalarSpan).start <= offset) lo = mid + 1;
      else hi = mid;
    }
    const s = this.scalars[lo - 1];
    if (!s) return false;
    return offset < s.reach;
  }

  /** True inside a flow collection (libyaml's flow context). */
  inFlow(offset: number): boolean {
    // Nested collections lie inside their parent: the outermost ones, sorted, decide.
    let lo = 0;
    let hi = this.flows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.flows[mid] as readonly [number, number])[0] <= offset) lo = mid + 1;
      else hi = mid;
    }
    const flow = this.flows[lo - 1];
    return flow !== undefined && offset < flow[1];
  }
}

function scalarKind(node: Scalar): ScalarKind {
  if (node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE) return 'quoted';
  if (node.type === Scalar.BLOCK_LITERAL || node.type === Scalar.BLOCK_FOLDED) return 'block';
  return 'plain';
}

/**
 * The column of the innermost block collection around a node: where its first entry's
 * first token stands (a key's anchor or tag included), as libyaml rolls its indentation.
 */
function blockIndent(path: readonly unknown[], text: string): number {
  for (let i = path.length - 1; i >= 0; i--) {
    const node = path[i];
    if (!(isMap(node) || isSeq(node)) || node.flow || !node.range) continue;
    let start = node.range[0];
    // The yaml library starts a mapping at its first key's text, after the key's properties.
    if (isMap(node)) start = propertiesStart(text, start);
    return column(text, start);
  }
  return -1;
}

/** Back from `offset` over `&anchor` and `!tag` tokens before it on its line. */
function propertiesStart(text: string, offset: number): number {
  let start = offset;
  for (;;) {
    let i = start;
    while (i > 0 && (text[i - 1] === ' ' || text[i - 1] === '\t')) i--;
    let j = i;
    while (j > 0 && !/[\s]/.test(text.charAt(j - 1))) j--;
    if (j === i || (text[j] !== '&' && text[j] !== '!')) return start;
    start = j;
  }
}

function column(text: string, offset: number): number {
  return offset - lineStart(text, offset);
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Past spaces, tabs and line breaks from `offset`. */
function skipBlank(text: string, offset: number): number {
  let i = offset;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  return i;
}

/**
 * libyaml's scan_plain_scalar: in the indentation of each line it reads after a line break
 * (its continuation lines and the blank lines after it), a tab left of its block's column + 1.
 */
function plainScalarTab(text: string, s: ScalarSpan): RefusedTab | undefined {
  const need = s.parentIndent + 1;
  if (need <= 0) return undefined;
  for (let nl = text.indexOf('\n', s.start); nl !== -1 && nl < s.reach; nl = text.indexOf('\n', nl + 1)) {
    let i = nl + 1;
    while (i < s.reach && text[i] === ' ') i++;
    if (text[i] === '\t' && i < s.reach && i - (nl + 1) < need)
      return { offset: i, message: 'found a tab character that violates indentation' };
  }
  return undefined;
}

/**
 * libyaml's scan_block_scalar_breaks: each line after the header is indented by spaces up to
 * the content's column (given by the header, else the first content line's, at least one past
 * its block's); a tab before that column, or anywhere in the indentation before the column is
 * known, is refused. The lines end at the first one indented less that is not blank.
 */
function blockScalarTab(text: string, s: ScalarSpan): RefusedTab | undefined {
  // The header's indicators: `|2-`, `>-2`; a digit gives the content's column.
  const digit = /^[|>][+-]?([1-9])/.exec(text.slice(s.start, s.start + 3));
  let indent = digit ? (s.parentIndent >= 0 ? s.parentIndent : 0) + Number(digit[1]) : 0;
  let maxIndent = 0;
  const refused = (offset: number) => ({
    offset,
    message: 'found a tab character where an indentation space is expected',
  });
  for (let nl = text.indexOf('\n', s.start); nl !== -1; nl = text.indexOf('\n', nl + 1)) {
    const line = nl + 1;
    let i = line;
    while ((indent === 0 || i - line < indent) && text[i] === ' ') i++;
    if (indent === 0) maxIndent = Math.max(maxIndent, i - line);
    if ((indent === 0 || i - line < indent) && text[i] === '\t') return refused(i);
    if (i >= text.length) return undefined;
    if (text[i] === '\n') continue;
    // The first content line fixes the column when the header did not.
    if (indent === 0) indent = Math.max(maxIndent, s.parentIndent + 1, 1);
    if (i - line < indent) return undefined;
  }
  return undefined;
}

/** Where a comment (`#` after white space, outside scalars) or a directive starts on the line; Infinity for none. */
function commentOrDirectiveStart(text: string, start: number, layout: Layout): number {
  if (text[start] === '%') return start;
  const end = text.indexOf('\n', start);
  for (let i = start; i < (end === -1 ? text.length : end); i++) {
    if (text[i] === '#' && (i === start || /[ \t]/.test(text.charAt(i - 1))) && !layout.inScalar(i)) return i;
  }
  return Infinity;
}

/**
 * libyaml skips a tab between tokens in block context only where no simple key may start:
 * not at the start of a line, nor after `-`, `?`, or a `:` that follows no key.
 */
function startsSimpleKey(text: string, offset: number, layout: Layout): boolean {
  const before = previousToken(text, offset);
  if (before === undefined || before < lineStart(text, offset)) return true;
  return (
    isIndicator(text, before, layout, '-?') ||
    (isIndicator(text, before, layout, ':') && followsNoKey(text, before, layout))
  );
}

/** The last character before `offset` that is not a space, a tab, a line break or a BOM. */
function previousToken(text: string, offset: number): number | undefined {
  let i = offset - 1;
  while (i >= 0 && /[ \t\n\r\ufeff]/.test(text.charAt(i))) i--;
  return i >= 0 ? i : undefined;
}

/** One of `chars` standing as an indicator: at the start of its line or after white space, outside any scalar. */
function isIndicator(text: string, offset: number, layout: Layout, chars: string): boolean {
  if (!chars.includes(text.charAt(offset)) || layout.inScalar(offset)) return false;
  return offset === lineStart(text, offset) || /[ \t\ufeff]/.test(text.charAt(offset - 1));
}

/** A `:` with nothing before it on its line but indicators: a complex key's value (after `?`). */
function followsNoKey(text: string, colon: number, layout: Layout): boolean {
  const before = previousToken(text, colon);
  return before === undefined || before < lineStart(text, colon) || isIndicator(text, before, layout, '-?:');
}
