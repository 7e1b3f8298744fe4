import * as path from 'node:path';
import { canonicalPath } from '../../fs/safeFs';
import { evaUserHome } from '../../fs/userHome';
import { withParentsResolved } from '../../fs/spelledPath';
import { DEFAULT_EVA_RUNTIME, type EvaRuntime } from './runtime';

/**
 * The home and assumed runtime an Eva project was indexed with, by project root. Review,
 * trust and `skillgate hash` read a unit again from disk (agentSystem.ts `readSource`)
 * without the index options, and must read it as the index did: with another home a
 * `skill.path` under `~/` resolves elsewhere and the content hash would differ.
 */
export interface EvaReadContext {
  readonly home: string | null;
  readonly runtime: EvaRuntime;
}

const CONTEXTS = new Map<string, EvaReadContext>();

/**
 * A project by its canonical root: an item names its folder as given (givenFolder.ts), which may
 * pass through a link, and a unit read again by that spelling is the project indexed by the other.
 */
function projectKey(projectRoot: string): string {
  return canonicalPath(projectRoot) ?? path.resolve(projectRoot);
}

export function rememberReadContext(projectRoot: string, context: EvaReadContext): void {
  CONTEXTS.set(projectKey(projectRoot), context);
}

/** The context the project was last indexed with; never indexed in this process: the user's home, the default runtime. */
export function readContextOf(projectRoot: string): EvaReadContext {
  return CONTEXTS.get(projectKey(projectRoot)) ?? { home: evaHomeFromEnv(), runtime: DEFAULT_EVA_RUNTIME };
}

/** Eva's home from the process environment, its `..` resolved as the OS resolves them (after a link, the target's parent). */
export function evaHomeFromEnv(): string | null {
  const home = evaUserHome(process.env);
  return home === undefined ? null : withParentsResolved(home);
}
