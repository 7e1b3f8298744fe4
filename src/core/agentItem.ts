import type { Item, ItemDetail } from './model';

/**
 * What an agent system states of every item it lists: what the item is, where, and what the
 * agent decided of it and why. None has a default: a system that leaves one out does not compile.
 */
export type AgentItemFields<D extends ItemDetail = ItemDetail> = Pick<
  Item,
  | 'id'
  | 'system'
  | 'kind'
  | 'name'
  | 'qualifiedName'
  | 'scope'
  | 'workspace'
  | 'path'
  | 'location'
  | 'parent'
  | 'decision'
  | 'reasons'
> & { readonly detail: D };

/** The fields only a trust unit fills, and the shadower only a shadowed item has: null on any other item. */
export type UnitFields = Pick<
  Item,
  'shadowedBy' | 'trust' | 'enabled' | 'compatibility' | 'contentHash' | 'capabilityHash' | 'reviewToken'
>;

/**
 * An item as its agent system decided it, each of `unit` it does not set null. The fields are
 * written here in one order, whatever order a system gives them in, so that the items of every
 * system share one hidden class (docs/memory.md); the JSON contract's order is report/contract.ts's.
 */
export function agentItem<D extends ItemDetail>(
  fields: AgentItemFields<D>,
  unit: Partial<UnitFields> = {},
): Item & { readonly detail: D } {
  return {
    id: fields.id,
    system: fields.system,
    kind: fields.kind,
    name: fields.name,
    qualifiedName: fields.qualifiedName,
    scope: fields.scope,
    workspace: fields.workspace,
    path: fields.path,
    location: fields.location,
    parent: fields.parent,
    decision: fields.decision,
    reasons: fields.reasons,
    shadowedBy: unit.shadowedBy ?? null,
    trust: unit.trust ?? null,
    enabled: unit.enabled ?? null,
    compatibility: unit.compatibility ?? null,
    contentHash: unit.contentHash ?? null,
    capabilityHash: unit.capabilityHash ?? null,
    reviewToken: unit.reviewToken ?? null,
    detail: fields.detail,
  };
}
