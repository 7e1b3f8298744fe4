import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { review } from '../../src/core/trust/reviewBundle';
import { trust } from '../../src/core/trust/grantTrust';
import { doctor } from '../../src/core/trust/doctor';
import { readBundleSource, type BundleSource } from '../../src/core/trust/bundleSource';
import { copyReviewed, verifyReviewedCopy } from '../../src/core/trust/reviewedCopy';
import { A0, EvaFixture } from './helpers/evaFixture';
import { trustWorkspace } from './helpers/trustWorkspace';
import { LINUX_HOST, writeW } from './helpers/fixture';
import type { Item } from '../../src/core/model';
import type { Snapshot } from '../../src/core/index/snapshot';

/**
 * trust.md "Snapshots of what was reviewed": the reviewed copy is named by the content hash
 * alone, and Rivumi's and Eva's content hashes leave the manifest's path out. Two units with
 * identical bytes (two plugin manifests, two adapters, one in each of two worktrees) share
 * one copy: trusting the second must keep what the first's review diffs against, so the
 * copy holds each unit's files, at each unit's own paths.
 */

const byPath = (s: Snapshot, suffix: string): Item => {
  const found = s.items.filter((i) => i.trust !== null && i.path.endsWith(suffix));
  assert.equal(found.length, 1, `one trust unit at ${suffix}`);
  return found[0] as Item;
};

async function trustAsShown(item: Item, ctx: Parameters<typeof review>[1]): Promise<void> {
  const r = review(item, ctx);
  assert.ok(r.ok && r.value.reviewToken !== null, r.ok ? String(r.value.trustRefusal) : r.message);
  const t = await trust(item, r.value.reviewToken, ctx);
  assert.ok(t.ok, t.ok ? '' : t.message);
}

/** The file change of `rel` in the unit's review now, asserted to be there. */
function changeOf(item: Item, ctx: Parameters<typeof review>[1], rel: string) {
  const r = review(item, ctx);
  assert.ok(r.ok, r.ok ? '' : r.message);
  assert.equal(r.value.status, 'content-changed');
  const change = r.value.diff?.files.find((c) => c.path === rel);
  assert.ok(change, `a change of ${rel} in ${JSON.stringify(r.value.diff)}`);
  return change;
}

