import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { beneathWorks } from '../../src/core/fs/openBeneath';
import { sha256Hex } from '../../src/core/hashing/framing';
import { readBundleSource } from '../../src/core/trust/bundleSource';
import { trustShown } from '../../src/core/trust/grantTrust';
import { copyReviewed } from '../../src/core/trust/reviewedCopy';
import type { BundleSource } from '../../src/core/trust/bundleSource';
import { A0, EvaFixture } from './helpers/evaFixture';
import { byName, Fixture, LINUX_HOST, index, writeW } from './helpers/fixture';
import { fsPatcher } from './helpers/fsPatch';
import { trustWorkspace } from './helpers/trustWorkspace';

/**
 * The reviewed copy made while trusting (src/core/trust/reviewedCopy.ts), while a process in
 * the repository swaps a directory of the unit for a symbolic link (`skills -> /tmp/decoy`)
 * between the read the person was shown and the copy. The hash read the unit beneath held
 * directories (fs/openBeneath.ts); a copy that opened each file by its whole path followed the
 * link and copied bytes from outside the unit: a decoy holding the reviewed bytes was accepted
 * and trusted, and any other file there (a FIFO, a device, a file of 60 MiB) was opened before
 * its SHA-256 refused it. The copy reads each file beneath the directory its hash read it from
 * (trust/unitFileRead.ts, or the unit's own reader: Eva's skill folder), so such a directory
 * is refused as the link it is, in the words a file changed since the review gets.
 */
