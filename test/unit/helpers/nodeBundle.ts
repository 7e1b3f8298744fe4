import { strict as assert } from 'node:assert';
import type { BuildOptions } from 'esbuild';
import type { Snapshot } from '../../../src/core/index/snapshot';

/** How esbuild.mjs bundles a Node entry, for the tests' own builds of a worker script. */
export const NODE_BUNDLE: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  mainFields: ['module', 'main'],
  logLevel: 'error',
  define: { SKILLGATE_VERSION: '"test"' },
};

/** Two indexes' snapshots are the same but for their generation (each index counts its own). */
export function sameSnapshot(a: Snapshot, b: Snapshot, message: string): void {
  assert.deepEqual({ ...a, generation: 0 }, { ...b, generation: 0 }, message);
}
