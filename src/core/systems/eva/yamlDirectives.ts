import type { LibyamlRefusal } from './yamlRefusal';
import { uriEnd } from './yamlTagUri';

/** A refusal, ordered among the library's errors at `line` (a directive's line start, where the library reports its own errors there). */
export interface DirectiveRefusal extends LibyamlRefusal {
  readonly line: number;
}

/**
 * The directives (`%YAML`, `%TAG`) as libyaml 0.2.5 (serde_yaml 0.9, Eva's parser; eva.md
 * §2.1) scans and parses them, where the yaml library reads them otherwise: it splits a
 * directive's line at white space, warns of a name or version it does not know, and lets a
 * directive stand with no document after it. libyaml refuses, at these places:
 *
 * - a directive name other than `YAML` and `TAG` ("found unknown directive name", after it);
 * - a version not written `digits.digits` ("did not find expected version number", "did not
 *   find expected digit or '.' character"), one other than 1.1 and 1.2 ("found incompatible
 *   YAML document"), a second `%YAML` ("found duplicate %YAML directive");
 * - a `%TAG` handle not `!`, `!!` or `!name!` ("did not find expected '!'"), a prefix of no
 *   URI characters or followed by other text, a `#` included ("did not find expected
 *   whitespace or line break"), a handle given twice ("found duplicate %TAG directive");
 * - anything after a directive but white space and a comment, which needs no white space
 *   before its `#` (`%YAML 1.1#c` is version 1.1: the library refused "1.1#c");
 * - directives followed by no `---` ("did not find expected <document start>"), at the start
 *   of the text or after a `...`; a `...` before the first document ("did not find expected
 *   node content": the library read an empty document before it, then a second one).
 *
 * Directives stand at the start of a line, before the first document or after a `...` line.
 * One reading gives both the refusal and `text`: a copy of the input of the same length in which
 * what libyaml skips and the library would read is blanked: a directive's comment with no white
 * space before its `#` (`%YAML 1.1#c`, where the library read the version `1.1#c`), and a `...`
 * after a `...` (the library read an empty document between them, a second document). Blanking
 * them changes no refusal: a blanked comment reads as the white space that may end a directive,
 * a blanked `...` as the blank line it is skipped as.
 */
export function readDirectives(text: string): Directives {
  const { refusal, blanks } = scanDirectives(text);
  return { refusal, text: blanks.length === 0 ? text : blanked(text, blanks) };
}

export interface Directives {
  readonly refusal: DirectiveRefusal | undefined;
  /** The input with what libyaml skips blanked (same length: every offset stays the file's). */
  readonly text: string;
}

function blanked(text: string, blanks: readonly (readonly [number, number])[]): string {
  let out = '';
  let from = 0;
  for (const [start, end] of blanks) {
    out += text.slice(from, start) + ' '.repeat(end - start);
    from = end;
  }
  return out + text.slice(from);
}

interface Scan {
  readonly refusal: DirectiveRefusal | undefined;
  /** Text libyaml skips that the library reads otherwise, [start, end) offsets, in text order. */
  readonly blanks: Array<readonly [number, number]>;
}

function scanDirectives(text: string): Scan {
  const blanks: Array<readonly [number, number]> = [];
  if (!text.includes('%') && !text.includes('...')) return { refusal: undefined, blanks };
  // Between documents (at the start, or after `...`), or in one.
  let between = true;
  // Between documents after a `...` (not at the start of the text).
  let ended = false;
  let directives: { yaml: boolean; tags: Set<string> } | undefined;
  // Where the line after the last directive starts: libyaml's scanner reads a directive's line break itself.
  let afterDirective = -1;
  for (let start = 0; start <= text.length;) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end).replace(/\r$/, '');
    const next = end + 1;
    if (!between) {
      if (DOCUMENT_END.test(line)) between = ended = true;
      else if (DOCUMENT_START.test(line)) break;
      start = next;
      continue;
    }
    if (/^[ \t]*(?:#.*)?$/.test(line)) {
      start = next;
      continue;
    }
    // libyaml's parser skips a `...` after a `...`; the library read an empty document between them.
    if (!directives && DOCUMENT_END.test(line)) {
      // At the start, the first document is implicit: its node is expected where the `...` stands.
      if (!ended)
        return { refusal: { line: start, offset: start, message: 'did not find expected node content' }, blanks };
      blanks.push([start, start + 3]);
      start = next;
      continue;
    }
    if (line.startsWith('%')) {
      directives ??= { yaml: false, tags: new Set() };
      const scanned = scanDirective(line);
      if ('problem' in scanned)
        return { refusal: { line: start, offset: start + scanned.at, message: scanned.problem }, blanks };
      if (scanned.comment !== undefined && !/[ \t]/.test(line.charAt(scanned.comment - 1)))
        blanks.push([start + scanned.comment, start + line.length]);
      const problem = parsedProblem(scanned, directives);
      if (problem) return { refusal: { line: start, offset: start, message: problem }, blanks };
      afterDirective = next;
      start = next;
      continue;
    }
    // The first token after the directives must be `---`. libyaml's parser says so once its
    // scanner has read that token (so a fault within it comes first: ordered at its end), except
    // an indicator on the line right after a directive, which its scanner allows no key or entry.
    if (directives && !DOCUMENT_START.test(line)) {
      const first = start + line.search(/[^ \t]/);
      const indicator = INDICATOR_AFTER_DIRECTIVE[text.charAt(first)];
      if (indicator && start === afterDirective && /^(?:[ \t\r\n]|$)/.test(text.charAt(first + 1)))
        return { refusal: { line: first, offset: first, message: indicator }, blanks };
      const end = first + line.slice(first - start).search(/[ \t]|$/);
      return { refusal: { line: end + 1, offset: first, message: DOCUMENT_START_EXPECTED }, blanks };
    }
    directives = undefined;
    between = false;
    start = next;
  }
  const end = text.length;
  return { refusal: directives ? { line: end, offset: end, message: DOCUMENT_START_EXPECTED } : undefined, blanks };
}

