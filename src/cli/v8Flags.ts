import * as v8 from 'node:v8';

/**
 * V8 options the `skillgate` binary sets for itself before it loads the core
 * (docs/code-cache.md, "TurboFan's share of a short run"). A run lasts a second or a few:
 * in that time TurboFan compiles about 300 of its hottest functions on V8's background
 * threads, on the same two cores the walk and the readers need, and most of a compile is
 * inlining (the largest took 40–80 ms each). A smaller cumulative inlining budget takes
 * much of that cost off for little slower code: a cold run at 2,000 bundles took 4–9 %
 * less wall time and 7–11 % less CPU, at 10,000 bundles 2.5–5 % and 5–6 % (alternate
 * runs, 2026-12-03). Only the binary sets them: tests call `run()` in their own process,
 * and the editor's index worker shares the extension host's V8, whose options are VS Code's.
 */
export const CLI_V8_FLAGS: readonly string[] = ['--max-inlined-bytecode-size-cumulative=150'];

/**
 * The V8 the options were measured on (Node 20's). Another one's inliner and budgets
 * differ, and an option it does not know would print "unrecognized flag" to every user:
 * there the binary sets none.
 */
const MEASURED_V8 = /^11\./;

/** The options for a V8 of this version: CLI_V8_FLAGS on the one they were measured on, else none. */
export function cliV8Flags(v8Version: string): readonly string[] {
  return MEASURED_V8.test(v8Version) ? CLI_V8_FLAGS : [];
}

/** Sets this process's options (every thread it starts shares them); returns them, for the code cache's key. */
export function applyCliV8Flags(): readonly string[] {
  const flags = cliV8Flags(process.versions.v8);
  for (const flag of flags) v8.setFlagsFromString(flag);
  return flags;
}
