import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { review } from '../../src/core/trust/reviewBundle';
import { trust } from '../../src/core/trust/grantTrust';
import { doctor } from '../../src/core/trust/doctor';
import { verifyReviewedCopy } from '../../src/core/trust/reviewedCopy';
import { readBundleSource } from '../../src/core/trust/bundleSource';
import type { TrustStore } from '../../src/core/trust/trustStore';
import { trustWorkspace } from './helpers/trustWorkspace';
import { LINUX_HOST, writeD } from './helpers/fixture';

/**
 * A trust makes (or reuses) the reviewed copy before it takes the store's lock to write
 * its receipt; `doctor --prune` removes, under that lock, copies no receipt names once
 * they are an hour old (trust.md "Snapshots of what was reviewed"). A prune that decided
 * on the copy just before the trust marked it fresh, and removed it just after, would
 * leave a receipt naming a copy that is gone: trusted bytes the review can no longer diff
 * against, and an enable that fails. The trust checks the copy again under the lock.
 */
describe('doctor --prune between a trust’s copy and its receipt (trust/grantTrust.ts)', () => {
  const w = trustWorkspace();
  const HOUR = 60 * 60 * 1000;

  /** The store, with `doctor --prune` run (as if an hour and more later) just before its next write takes the lock. */
  function pruneBeforeNextWrite(store: TrustStore): { pruned: string[] } {
    const seen = { pruned: [] as string[] };
    const mutate = store.mutate.bind(store);
    store.mutate = (change) => {
      store.mutate = mutate;
      seen.pruned.push(...doctor(store, { prune: true, now: Date.now() + 2 * HOUR }).pruned);
      return mutate(change);
    };
    return seen;
  }

  it('writes no receipt for a copy pruned meanwhile, and says so; trusting again then succeeds', async () => {
    writeD(w.f, '', 'ws/.codewhale/plugins/demo');
    w.f.write('ws/.codewhale/plugins/demo/skills/s/SKILL.md', '---\nname: s\n---\nbody\n');
    const item = w.item('demo');
    const token = w.tokenOf('demo');
    const seen = pruneBeforeNextWrite(w.store);

    const t = await trust(item, token, w.ctx);
    assert.deepEqual(seen.pruned, [item.contentHash], 'the prune took the copy this trust made');
    assert.ok(!t.ok, 'no receipt for a copy that is gone');
    assert.match(t.message, /reviewed copy .* was removed .*doctor --prune.*; nothing was trusted; trust it again/);
    const stored = w.store.read();
    assert.ok(stored.ok);
    assert.deepEqual(
      Object.values(stored.state.bundles).map((e) => e.trust),
      [],
      'no receipt was written',
    );

    const again = await trust(w.item('demo'), token, w.ctx);
    assert.ok(again.ok, again.ok ? '' : again.message);
    const source = readBundleSource(w.item('demo'), LINUX_HOST);
    assert.ok(source.ok);
    assert.ok(verifyReviewedCopy(w.store.reviewedCopiesDir, source.source, item.contentHash as string));
    assert.equal(review(w.item('demo'), w.ctx).ok, true);
  });

  it('keeps a copy the prune did not reach', async () => {
    writeD(w.f, '', 'ws/.codewhale/plugins/demo');
    const item = w.item('demo');
    const t = await trust(item, w.tokenOf('demo'), w.ctx);
    assert.ok(t.ok, t.ok ? '' : t.message);
    assert.ok(fs.existsSync(path.join(w.store.reviewedCopiesDir, item.contentHash as string)));
  });
});
