import type { Item } from '../../../src/core/model';
import type { Snapshot } from '../../../src/core/index/snapshot';

/** A review token of the two hashes `itemOf` gives by default. */
export const ITEM_TOKEN = `${'a'.repeat(64)}.${'b'.repeat(64)}`;

/**
 * An item as the index hands it out — a workspace Codewhale plugin `demo` in `/ws`, not
 * reviewed — for tests of what the editor makes of items; `over` sets what a test needs.
 */
export const itemOf = (over: Partial<Item> = {}): Item =>
  ({
    id: 'workspace/abc/demo',
    system: 'codewhale',
    kind: 'plugin',
    name: 'demo',
    qualifiedName: 'demo',
    scope: 'workspace',
    workspace: '/ws',
    path: '/ws/.codewhale/plugins/demo',
    location: { file: '/ws/x', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } },
    parent: null,
    decision: 'disabled',
    reasons: ['not_reviewed'],
    shadowedBy: null,
    trust: 'not-reviewed',
    enabled: false,
    compatibility: 'full',
    contentHash: 'a'.repeat(64),
    capabilityHash: 'b'.repeat(64),
    reviewToken: ITEM_TOKEN,
    detail: {},
    ...over,
  }) as Item;

/** A snapshot of `items` in the one folder `/ws`, with no diagnostics and the trust store readable; `more` sets the rest. */
export const snapshotOf = (items: Item[], more: Partial<Snapshot> = {}): Snapshot => ({
  generation: 1,
  workspaces: ['/ws'],
  items,
  diagnostics: [],
  trustProblem: null,
  ...more,
});