describe('one reviewed copy shared by units with identical bytes (trust/reviewedCopy.ts)', () => {
  describe('Rivumi plugins', () => {
    const w = trustWorkspace();
    const M = '{"name":"pk","skills":[{"path":"review.md"}]}';
    const EDITED = '{"name":"pk",\n "skills":[{"path":"review.md"}]}';
    const write = () => {
      w.f.write('ws/.rivumi/plugins/a.json', M);
      w.f.write('ws/.rivumi/plugins/b.json', M);
      w.f.write('ws/.rivumi/plugins/review.md', 'Check risks.');
    };

    it('keeps the first plugin’s reviewed manifest when the second is trusted: its review diffs the edit', async () => {
      write();
      const a = byPath(w.snapshot(), '/a.json');
      const b = byPath(w.snapshot(), '/b.json');
      assert.equal(a.contentHash, b.contentHash, 'the manifest path is not hashed: one copy for both');
      await trustAsShown(a, w.ctx);
      await trustAsShown(b, w.ctx);
      const copy = path.join(w.store.reviewedCopiesDir, a.contentHash as string);
      assert.deepEqual(
        ['a.json', 'b.json', 'review.md'].map((n) => fs.readFileSync(path.join(copy, '.rivumi/plugins', n), 'utf8')),
        [M, M, 'Check risks.'],
      );

      w.f.write('ws/.rivumi/plugins/a.json', EDITED);
      const change = changeOf(byPath(w.snapshot(), '/a.json'), w.ctx, '.rivumi/plugins/a.json');
      assert.equal(change.note, undefined);
      assert.match(change.unifiedDiff ?? '', /^-\{"name":"pk","skills":\[\{"path":"review.md"\}\]\}$/m);
      assert.match(change.unifiedDiff ?? '', /^\+ "skills":\[\{"path":"review.md"\}\]\}$/m);

      w.f.write('ws/.rivumi/plugins/b.json', EDITED);
      assert.ok(changeOf(byPath(w.snapshot(), '/b.json'), w.ctx, '.rivumi/plugins/b.json').unifiedDiff);
    });

    it('keeps both manifests through `doctor --prune`: the copy is referenced by both receipts', async () => {
      write();
      const a = byPath(w.snapshot(), '/a.json');
      await trustAsShown(a, w.ctx);
      await trustAsShown(byPath(w.snapshot(), '/b.json'), w.ctx);
      const report = doctor(w.store, { prune: true, now: Date.now() + 2 * 60 * 60 * 1000 });
      assert.deepEqual(report.pruned, []);
      const copy = path.join(w.store.reviewedCopiesDir, a.contentHash as string);
      assert.deepEqual(fs.readdirSync(path.join(copy, '.rivumi/plugins')).sort(), ['a.json', 'b.json', 'review.md']);
    });

    it('merges into a copy another trust of the same content placed while this one copied, never replacing it', () => {
      write();
      const s = w.snapshot();
      const source = (suffix: string): BundleSource => {
        const r = readBundleSource(byPath(s, suffix), LINUX_HOST);
        assert.ok(r.ok, r.ok ? '' : r.message);
        return r.source;
      };
      const [a, b] = [source('/a.json'), source('/b.json')];
      const snaps = w.store.reviewedCopiesDir;
      const hash = a.item.contentHash as string;
      let placedByOther: number | undefined;
      const r = copyReviewed(
        snaps,
        {
          ...b,
          rehashCopy: (dir) => {
            if (placedByOther === undefined && path.basename(dir).startsWith('.staging-')) {
              const other = copyReviewed(snaps, a, hash);
              assert.ok(other.ok && !other.reused);
              placedByOther = fs.statSync(other.dir).ino;
            }
            return b.rehashCopy(dir);
          },
        },
        hash,
      );
      assert.deepEqual(r, { ok: true, dir: path.join(snaps, hash), reused: false });
      assert.equal(fs.statSync(path.join(snaps, hash)).ino, placedByOther, 'the copy in place was not replaced');
      assert.ok(verifyReviewedCopy(snaps, a, hash) && verifyReviewedCopy(snaps, b, hash));
      assert.equal(fs.statSync(path.join(snaps, hash, '.rivumi/plugins/b.json')).mode & 0o777, 0o444);
      assert.deepEqual(fs.readdirSync(snaps), [hash], 'no staging directory left behind');
    });

    it('reuses a copy that already holds the unit without writing to it, and marks it fresh for `doctor --prune`', () => {
      write();
      const r = readBundleSource(byPath(w.snapshot(), '/a.json'), LINUX_HOST);
      assert.ok(r.ok);
      const snaps = w.store.reviewedCopiesDir;
      const hash = r.source.item.contentHash as string;
      assert.ok(copyReviewed(snaps, r.source, hash).ok);
      const copy = path.join(snaps, hash);
      // A copy an hour and more old that no receipt names (its history was capped): pruning
      // decides by age until the receipt is written, so reusing it must make it fresh again.
      const old = new Date(Date.now() - 3 * 60 * 60 * 1000);
      fs.utimesSync(copy, old, old);
      const manifest = fs.statSync(path.join(copy, '.rivumi/plugins/a.json'));
      assert.deepEqual(copyReviewed(snaps, r.source, hash), { ok: true, dir: copy, reused: true });
      assert.ok(fs.statSync(copy).mtimeMs > old.getTime() + 60 * 60 * 1000, 'the copy was marked fresh');
      assert.equal(fs.statSync(path.join(copy, '.rivumi/plugins/a.json')).ino, manifest.ino, 'nothing rewritten');
    });
  });

  describe('Eva adapters', () => {
    const w = trustWorkspace({ fixture: () => new EvaFixture().p0() });

    it('keeps the first adapter’s reviewed manifest when the second is trusted: its review diffs the edit', async () => {
      w.f.adapter(A0, 'a.yaml');
      w.f.adapter(A0, 'b.yaml');
      const a = byPath(w.snapshot(), '/a.yaml');
      const b = byPath(w.snapshot(), '/b.yaml');
      assert.equal(a.contentHash, b.contentHash, 'the manifest path is not hashed: one copy for both');
      await trustAsShown(a, w.ctx);
      await trustAsShown(b, w.ctx);
      w.f.adapter(A0.replace('name: Review Skill', 'name: Review Skill Two'), 'a.yaml');
      const change = changeOf(byPath(w.snapshot(), '/a.yaml'), w.ctx, 'config/adapters/a.yaml');
      assert.equal(change.note, undefined);
      assert.match(change.unifiedDiff ?? '', /^-name: Review Skill$/m);
      assert.match(change.unifiedDiff ?? '', /^\+name: Review Skill Two$/m);
    });
  });

  describe('Codewhale bundles', () => {
    const w = trustWorkspace();

    it('replaces a damaged copy a merge cannot repair (an extra file changes its hash), leaving nothing behind', () => {
      writeW(w.f);
      const item = byPath(w.snapshot(), '/example-plugin');
      const r = readBundleSource(item, LINUX_HOST);
      assert.ok(r.ok);
      const snaps = w.store.reviewedCopiesDir;
      const hash = item.contentHash as string;
      w.f.write(`state/snapshots/${hash}/plugin.toml`, 'half-removed');
      w.f.write(`state/snapshots/${hash}/extra.txt`, 'not reviewed');
      assert.deepEqual(copyReviewed(snaps, r.source, hash), { ok: true, dir: path.join(snaps, hash), reused: false });
      assert.ok(verifyReviewedCopy(snaps, r.source, hash));
      assert.ok(!fs.existsSync(path.join(snaps, hash, 'extra.txt')));
      assert.deepEqual(fs.readdirSync(snaps), [hash]);
    });
  });
});
