import { strict as assert } from 'node:assert';
import { isLoadedUnreviewed } from '../../src/core/decisions/loadedUnreviewed';
import { itemOf } from './helpers/item';

/** decisions.md "Reason codes": `loaded_unreviewed` is a `registered` item's primary reason. */
describe('loaded although no review covers it (decisions.md `loaded_unreviewed`)', () => {
  it('is what its agent registers with `loaded_unreviewed` first, the trust reason after it', () => {
    const loaded = { system: 'rivumi', decision: 'registered', enabled: null } as const;
    assert.equal(isLoadedUnreviewed(itemOf({ ...loaded, reasons: ['loaded_unreviewed', 'not_reviewed'] })), true);
    assert.equal(isLoadedUnreviewed(itemOf({ ...loaded, reasons: ['loaded_unreviewed', 'content_changed'] })), true);
    assert.equal(
      isLoadedUnreviewed(
        itemOf({ ...loaded, kind: 'skill', parent: 'pk', trust: null, reasons: ['loaded_unreviewed'] }),
      ),
      true,
      'a loaded bundle part carries its risk',
    );
  });

  it('is never what is trusted, nor what its agent does not load, whatever reasons follow', () => {
    assert.equal(isLoadedUnreviewed(itemOf({ decision: 'registered', reasons: ['active'], trust: 'trusted' })), false);
    assert.equal(isLoadedUnreviewed(itemOf({ decision: 'disabled', reasons: ['not_reviewed', 'not_enabled'] })), false);
    // Only the primary reason says what the agent does (decisions.md: the first reason listed is primary).
    assert.equal(
      isLoadedUnreviewed(itemOf({ decision: 'registered', reasons: ['guidance', 'loaded_unreviewed'] })),
      false,
    );
    // The reason's decision is `registered`: an item that is not cannot be loaded, so it is never counted as such.
    assert.equal(
      isLoadedUnreviewed(itemOf({ decision: 'disabled', reasons: ['loaded_unreviewed', 'not_reviewed'] })),
      false,
    );
  });
});
