import { BIDI_CONTROLS } from '../../text/hiddenUnicode';
import { rustTrim } from '../../text/rustText';
import { semverError } from './semver';

/** Codewhale's `validate_text(field, value, max)` (codewhale.md §4.4); undefined when valid. */
export function textProblem(field: string, value: string, max: number): string | undefined {
  // Rust's trim: a byte-order mark is text, U+0085 is whitespace.
  const trimmed = rustTrim(value);
  if (trimmed === '' || [...trimmed].length > max) return `${field} must contain 1-${max} non-whitespace characters`;
  if (/\p{Cc}/u.test(value)) return `${field} may not contain control characters`;
  if (BIDI_CONTROLS.test(value)) return `${field} may not contain bidirectional formatting characters`;
  return undefined;
}

/** `validate_environment_name(field)`: an ASCII identifier of at most 128 characters. */
export function environmentNameProblem(field: string, value: string): string | undefined {
  const t = textProblem(field, value, 128);
  if (t) return t;
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(value) ? undefined : `${field} must be an ASCII environment variable name`;
}

/** Parses the trimmed version but quotes it as written, untrimmed, as upstream does (codewhale.md §4.4 step 3). */
export function semverProblem(version: string): string | undefined {
  const reason = semverError(rustTrim(version));
  return reason === undefined ? undefined : `plugin version \`${version}\` is not valid semantic versioning: ${reason}`;
}

/** Windows-looking absolute paths count on every host (codewhale.md §10.1 case 8). */
export function looksAbsolute(p: string): boolean {
  return p.startsWith('/') || p.startsWith('\\') || /^[A-Za-z]:[\\/]/.test(p);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function iconProblem(icon: string): string | undefined {
  if (Buffer.byteLength(icon, 'utf8') > 32768) return 'plugin icon exceeds 32 KiB';
  const prefix = 'data:image/png;base64,';
  if (!icon.startsWith(prefix)) return 'plugin icon must be an inline PNG';
  const b64 = icon.slice(prefix.length);
  // The base64 crate's STANDARD engine: canonical padding, and no set bits left over in
  // the last character (`AB==` decodes leniently in Node but is refused there). Node's
  // encoder writes the one canonical form, so a round trip finds the leftover bits.
  const bytes = Buffer.from(b64, 'base64');
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(b64) || bytes.toString('base64') !== b64)
    return 'plugin icon has invalid base64';
  if (
    bytes.length < 33 ||
    !bytes.subarray(0, 8).equals(PNG_SIGNATURE) ||
    bytes.subarray(12, 16).toString('latin1') !== 'IHDR'
  ) {
    return 'plugin icon has an invalid PNG header';
  }
  const w = bytes.readUInt32BE(16);
  const h = bytes.readUInt32BE(20);
  if (w < 1 || w > 256 || h < 1 || h > 256) return 'plugin icon must fit within 256 by 256 pixels';
  return undefined;
}
