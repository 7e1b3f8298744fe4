import { rustTrim } from '../../text/rustText';

/**
 * Eva-core's identifier and capability-name rules (eva.md §2.7), with upstream's
 * messages, checked in upstream's order. Each returns the first broken rule or undefined.
 * Edge whitespace is what Rust's `str::trim` removes (Unicode White_Space: U+0085 is
 * whitespace, a U+FEFF byte-order mark is not), not what JS `trim` removes.
 */

const MAX_ID_BYTES = 128;

/** `AdapterId` / `CapabilityId` (ids.rs). */
export function identifierError(id: string): string | undefined {
  if (id.length === 0) return 'identifier cannot be empty';
  if (rustTrim(id) !== id) return 'identifier cannot contain leading or trailing whitespace';
  if (Buffer.byteLength(id, 'utf8') > MAX_ID_BYTES) return 'identifier is too long';
  if (/[/\\]/.test(id)) return 'identifier cannot contain path separators';
  if (!/^[A-Za-z0-9._:-]+$/.test(id))
    return "identifier may only contain ASCII letters, digits, '.', '_', '-', and ':'";
  return undefined;
}

/** `CapabilityName` (capability.rs). */
export function capabilityNameError(name: string): string | undefined {
  if (name.length === 0) return 'capability name cannot be empty';
  if (rustTrim(name) !== name) return 'capability name cannot contain leading or trailing whitespace';
  // Segment by segment, left to right, as upstream: in `ré..x` the bad character comes first.
  for (const segment of name.split('.')) {
    if (segment.length === 0) return 'capability name cannot contain empty segments';
    if (!/^[A-Za-z0-9_-]+$/.test(segment))
      return "capability segments may only contain ASCII letters, digits, '_', and '-'";
  }
  return undefined;
}

/** `name` / `version` (eva-config's `require_non_empty`: blank text counts as empty). */
export function textFieldError(value: string): string | undefined {
  const trimmed = rustTrim(value);
  if (trimmed.length === 0) return 'required field cannot be empty';
  if (trimmed !== value) return 'field cannot contain leading or trailing whitespace';
  return undefined;
}

/** The namespace of a capability name: its first segment. */
export function capabilityNamespace(name: string): string {
  return name.split('.')[0] ?? '';
}
