import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { defaultStateDirectory } from '../core/trust/stateDirectory';

/**
 * Settings that pick where trust is read from, or which bundles are indexed, weaken the
 * gate if a repository could set them. They are machine-scoped and read here from the
 * user (global) value only; a workspace or folder value is ignored even if present.
 */
function userValue<T>(key: string): T | undefined {
  const inspected = vscode.workspace.getConfiguration('skillgate').inspect<T>(key);
  return inspected?.globalValue;
}

export function stateDirectory(): string {
  const configured = userValue<string>('stateDirectory');
  return configured && configured.trim() !== '' ? path.resolve(expandHome(configured.trim())) : defaultStateDirectory();
}

export function codewhaleHome(): string | null {
  if (userValue<boolean>('includeUserBundles') === false) return null;
  const configured = userValue<string>('codewhaleHome');
  if (configured && configured.trim() !== '') return path.resolve(expandHome(configured.trim()));
  // Upstream reads CODEWHALE_HOME from the process environment only (codewhale.md §2.1).
  return process.env.CODEWHALE_HOME ?? path.join(os.homedir(), '.codewhale');
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p;
}