const DOCUMENT_START = /^---(?:[ \t]|$)/;
const DOCUMENT_END = /^\.\.\.(?:[ \t]|$)/;
const DOCUMENT_START_EXPECTED = 'did not find expected <document start>';
const INDICATOR_AFTER_DIRECTIVE: Readonly<Record<string, string>> = {
  '-': 'block sequence entries are not allowed in this context',
  '?': 'mapping keys are not allowed in this context',
  ':': 'mapping values are not allowed in this context',
};

type Scanned =
  | { readonly problem: string; readonly at: number }
  | {
      readonly name: 'YAML';
      readonly major: number;
      readonly minor: number;
      readonly comment: number | undefined;
    }
  | { readonly name: 'TAG'; readonly handle: string; readonly comment: number | undefined };

/** libyaml's yaml_parser_scan_directive on one line (the `%` at 0): its token, or its problem and where. */
function scanDirective(line: string): Scanned {
  let at = 1;
  const blankz = (i: number) => i >= line.length || line[i] === ' ' || line[i] === '\t';
  const blank = (i: number) => line[i] === ' ' || line[i] === '\t';
  const skipBlanks = () => {
    while (blank(at)) at++;
  };
  const nameEnd = (i: number) => {
    while (i < line.length && /[0-9A-Za-z_-]/.test(line[i] as string)) i++;
    return i;
  };
  const name = line.slice(at, (at = nameEnd(at)));
  if (name === '') return { problem: 'could not find expected directive name', at };
  if (!blankz(at)) return { problem: 'found unexpected non-alphabetical character', at };
  let token: Scanned;
  if (name === 'YAML') {
    skipBlanks();
    const number = (): number | { problem: string; at: number } => {
      let digits = 0;
      let value = 0;
      while (/[0-9]/.test(line[at] ?? '')) {
        if (++digits > MAX_VERSION_DIGITS) return { problem: 'found extremely long version number', at };
        value = value * 10 + Number(line[at]);
        at++;
      }
      return digits === 0 ? { problem: 'did not find expected version number', at } : value;
    };
    const major = number();
    if (typeof major !== 'number') return major;
    if (line[at] !== '.') return { problem: "did not find expected digit or '.' character", at };
    at++;
    const minor = number();
    if (typeof minor !== 'number') return minor;
    token = { name, major, minor, comment: undefined };
  } else if (name === 'TAG') {
    skipBlanks();
    if (line[at] !== '!') return { problem: "did not find expected '!'", at };
    const handleStart = at;
    at = nameEnd(at + 1);
    if (line[at] === '!') at++;
    else if (at !== handleStart + 1) return { problem: "did not find expected '!'", at };
    const handle = line.slice(handleStart, at);
    if (!blank(at)) return { problem: 'did not find expected whitespace', at };
    skipBlanks();
    const prefixStart = at;
    const prefixEnd = uriEnd(line, at);
    if (typeof prefixEnd !== 'number') return prefixEnd;
    at = prefixEnd;
    if (at === prefixStart) return { problem: 'did not find expected tag URI', at };
    if (!blankz(at)) return { problem: 'did not find expected whitespace or line break', at };
    token = { name, handle, comment: undefined };
  } else return { problem: 'found unknown directive name', at };
  // The rest of the line: white space, then a comment, then the line break.
  skipBlanks();
  const comment = line[at] === '#' ? at : undefined;
  if (comment === undefined && at < line.length) return { problem: 'did not find expected comment or line break', at };
  return { ...token, comment };
}

/** libyaml's yaml_parser_process_directives: a version it does not take, or a directive given twice. */
function parsedProblem(
  token: Exclude<Scanned, { problem: string }>,
  seen: { yaml: boolean; tags: Set<string> },
): string | undefined {
  if (token.name === 'YAML') {
    if (seen.yaml) return 'found duplicate %YAML directive';
    seen.yaml = true;
    if (token.major !== 1 || (token.minor !== 1 && token.minor !== 2)) return 'found incompatible YAML document';
    return undefined;
  }
  if (seen.tags.has(token.handle)) return 'found duplicate %TAG directive';
  seen.tags.add(token.handle);
  return undefined;
}

/** libyaml's MAX_NUMBER_LENGTH: a version number of more digits is refused. */
const MAX_VERSION_DIGITS = 9;
