/**
 * How VS Code matches a file watcher's `RelativePattern` against a reported path relative
 * to its base, written from the behaviour its glob documents and shows
 * (src/vs/base/common/glob.ts; extHostFileSystemEventService.ts filters each event with
 * it), for the stand-in's workbench only. What the tests rely on:
 * - the pattern is trimmed first: whitespace at either end is not part of it;
 * - `*` and `?` match within one path component; a whole `**` component matches any
 *   number of components, none included (`x/**` matches `x`);
 * - `[...]` is a character class: a leading `!` or `^` negates it, `-` makes a range, a `]`
 *   right after the opening bracket is literal, every other character is itself; there is
 *   no escape character;
 * - `]` outside a class matches nothing; `{a,b}` is a choice of sub-patterns, and a `}`
 *   with no `{` before it matches the empty string.
 */
export function vscodeGlobMatches(glob: string, relative: string): boolean {
  const pattern = glob.trim();
  if (!pattern) return false;
  try {
    return new RegExp(`^${componentsExpression(pattern)}$`, 'u').test(relative);
  } catch {
    return false; // A pattern that makes no expression matches nothing.
  }
}

const SEPARATOR = '[/\\\\]';
const IN_COMPONENT = '[^/\\\\]';

function literal(c: string): string {
  // `-` needs no escape outside a class, and the `u` flag refuses one that is not needed.
  return c.replace(/[\\^$.*+?()[\]{}|/]/gu, '\\$&');
}

/** A path's components, `**` among them, joined by separators. */
function componentsExpression(pattern: string): string {
  const parts = pattern.split('/');
  let out = '';
  for (const [i, part] of parts.entries()) {
    const last = i === parts.length - 1;
    if (part === '**') {
      // Zero or more whole components, with the separator that leads into the next one.
      out += last ? (i === 0 ? '.*' : `(?:${SEPARATOR}.*)?`) : `(?:${IN_COMPONENT}*${SEPARATOR})*`;
      continue;
    }
    out += componentExpression(part);
    // The separator before a trailing `**` belongs to it (`x/**` matches `x`).
    if (!last && !(i === parts.length - 2 && parts[i + 1] === '**')) out += SEPARATOR;
  }
  return out;
}

/** One component: wildcards, classes and choices. */
function componentExpression(part: string): string {
  let out = '';
  for (let i = 0; i < part.length; i++) {
    const c = part[i] as string;
    if (c === '*') out += `${IN_COMPONENT}*?`;
    else if (c === '?') out += IN_COMPONENT;
    else if (c === ']')
      out += '[]'; // An empty class: nothing matches it.
    else if (c === '}') out += '(?:)';
    else if (c === '[') {
      // The class runs to the first `]` that is not its first character.
      const close = part.indexOf(']', i + 2);
      if (close < 0) return `${out}[]`; // Unclosed: VS Code's expression never closes it either.
      out += classExpression(part.slice(i + 1, close));
      i = close;
    } else if (c === '{') {
      const close = part.indexOf('}', i + 1);
      if (close < 0) return out; // Unclosed: what follows is swallowed.
      out += `(?:${part
        .slice(i + 1, close)
        .split(',')
        .map(componentExpression)
        .join('|')})`;
      i = close;
    } else out += literal(c);
  }
  return out;
}

function classExpression(body: string): string {
  const negated = body.startsWith('!') || body.startsWith('^');
  const chars = [...(negated ? body.slice(1) : body)];
  return `[${negated ? '^' : ''}${chars.map((c) => (c === '-' ? '-' : literal(c))).join('')}]`;
}
