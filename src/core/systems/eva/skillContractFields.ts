import type { DocPath } from '../../documents/document';
import type { Checker } from './contracts';
import { KNOWN_MODES, type RuntimeGate } from './runtime';
import { fieldPath } from './schemaSubset';
import { isMapping, yamlTypeName } from './yamlValue';

/**
 * Fields of the skill contract (eva.md §3.1, §3.4) that a skill adapter and a lua_skill read
 * alike: the runtime gate in either form, a file path, a list of strings and the numeric limits.
 * A field of the wrong shape is an error on the Checker, and reads as absent.
 */

/** A runtime gate in either form (§3.4); missing or malformed gates are contract errors. */
export function readGate(
  c: Checker,
  owner: Record<string, unknown>,
  field: DocPath,
  missingMessage: string,
  missingAt: DocPath,
): RuntimeGate | null {
  const key = field[field.length - 1] as string;
  const v = owner[key];
  if (v === undefined || v === null) {
    c.error('eva.skill.gate-missing', missingMessage, missingAt, false);
    return null;
  }
  const invalid = () => (
    c.error(
      'eva.skill.gate-invalid',
      'runtime gate must be a mode string or a mapping with allowed_modes',
      field,
      false,
    ),
    null
  );
  let gate: RuntimeGate;
  if (typeof v === 'string') {
    if (v.trim() === '') return invalid();
    gate = { allowedModes: [v], disallowTeamWorker: false, requiresInteractiveUser: false, form: 'string' };
  } else if (isMapping(v)) {
    const modes = v['allowed_modes'];
    // Only an absent flag takes its default: `~` is no boolean, as for every other flag of the
    // contract (`enabled`, `permissions.*`), and reading it as false would admit more runtimes.
    const dtw = v['disallow_team_worker'] === undefined ? false : v['disallow_team_worker'];
    const riu = v['requires_interactive_user'] === undefined ? false : v['requires_interactive_user'];
    if (
      !Array.isArray(modes) ||
      modes.length === 0 ||
      !modes.every((m) => typeof m === 'string') ||
      typeof dtw !== 'boolean' ||
      typeof riu !== 'boolean'
    )
      return invalid();
    gate = { allowedModes: modes as string[], disallowTeamWorker: dtw, requiresInteractiveUser: riu, form: 'mapping' };
  } else return invalid();
  // Once per mode: a list that repeats one is one note (the Checker bounds the rest per file).
  for (const mode of new Set(gate.allowedModes))
    if (!KNOWN_MODES.includes(mode)) c.note('eva.gate.unknown-mode', `unknown runtime mode ${mode}`, field);
  return gate;
}

export function pathField(c: Checker, v: unknown, field: DocPath): { declared: string; field: DocPath } | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string')
    return (
      c.error('eva.schema.type', `schema type mismatch: expected string, got ${yamlTypeName(v)}`, field, false),
      null
    );
  if (v.includes('\0'))
    return (c.error('eva.schema.type', `${fieldPath(field).slice(2)} contains a NUL byte`, field, false), null);
  return { declared: v, field };
}

/**
 * The strings of a list, each with its path. The first element that is no string is the
 * error, as upstream's schema `items` reports one (it stops at a list's first bad element):
 * a list of 20,000 aliases of `[x, y]` is one diagnostic, not 20,000 (fuzz seed 7005).
 */
export function stringList(v: unknown, field: DocPath, c?: Checker): { name: string; field: DocPath }[] {
  if (!Array.isArray(v)) return [];
  const out: { name: string; field: DocPath }[] = [];
  let refused = false;
  v.forEach((s, i) => {
    if (typeof s === 'string') out.push({ name: s, field: [...field, i] });
    else if (!refused) {
      refused = true;
      c?.error('eva.schema.type', `schema type mismatch: expected string, got ${yamlTypeName(s)}`, [...field, i], true);
    }
  });
  return out;
}

export function numbers(v: unknown): Record<string, number> {
  const out: Record<string, number> = Object.create(null) as Record<string, number>;
  if (isMapping(v)) for (const [k, n] of Object.entries(v)) if (typeof n === 'number') out[k] = n;
  return out;
}
