import type { Decision, Item, ItemDetail } from '../../model';
import type { EvaRunner } from './runner';
import type { EvaRuntime, RuntimeGate } from './runtime';
import type { EvaReason, EvaSkillKind, EvaSource, EvaTarget, EvaTrustLevel } from './vocabulary';

/** An Eva item: a shared `Item` whose detail carries `detail.eva` of eva.md §4.8. */
export type EvaItem = Item & { readonly detail: EvaItemDetail };

export interface EvaItemDetail extends ItemDetail {
  readonly eva: EvaDetail;
}

export interface EffectivePermission {
  readonly requested: boolean;
  readonly effective: boolean;
  /** The policy file and key that decided it (null: built-in default, no policy file). */
  readonly decidedBy: { readonly file: string | null; readonly key: string };
}

/** `show --json` `detail.eva` (eva.md §4.8). */
export interface EvaDetail {
  /** What Eva itself decides, before Skillgate's trust gate. */
  readonly evaDecision: Decision;
  readonly evaReasons: readonly EvaReason[];
  readonly target: EvaTarget | null;
  readonly evaKind: EvaSkillKind;
  readonly source: EvaSource;
  readonly trustLevel: EvaTrustLevel;
  readonly id: string;
  readonly skillId: string | null;
  readonly skillPath: string | null;
  readonly script: string | null;
  /** What a process-backed skill runs, and whether trust covers the command's bytes (runner.ts); null for none. */
  readonly runner: EvaRunner | null;
  readonly runtimeGate: RuntimeGate | null;
  readonly assumedRuntime: EvaRuntime;
  readonly schemas: { readonly input: SchemaState; readonly output: SchemaState };
  readonly requestedPermissions: Readonly<Record<string, boolean | readonly string[]>>;
  readonly effectivePermissions: Readonly<Record<string, EffectivePermission>>;
  readonly capabilities: readonly string[];
  readonly conflicts: readonly string[];
  /** Effective timeout: min(limits.timeout_ms, adapter_policy.defaults.max_timeout_ms). */
  readonly effectiveTimeoutMs: number | null;
  /** Set when the Lua script names `require`: `explain` warns that those modules are not covered (eva.md §6.1). */
  readonly scriptRequires?: true;
}

export type SchemaState = 'inline' | 'file' | 'absent' | 'invalid';
