/**
 * The Eva runtime Skillgate assumes (eva.md §3.4) and runtime gates. Skillgate is
 * static, so it assumes Eva's ordinary CLI runtime; only user settings or CLI flags
 * change it (an options object here), never the workspace.
 */

export interface EvaRuntime {
  readonly mode: string;
  readonly teamWorker: boolean;
  readonly interactiveUser: boolean;
}

/** Normal mode, not a team worker, non-interactive (`skill run` takes no interactive user). */
export const DEFAULT_EVA_RUNTIME: EvaRuntime = { mode: 'normal', teamWorker: false, interactiveUser: false };

export const KNOWN_MODES: readonly string[] = ['normal', 'team', 'swarm', 'ralph'];

export interface RuntimeGate {
  readonly allowedModes: readonly string[];
  readonly disallowTeamWorker: boolean;
  readonly requiresInteractiveUser: boolean;
  readonly form: 'string' | 'mapping';
}

/** A gate admits the runtime iff its mode is allowed and neither flag excludes it. */
export function gateAdmits(gate: RuntimeGate, runtime: EvaRuntime): boolean {
  return (
    gate.allowedModes.includes(runtime.mode) &&
    !(gate.disallowTeamWorker && runtime.teamWorker) &&
    !(gate.requiresInteractiveUser && !runtime.interactiveUser)
  );
}

export function gateText(gate: RuntimeGate): string {
  if (gate.form === 'string') return gate.allowedModes[0] ?? '';
  const flags = [
    gate.disallowTeamWorker ? 'disallow_team_worker' : '',
    gate.requiresInteractiveUser ? 'requires_interactive_user' : '',
  ].filter(Boolean);
  return `{allowed_modes: [${gate.allowedModes.join(', ')}]${flags.length ? ', ' + flags.join(', ') : ''}}`;
}

export function runtimeText(runtime: EvaRuntime): string {
  return `${runtime.mode}, team worker: ${runtime.teamWorker}, interactive: ${runtime.interactiveUser}`;
}
