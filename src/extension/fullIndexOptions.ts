import * as vscode from 'vscode';
import { codewhaleHome, evaHome, evaRuntime, evaUserSkills } from './settings';
import type { BackendOptions } from './flows/indexBackend';

/**
 * The options a full index starts with, read as they are now: the user's settings, the
 * agents' environment, VS Code's workspace trust, and the directories of the trust store
 * and the parse cache. `stateDir` is asked for after the settings were read, as the
 * store is opened on first use. Each read can throw (a malformed configuration, no home):
 * the caller reads them inside its index guard.
 */
export function fullIndexOptions(
  workspaces: string[],
  stateDir: () => string,
  cacheDir: string | undefined,
): BackendOptions {
  return {
    workspaces,
    codewhaleHome: codewhaleHome(),
    evaHome: evaHome(),
    evaUserSkills: evaUserSkills(),
    evaRuntime: evaRuntime(),
    rivumiHooksEnv: process.env.RIVUMI_ENABLE_PROJECT_HOOKS,
    workspaceTrusted: vscode.workspace.isTrusted,
    stateDir: stateDir(),
    ...(cacheDir !== undefined ? { cacheDir } : {}),
  };
}
