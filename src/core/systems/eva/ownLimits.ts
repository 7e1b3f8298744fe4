import type { Diagnostic, Item } from '../../model';
import type { UnreadByOwnLimits } from '../agentSystem';
import type { EvaDiagnosticCode } from './vocabulary';

/**
 * What Skillgate's Eva caps leave unread while Eva-CLI reads on (eva.md §1.2 "Caps (design
 * `discovery.limits`) [S: upstream code has none]"). The shipped loader walks every YAML file
 * of a root (eva-config lib.rs `find_yaml_files`/`collect_files`: no count) and reads each
 * whole (schema.rs `read_data`: `fs::read_to_string`, no size), so a skill past
 * `max_files_per_dir` or over `max_manifest_bytes` — which a project's own `config/eva.yaml`
 * may lower, to 0 — still registers. No one has seen it: `check` cannot vouch for it.
 */
export const EVA_UNREAD_BY_OWN_LIMITS: UnreadByOwnLimits = {
  // A project manifest over the size cap is `rejected manifest_too_large` by the design, with no
  // hashes (skillItem.ts `skillItem`): the decision Skillgate shows is not what Eva-CLI does.
  unit: (item: Item) =>
    item.scope === 'workspace' &&
    (item.kind === 'skill-adapter' || item.kind === 'lua-skill') &&
    item.reasons.includes('manifest_too_large')
      ? 'Skillgate did not read it (larger than max_manifest_bytes), and Eva-CLI has no such limit, so it cannot be vouched for'
      : null,
  places: (diagnostics: readonly Diagnostic[]) => diagnostics.filter(unreadPlace),
};

const PAST_THE_FILE_CAP: EvaDiagnosticCode = 'eva.scan.limit';
const OVER_THE_SIZE_CAP: EvaDiagnosticCode = 'eva.manifest.too-large';

/**
 * A directory's files past `max_files_per_dir` (one `eva.scan.limit` on its first skipped file:
 * none of them is an item), or a manifest over `max_manifest_bytes` that no item stands for: a
 * policy file (its refusal denies every skill, a denial Eva-CLI never makes) or an adapter whose
 * `transport: skill` the sniff did not find (manifestEntry.ts `sniffRole`), which Eva-CLI may
 * register all the same. An oversized manifest an item stands for is that item's failure (`unit`).
 */
function unreadPlace(d: Diagnostic): boolean {
  return d.code === PAST_THE_FILE_CAP || (d.code === OVER_THE_SIZE_CAP && d.itemId === null);
}
