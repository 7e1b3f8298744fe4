import type * as ChildProcess from 'node:child_process';
import { createRequire } from 'node:module';

/**
 * Records every child process started after `installSpy()`: Skillgate never runs what it
 * indexes, so the fuzz worker treats any call as a failure. The worker's own `mkfifo`
 * goes through `originalExecFileSync`, which is not recorded.
 */
const calls: string[] = [];
// The module object itself (an `import *` namespace is read-only).
const childProcess = createRequire(__filename)('node:child_process') as typeof ChildProcess;
const cp = childProcess as unknown as Record<string, unknown>;
const NAMES = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;
export const originalExecFileSync = childProcess.execFileSync;
let installed = false;

export function installSpy(): void {
  if (installed) return;
  installed = true;
  for (const name of NAMES) {
    const original = cp[name] as (...args: unknown[]) => unknown;
    cp[name] = function (this: unknown, ...args: unknown[]) {
      calls.push(`${name}(${JSON.stringify(args[0])})`);
      return original.apply(this, args);
    };
  }
}

export function childProcessCalls(): readonly string[] {
  return calls;
}
