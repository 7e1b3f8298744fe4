import { strict as assert } from 'node:assert';
import { faultedBundle, runBundleJob, type BundleLoader } from '../../src/core/systems/codewhale/bundleJob';
import type { CacheSegment } from '../../src/core/cache/parseCache';
import { Fixture, LINUX_HOST } from './helpers/fixture';

/**
 * One bundle job (codewhale.md §2.3 step 5): the loader gets the job's parse cache when
 * there is one, and a load that throws leaves a bundle that holds nothing but its fault.
 */
describe('Codewhale bundle job: what the loader is given, and what a fault leaves', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());
  const job = () => ({ dir: f.path('plugins/b'), scope: 'user' as const, canonicalDiscoveryRoot: f.path('plugins') });

  it("passes the job's parse cache to the loader, and none when the job has none", () => {
    f.write('plugins/b/plugin.toml', '');
    const seen: unknown[] = [];
    const spy: BundleLoader = (_dir, _label, ctx) => {
      seen.push(ctx.cache);
      throw new Error('stop');
    };
    const cache = { marker: 'segment' } as unknown as CacheSegment;
    runBundleJob({ ...job(), cache }, LINUX_HOST, spy);
    runBundleJob(job(), LINUX_HOST, spy);
    assert.deepEqual(seen, [cache, undefined]);
  });
  it('leaves a faulted bundle no files, directories or skills, and names the bundle in its one error', () => {
    const b = faultedBundle(job(), 'plugin.toml', new Error('boom'));
    assert.deepEqual([b.scope, b.files, b.directories, b.skills, b.anchors, b.valid], ['user', [], [], [], {}, false]);
    assert.equal(
      b.diagnostics[0]?.message,
      'internal error while reading the bundle b: boom; Skillgate treats it as invalid',
    );
  });
});
