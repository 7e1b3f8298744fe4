import { byteOrder } from '../../hashing/capabilityPairs';
import { portableRelative } from '../../fs/portablePath';
import type { Diagnostic } from '../../model';
import type { SkillContract } from './contracts';
import { evaDiagnostic } from './diagnostics';
import type { EvaItem } from './item';
import type { ManifestEntry } from './manifestEntry';
import { isMapping, manifestRoot } from './yamlValue';
import { capabilityProviderRefs } from './capabilityProviderRefs';

/** Keys, precedence and shadowing across manifests (eva.md §4.3), and the cross-file provider check (§2.4). */

/** The conflict types an item takes part in (eva.md §4.3), from its conflict diagnostics, for `detail.eva.conflicts`. */
const CONFLICT_TYPES: Record<string, string> = {
  'eva.conflict.duplicate-adapter-id': 'duplicate_adapter_id',
  'eva.conflict.duplicate-capability-id': 'duplicate_capability_id',
  'eva.conflict.cross-namespace-id': 'cross_namespace_id',
  'eva.conflict.multiple-providers': 'same_capability_multiple_provider',
};

/**
 * Each item's conflict types (`detail.eva.conflicts`), in the order of its conflict
 * diagnostics, read in one pass: a pass over every diagnostic for each item was quadratic
 * (500 adapters declaring 1,000 unknown capabilities each: 5 of a run's 13 s).
 */
export function withConflicts(items: readonly EvaItem[], diagnostics: readonly Diagnostic[]): EvaItem[] {
  const byItem = new Map<string, Set<string>>();
  for (const d of diagnostics) {
    const type = CONFLICT_TYPES[d.code];
    if (d.itemId === null || type === undefined) continue;
    const types = byItem.get(d.itemId);
    if (types) types.add(type);
    else byItem.set(d.itemId, new Set([type]));
  }
  return items.map((item) => {
    const types = byItem.get(item.id);
    // A shadowed project item always carries its duplicate-id diagnostic (resolveIds), so it has a conflict type too.
    if (!types) return item;
    return { ...item, detail: { ...item.detail, eva: { ...item.detail.eva, conflicts: [...types] } } };
  });
}

/** §4.3 rules 1–2: the first manifest in path order with an id wins; later ones are shadowed. */
export function resolveIds(
  entries: ManifestEntry[],
  code: 'eva.conflict.duplicate-adapter-id' | 'eva.conflict.duplicate-capability-id',
  message: string,
  root: string,
): void {
  const first = new Map<string, ManifestEntry>();
  for (const e of entries) {
    if (e.id === null) continue;
    const winner = first.get(e.id);
    if (!winner) {
      first.set(e.id, e);
      continue;
    }
    e.shadow = { by: winner };
    e.shipped = true;
    e.diagnostics.push(
      evaDiagnostic(
        e.abs,
        e.doc?.fieldRange(['id']),
        code,
        `${message}: ${e.id} (${portableRelative(root, winner.abs)}, ${portableRelative(root, e.abs)})`,
      ),
    );
  }
}

/** §4.3 rule 3: separate namespaces, but a name selector would be ambiguous. */
export function crossNamespace(adapters: ManifestEntry[], capabilities: ManifestEntry[]): void {
  const adapterIds = new Set(adapters.map((e) => e.id).filter((id): id is string => id !== null));
  const shared = new Set(capabilities.map((e) => e.id).filter((id): id is string => id !== null && adapterIds.has(id)));
  for (const e of [...adapters, ...capabilities]) {
    if (e.id === null || !shared.has(e.id)) continue;
    e.diagnostics.push(
      evaDiagnostic(
        e.abs,
        e.doc?.fieldRange(['id']),
        'eva.conflict.cross-namespace-id',
        `the id ${e.id} is used by both an adapter and a capability manifest`,
      ),
    );
  }
}

/** Cross-file check: a capability's provider must be an existing adapter (§2.4). */
export function providersExist(capabilities: ManifestEntry[], adapters: ManifestEntry[]): void {
  const ids = new Set(adapters.map((e) => e.id).filter((id): id is string => id !== null));
  for (const e of capabilities) {
    const root = e.doc && manifestRoot(e.doc);
    if (!e.doc || e.check?.invalid || !isMapping(root)) continue;
    // As serde read them: `default_provider: 5` names the adapter "5" (capabilityProviderRefs.ts).
    for (const { name, field } of capabilityProviderRefs(e.doc, root)) {
      if (ids.has(name)) continue;
      e.diagnostics.push(
        evaDiagnostic(
          e.abs,
          e.doc.fieldRange(field),
          'eva.capability.provider-missing',
          'Capability provider Adapter does not exist',
        ),
      );
      e.shipped = true;
      e.providerMissing = true;
      break;
    }
  }
}

/** §4.3 rule 6: several skill adapters exposing one capability; Eva-CLI routes to the lexically first enabled adapter id. */
export function multipleProviders(entries: ManifestEntry[], contracts: Map<ManifestEntry, SkillContract>): void {
  const byCapability = new Map<string, ManifestEntry[]>();
  // A shadowed duplicate id is never loaded (rule 1), so it provides nothing: it neither counts
  // as a second provider nor lends its `enabled` to the winner's id in the route.
  const providing = entries.filter((e) => !e.shadow);
  for (const e of providing) {
    const k = contracts.get(e);
    if (!k) continue;
    for (const cap of new Set(k.capabilities.map((c) => c.name))) {
      // Appended in place: a copy per adapter is quadratic in the adapters of one capability.
      const providers = byCapability.get(cap);
      if (providers) providers.push(e);
      else byCapability.set(cap, [e]);
    }
  }
  const told = new Set<ManifestEntry>();
  const tell = (providers: ManifestEntry[], what: string, fieldOf: (k: SkillContract) => (string | number)[]) => {
    const enabled = providers
      .map((e) => contracts.get(e) as SkillContract)
      .filter((k) => k.enabled)
      .map((k) => k.id)
      .sort(byteOrder);
    const route = enabled[0] ?? 'no enabled adapter';
    for (const e of providers) {
      if (told.has(e)) continue;
      told.add(e);
      e.diagnostics.push(
        evaDiagnostic(
          e.abs,
          e.doc?.fieldRange(fieldOf(contracts.get(e) as SkillContract)),
          'eva.conflict.multiple-providers',
          `${what} has several providers; Eva-CLI routes to ${route} (lexically first enabled adapter id)`,
        ),
      );
    }
  };
  for (const [cap, providers] of byCapability) {
    if (providers.length >= 2)
      tell(providers, cap, (k) => [...(k.capabilities.find((c) => c.name === cap)?.field ?? ['capabilities'])]);
  }
  // Adapters wrapping the same skill without sharing a capability are told once too.
  const bySkill = new Map<string, ManifestEntry[]>();
  for (const e of providing) {
    const k = contracts.get(e);
    if (!k?.skillId) continue;
    // Appended in place, as above.
    const key = `${k.skillSource ?? ''}\0${k.skillId}`;
    const providers = bySkill.get(key);
    if (providers) providers.push(e);
    else bySkill.set(key, [e]);
  }
  for (const providers of bySkill.values()) {
    const k = contracts.get(providers[0] as ManifestEntry) as SkillContract;
    if (providers.length >= 2) tell(providers, `skill ${k.skillId}`, () => ['skill', 'id']);
  }
}
