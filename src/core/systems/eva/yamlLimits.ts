/**
 * The bounds of Eva's YAML read (eva.md §2.1): serde_yaml 0.9's own (de.rs: the recursion limit
 * its `remaining_depth` counts down, the repetition limit its `jump` puts on alias expansion),
 * Skillgate's bound on the nodes expanded in all, and the pre-scan that refuses flow nesting
 * deeper than the recursion limit before the parser composes it.
 */

/** serde_yaml's recursion limit (its `remaining_depth` of 128). */
export const MAX_YAML_DEPTH = 128;
/** serde_yaml stops alias expansion past 100 jumps per parser event ("repetition limit exceeded"). */
export const ALIAS_JUMPS_PER_NODE = 100;
/** [Skillgate] Expanded nodes in all: bounds memory where serde_yaml bounds only jumps. */
export const MAX_EXPANDED_NODES = 250_000;

/**
 * The depth of `[`/`{` outside quotes and comments: the parser composes recursively, so
 * text nesting deeper than serde_yaml allows is refused before it is parsed.
 */
export function flowDepthExcess(text: string): number | undefined {
  let depth = 0;
  let quote = '';
  let comment = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (comment) {
      if (c === '\n' || c === '\r') comment = false;
      continue;
    }
    if (quote) {
      if (c === quote) quote = '';
      continue;
    }
    if (c === '#' && (i === 0 || /\s/.test(text.charAt(i - 1)))) comment = true;
    else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '{') {
      if (++depth > MAX_YAML_DEPTH) return i;
    } else if ((c === ']' || c === '}') && depth > 0) depth--;
  }
  return undefined;
}
