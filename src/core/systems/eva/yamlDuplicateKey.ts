import { rustDebugStr } from '../../text/rustText';
import type { YamlScalar } from './yamlScalars';

/**
 * serde_yaml 0.9's words for a key given twice in one mapping (eva.md §2.1: "duplicate mapping
 * keys are a parse error"). libyaml does not refuse it; serde_yaml's `Mapping` does as it
 * reads the generic value (mapping.rs `DuplicateKeyError`): `duplicate entry with key "x"`,
 * the key as its `Value` displays. The error has no place of its own, so `fix_mark` gives it
 * the mapping's: its path (`permissions: …`, none at the root) and its start event's mark,
 * which error.rs leaves out at line 1 column 1.
 */

/** serde_yaml's path to a value (path.rs), kept as links and written out only for an error. */
export type SerdePath =
  | null
  | { readonly parent: SerdePath; readonly key: string }
  | { readonly parent: SerdePath; readonly index: number }
  | { readonly parent: SerdePath; readonly unknown: true };

/** path.rs `Display`: `.` for the root, `a.b`, `a[0]`, `.[0]` for the root's items, `a.?` under a key that is no scalar. */
export function serdePathText(path: SerdePath): string {
  if (path === null) return '.';
  const parent = path.parent === null ? '' : `${serdePathText(path.parent)}.`;
  if ('key' in path) return parent + path.key;
  if ('index' in path) return `${serdePathText(path.parent)}[${path.index}]`;
  return `${parent}?`;
}

/** The error's text before its place: `<path>: duplicate entry …` (error.rs leaves out a path of `.`). */
export function duplicateEntryMessage(path: SerdePath, key: YamlScalar | undefined, tagged: boolean): string {
  const at = serdePathText(path);
  return `${at === '.' ? '' : `${at}: `}duplicate entry ${duplicateKeyWords(key, tagged)}`;
}

/** `DuplicateKeyError`'s `Display` of the key (undefined: a sequence or mapping key). */
function duplicateKeyWords(key: YamlScalar | undefined, tagged: boolean): string {
  if (!key || tagged) return 'in YAML map';
  switch (key.kind) {
    case 'null':
      return 'with null key';
    case 'bool':
      return `with key \`${key.value}\``;
    case 'int':
      return `with key ${key.value}`;
    case 'float':
      return `with key ${yamlFloatText(key.value)}`;
    case 'str':
      return `with key ${rustDebugStr(key.value)}`;
  }
}

/** serde_yaml's `Number` display of a float: `.nan`, `.inf`, `-.inf`, else ryu's `format_finite`. */
function yamlFloatText(f: number): string {
  if (Number.isNaN(f)) return '.nan';
  if (!Number.isFinite(f)) return f < 0 ? '-.inf' : '.inf';
  const sign = f < 0 || Object.is(f, -0) ? '-' : '';
  if (f === 0) return `${sign}0.0`;
  // The shortest digits that read back as `f` (as ryu finds them), and the power of ten of the first.
  const [mantissa = '', exponent = '0'] = Math.abs(f).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const kk = Number(exponent) + 1;
  const e = kk - digits.length;
  if (e >= 0 && kk <= 16) return `${sign}${digits}${'0'.repeat(e)}.0`;
  if (kk > 0 && kk <= 16) return `${sign}${digits.slice(0, kk)}.${digits.slice(kk)}`;
  if (kk > -5 && kk <= 0) return `${sign}0.${'0'.repeat(-kk)}${digits}`;
  const rest = digits.length === 1 ? '' : `.${digits.slice(1)}`;
  return `${sign}${digits[0]}${rest}e${kk - 1}`;
}

/**
 * Where libyaml's MAPPING-START event of a mapping stands: at its properties (`&a`, `!t`) when it
 * has any, else at its first token, which is its first key's properties when they stand before
 * the key on its line (`&k a: 1`). The yaml library starts a block mapping at its first key's
 * text. `start` is that offset; `hasProperties` whether the mapping has an anchor or a tag.
 */
export function mappingStartMark(text: string, start: number, hasProperties: boolean): number {
  let mark = propertiesBefore(text, start, false);
  if (hasProperties) mark = propertiesBefore(text, mark, true);
  return mark;
}

/**
 * Back from `offset` over `&anchor` and `!tag` tokens before it: on its line only, or (`lines`)
 * across line breaks and a comment at the end of a line too, as a mapping's properties may stand
 * on the line of its key (`a: &x # c` then the mapping's lines).
 */
function propertiesBefore(text: string, offset: number, lines: boolean): number {
  let start = offset;
  for (;;) {
    let i = start;
    for (;;) {
      while (i > 0 && (text[i - 1] === ' ' || text[i - 1] === '\t')) i--;
      if (!lines || (text[i - 1] !== '\n' && text[i - 1] !== '\r')) break;
      i--;
      // The end of the line before: its text left of a comment (a `#` after a blank).
      const lineStart = Math.max(text.lastIndexOf('\n', i - 1), text.lastIndexOf('\r', i - 1)) + 1;
      const comment = text.slice(lineStart, i).search(/(?:^|[ \t])#/);
      if (comment !== -1) i = lineStart + comment;
    }
    let j = i;
    while (j > 0 && !/\s/.test(text.charAt(j - 1))) j--;
    if (j === i || (text[j] !== '&' && text[j] !== '!')) return start;
    start = j;
  }
}
