import { codewhale } from './codewhale/system';
import { rivumi } from './rivumi/system';
import { eva } from './eva/system';
import type { CodewhaleOptions } from './codewhale/codewhaleIndex';
import type { RivumiOptions } from './rivumi/rivumiIndex';
import type { EvaIndexOptions } from './eva/evaIndex';
import type { AgentSystem, SharedIndexOptions } from './agentSystem';
import * as z from 'zod';
import type { ReasonCode, System } from '../model';
import { REASON_TEXT } from '../decisions/reasonText';

/** What the indexer is given: the shared options and each agent's own. */
export type IndexOptions = SharedIndexOptions & CodewhaleOptions & RivumiOptions & EvaIndexOptions;

/**
 * Every agent Skillgate knows, in the order the faces list them. Adding an agent is one
 * folder under `systems/` and one line here (docs/architecture.md).
 */
const SYSTEMS: AgentSystem<IndexOptions>[] = [rivumi, codewhale, eva];

export function agentSystems(): readonly AgentSystem<IndexOptions>[] {
  return SYSTEMS;
}

export function systemOf(id: System): AgentSystem<IndexOptions> {
  const system = SYSTEMS.find((s) => s.id === id);
  if (!system) throw new Error(`no agent system is registered as ${JSON.stringify(id)}`);
  return system;
}

function isSystemId(id: string): id is System {
  return SYSTEMS.some((s) => s.id === id);
}

/** The items (or anything else an agent owns) that belong to one agent, in their order. */
export function ofSystem<T extends { readonly system: System }>(owned: readonly T[], id: System): T[] {
  return owned.filter((o) => o.system === id);
}

/** Whether the item's agent runs the hooks it declares in this environment (false for an agent without hooks). */
export function hooksOptedIn(
  item: { readonly system: System },
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  return hooksOptIn(item, env)?.set ?? false;
}

/** The opt-in under which the item's agent runs hooks, and whether `env` sets it; null for an agent without hooks. */
export function hooksOptIn(
  item: { readonly system: System },
  env: Readonly<Record<string, string | undefined>>,
): { readonly optIn: string; readonly set: boolean } | null {
  const hooks = systemOf(item.system).hooks;
  return hooks ? { optIn: hooks.optIn, set: hooks.optedIn(env) } : null;
}

/** The sentence for one of an item's reasons, in its agent's terms where the agent has its own. */
export function reasonTextOf(item: { readonly system: System }, code: ReasonCode): string {
  return systemOf(item.system).reasonText?.[code] ?? REASON_TEXT[code];
}

/** The agent whose plugins `install` copies into a workspace (one has an installer). */
export function pluginInstaller(): AgentSystem<IndexOptions> & Required<Pick<AgentSystem, 'installPlugin'>> {
  const system = SYSTEMS.find(
    (s): s is AgentSystem<IndexOptions> & Required<Pick<AgentSystem, 'installPlugin'>> => s.installPlugin !== undefined,
  );
  if (!system) throw new Error('no registered agent system installs plugins');
  return system;
}

/** A stored agent id (trust store, lock file): one of the registered agents. */
export const systemIdSchema = z.custom<System>((v) => typeof v === 'string' && isSystemId(v), {
  message: `Expected one of the registered agent systems`,
});

/**
 * Adds an agent for the lifetime of a test (the proof that a new agent needs nothing
 * outside its folder); returns the function that removes it again.
 */
export function registerSystem(system: AgentSystem<IndexOptions>): () => void {
  SYSTEMS.push(system);
  return () => {
    const at = SYSTEMS.indexOf(system);
    if (at >= 0) SYSTEMS.splice(at, 1);
  };
}