(beneathWorks() ? describe : describe.skip)('trusting copies the reviewed bytes beneath the unit (Linux)', () => {
  const changed = (rel: string) => `${rel} changed while it was being copied for trust; review the bundle again`;

  describe('a Codewhale bundle (src/core/trust/reviewedCopy.ts)', () => {
    let f: Fixture;
    const W = 'ws/.codewhale/plugins/example-plugin';
    const SKILL = 'skills/example/SKILL.md';
    beforeEach(() => {
      f = new Fixture();
      writeW(f);
      // The decoy holds the very bytes reviewed: only a read through the link takes them as the bundle's.
      f.write(`decoy/example/SKILL.md`, fs.readFileSync(f.path(W, SKILL)));
    });
    afterEach(() => f.remove());
    const source = (): BundleSource => {
      const r = readBundleSource(byName(index([f.path('ws')]), 'example-plugin'), LINUX_HOST);
      assert.ok(r.ok, r.ok ? '' : r.message);
      return r.source;
    };
    /** Swaps the bundle's `skills` for a link to the decoy, as a process in the repository could once the review read it. */
    const swap = () => {
      fs.renameSync(f.path(W, 'skills'), f.path('kept-skills'));
      fs.symlinkSync(f.path('decoy'), f.path(W, 'skills'));
    };

    it('copies and verifies the bundle where nothing races', () => {
      const s = source();
      const r = copyReviewed(f.path('state/snapshots'), s, s.item.contentHash as string);
      assert.equal(r.ok, true, JSON.stringify(r));
    });

    it('refuses a directory swapped for a link after the review, as a file changed since, leaving nothing behind', () => {
      const s = source();
      swap();
      const snaps = f.path('state/snapshots');
      assert.deepEqual(copyReviewed(snaps, s, s.item.contentHash as string), { ok: false, message: changed(SKILL) });
      assert.deepEqual(fs.readdirSync(snaps), []);
    });

    it('refuses it as it refuses the file itself swapped for a link to the decoy', () => {
      const s = source();
      fs.rmSync(f.path(W, SKILL));
      fs.symlinkSync(f.path('decoy/example/SKILL.md'), f.path(W, SKILL));
      const linkedFile = copyReviewed(f.path('state/snapshots'), s, s.item.contentHash as string);
      fs.rmSync(f.path(W, SKILL));
      fs.copyFileSync(f.path('decoy/example/SKILL.md'), f.path(W, SKILL));
      swap();
      assert.deepEqual(copyReviewed(f.path('state/snapshots'), s, s.item.contentHash as string), linkedFile);
    });
  });

  describe('a file grown after the review', () => {
    const patch = fsPatcher();
    let f: Fixture;
    const W = 'ws/.codewhale/plugins/example-plugin';
    const SKILL = 'skills/example/SKILL.md';
    beforeEach(() => {
      f = new Fixture();
      writeW(f);
    });
    afterEach(() => f.remove());

    it('is refused as changed having read at most one byte past its recorded size, never the whole file', () => {
      const r = readBundleSource(byName(index([f.path('ws')]), 'example-plugin'), LINUX_HOST);
      assert.ok(r.ok, r.ok ? '' : r.message);
      const s = r.source;
      const recorded = s.files.find((x) => x.path === SKILL);
      assert.ok(recorded);
      // 48 MiB, under the hash's 64 MiB file limit: sparse, so the disk holds none of it.
      fs.truncateSync(f.path(W, SKILL), 48 << 20);
      let read = 0;
      patch.replace('readSync', (original) => (...args: Parameters<typeof fs.readSync>) => {
        const n = original(...args);
        read += n;
        return n;
      });
      const snaps = f.path('state/snapshots');
      assert.deepEqual(copyReviewed(snaps, s, s.item.contentHash as string), { ok: false, message: changed(SKILL) });
      // Every file is read up to its recorded size and one byte at most (the manifest is copied first).
      const bound = s.files.reduce((sum, x) => sum + x.size + 1, 0);
      assert.ok(read <= bound, `${read} bytes were read; the files recorded ${bound - s.files.length}`);
      assert.deepEqual(fs.readdirSync(snaps), []);
    });
  });

  describe('trusting what the person was shown (trust/grantTrust.ts trustShown)', () => {
    const w = trustWorkspace();
    const W = 'ws/.codewhale/plugins/example-plugin';

    it('is refused when a directory of the bundle became a link while the person decided, and nothing is trusted', async () => {
      writeW(w.f);
      w.f.write('decoy/example/SKILL.md', fs.readFileSync(w.f.path(W, 'skills/example/SKILL.md')));
      const item = w.item('example-plugin');
      const r = await trustShown(item, w.tokenOf('example-plugin'), w.ctx, () => {
        fs.renameSync(w.f.path(W, 'skills'), w.f.path('kept-skills'));
        fs.symlinkSync(w.f.path('decoy'), w.f.path(W, 'skills'));
        return Promise.resolve(true);
      });
      assert.deepEqual(r, { ok: false, reason: 'copy-failed', message: changed('skills/example/SKILL.md') });
      // Swapped back: the bundle is as reviewed, and still not trusted.
      fs.rmSync(w.f.path(W, 'skills'));
      fs.renameSync(w.f.path('kept-skills'), w.f.path(W, 'skills'));
      assert.equal(w.item('example-plugin').trust, 'not-reviewed');
    });
  });

  describe('a Rivumi plugin: its skill files beneath `.rivumi/plugins` (rivumi/hashes.ts readCovered)', () => {
    const w = trustWorkspace();
    const SKILL = '---\nname: s\ndescription: d\n---\nthe rivumi skill\n';
    beforeEach(() => {
      w.f.write(
        'ws/real-rivumi/plugins/pack.json',
        JSON.stringify({ name: 'pack', description: 'd', skills: [{ path: 'pack/skills/s.md' }] }),
      );
      w.f.write('ws/real-rivumi/plugins/pack/skills/s.md', SKILL);
      w.f.write('decoy/skills/s.md', SKILL);
      // rivumi.md §2 "Links": `.rivumi` itself is followed, as the hash follows it.
      w.f.symlink('real-rivumi', 'ws/.rivumi');
    });

    it('copies a plugin in a linked `.rivumi`, as Rivumi reads it', async () => {
      await w.trustNow('pack');
      assert.equal(w.item('pack').trust, 'trusted');
    });

    it('refuses a directory below `.rivumi/plugins` swapped for a link while the person decided', async () => {
      const r = await trustShown(w.item('pack'), w.tokenOf('pack'), w.ctx, () => {
        fs.renameSync(w.f.path('ws/real-rivumi/plugins/pack'), w.f.path('kept-pack'));
        fs.symlinkSync(w.f.path('decoy'), w.f.path('ws/real-rivumi/plugins/pack'));
        return Promise.resolve(true);
      });
      assert.deepEqual(r, { ok: false, reason: 'copy-failed', message: changed('.rivumi/plugins/pack/skills/s.md') });
    });
  });

  describe('an Eva skill adapter: its skill folder, which may itself be a link (eva.md §8 Q7)', () => {
    const w = trustWorkspace({ fixture: () => new EvaFixture().p0() });
    const NAME = 'review-skill (skill review)';
    const SKILL = '---\nname: review\n---\n';
    const ADAPTER = A0.replace('  id: review\n', '  id: review\n  path: config/skills/review/SKILL.md\n');
    beforeEach(() => {
      w.f.write('ws/config/real/review/SKILL.md', SKILL);
      w.f.write('ws/config/real/review/scripts/run.sh', 'echo one\n');
      w.f.write('decoy/run.sh', 'echo one\n');
      w.f.mkdir('ws/config/skills');
      w.f.symlink(w.f.path('ws/config/real/review'), 'ws/config/skills/review');
      w.f.adapter(ADAPTER);
    });

    it('copies a skill folder that is itself a link, as Eva follows it and its hash reads beneath it', async () => {
      await w.trustNow(NAME);
      assert.equal(w.item(NAME).trust, 'trusted');
    });

    it('refuses a directory in the skill folder swapped for a link while the person decided', async () => {
      const item = w.item(NAME);
      assert.deepEqual(
        item.detail.files?.map((x) => [x.path, x.sha256]),
        [
          ['config/skills/review/SKILL.md', sha256Hex(SKILL)],
          ['config/skills/review/scripts/run.sh', sha256Hex('echo one\n')],
        ],
      );
      const r = await trustShown(item, w.tokenOf(NAME), w.ctx, () => {
        fs.renameSync(w.f.path('ws/config/real/review/scripts'), w.f.path('kept-scripts'));
        fs.symlinkSync(w.f.path('decoy'), w.f.path('ws/config/real/review/scripts'));
        return Promise.resolve(true);
      });
      assert.deepEqual(r, {
        ok: false,
        reason: 'copy-failed',
        message: changed('config/skills/review/scripts/run.sh'),
      });
    });
  });
});
