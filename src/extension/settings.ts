import * as path from 'node:path';
import * as vscode from 'vscode';
import { defaultStateDirectory } from '../core/trust/stateDirectory';
import { codewhaleHomeFromEnv, codewhaleUserHome, evaUserHome, userHome } from '../core/fs/userHome';
import { expandLeadingTilde } from '../core/fs/leadingTilde';
import { typedDirectory, withParentsResolved } from '../core/fs/spelledPath';
import type { IndexOptions } from '../core/systems/registry';
import { steadyRecheckMs } from './flows/recheckSchedule';

/**
 * Settings that pick where trust is read from, or which bundles are indexed, weaken the
 * gate if a repository could set them. They are machine-scoped and read here from the
 * user (global) value only; a workspace or folder value is ignored even if present.
 */
function userValue<T>(key: string): T | undefined {
  const inspected = vscode.workspace.getConfiguration('skillgate').inspect<T>(key);
  return inspected?.globalValue;
}

/**
 * A user path setting, trimmed; undefined when empty or not a string. settings.json is
 * edited by hand and VS Code passes a value of the wrong type through: it counts as unset
 * rather than throwing where the index reads its options (no first snapshot would be shown).
 */
function userPath(key: string): string | undefined {
  const configured = userValue<unknown>(key);
  return typeof configured === 'string' && configured.trim() !== '' ? configured.trim() : undefined;
}

export function stateDirectory(): string {
  const configured = userPath('stateDirectory');
  return configured !== undefined ? path.resolve(expandHome(configured)) : defaultStateDirectory();
}

export function codewhaleHome(): string | null {
  if (userValue<boolean>('includeUserBundles') === false) return null;
  const configured = userPath('codewhaleHome');
  // The home reaches the file system as spelled: its `..` resolved as the OS resolves them, never folded.
  if (configured !== undefined) return typedDirectory(expandHome(configured), process.cwd());
  // Upstream reads CODEWHALE_HOME from the process environment only (codewhale.md §2.1).
  const home = codewhaleHomeFromEnv(process.env, codewhaleUserHome(process.env));
  return home === null ? null : withParentsResolved(home);
}

/**
 * Eva-CLI's `$HOME`, for its user skill folders and `~/` in a project's `skill.path`: kept
 * when user content is not indexed (evaUserSkills), since Eva's decision on such an
 * adapter does not depend on Skillgate listing the user's folders (eva.md §3.5).
 */
export function evaHome(): string | null {
  const configured = userPath('eva.home');
  if (configured !== undefined) return typedDirectory(expandHome(configured), process.cwd());
  const home = evaUserHome(process.env);
  return home === undefined ? null : withParentsResolved(home);
}

/** Whether Eva's user skill folders are listed beside an Eva project (`includeUserBundles`). */
export function evaUserSkills(): boolean {
  return userValue<boolean>('includeUserBundles') !== false;
}

const EVA_MODES: readonly string[] = ['normal', 'team', 'swarm', 'ralph'];

/** The Eva runtime Skillgate assumes (eva.md §3.4): from user settings only, never the workspace. */
export function evaRuntime(): NonNullable<IndexOptions['evaRuntime']> {
  const mode = userValue<string>('eva.runtimeMode');
  return {
    mode: mode !== undefined && EVA_MODES.includes(mode) ? mode : 'normal',
    teamWorker: userValue<boolean>('eva.teamWorker') === true,
    interactiveUser: userValue<boolean>('eva.interactiveUser') === true,
  };
}

/** The steady re-checks' interval in milliseconds (flows/recheckSchedule.ts); 0: none. */
export function steadyRecheckInterval(): number {
  return steadyRecheckMs(userValue<unknown>('recheckIntervalSeconds'));
}

/**
 * A leading `~` in a home setting, as Codewhale expands `$CODEWHALE_HOME` (leadingTilde.ts),
 * which the codewhaleHome setting stands in for. With no home to expand it with, the value is
 * kept as typed (Codewhale would disable user discovery instead; the user chose this path).
 */
function expandHome(p: string): string {
  return expandLeadingTilde(p, userHome()) ?? p;
}
