import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import {
  coverDirectory,
  coverSeams,
  evaContentHash,
  type ContentHash,
  type CoveredFile,
} from '../../src/core/systems/eva/hashes';
import { beneathWorks } from '../../src/core/fs/openBeneath';
import { sha256Hex } from '../../src/core/hashing/framing';
import { Fixture } from './helpers/fixture';

/**
 * A directory of a covered skill folder swapped for a symbolic link while Skillgate reads
 * it (a process in the repository racing the read): the folder's walk checks that no
 * entry is a link (eva.md §6.1, `eva.trust.symlink`), but a read by the whole path later
 * follows a directory on the way that became one, and the content hash, and trust, bind to
 * bytes from outside the skill. The walk and the read name everything beneath the folder
 * against the directories they hold (src/core/fs/openBeneath.ts): such a directory is
 * refused as the link it now is, in the words a link found in the folder gets.
 */
(beneathWorks() ? describe : describe.skip)('Eva: a covered directory swapped for a link (Linux)', () => {
  let f: Fixture;
  const OUTSIDE = 'outside bytes the skill never held';
  const INSIDE = "the skill's own bytes";
  const MANIFEST = Buffer.from('manifest');
  const LINKED = {
    ok: false,
    cause: 'symlink',
    message: 'a file covered by this skill is a symbolic link; it cannot be reviewed',
  };
  beforeEach(() => {
    f = new Fixture();
    f.write('ws/skills/rev/SKILL.md', INSIDE);
    f.write('ws/skills/rev/sub/a.txt', INSIDE);
    f.write('ws/skills/rev/sub/deep/c.txt', INSIDE);
    f.write('outside/a.txt', OUTSIDE);
    f.write('outside/deep/c.txt', OUTSIDE);
    f.write('outside/only-outside.txt', OUTSIDE);
  });
  afterEach(() => {
    delete coverSeams.listed;
    f.remove();
  });

  const dir = () => f.path('ws/skills/rev');
  const cover = (at = dir(), root = f.path('ws')): readonly CoveredFile[] => {
    const covered = coverDirectory(at, root, null);
    assert.ok(covered.ok, JSON.stringify(covered));
    return covered.files;
  };
  /** Replaces the folder's `rel` by a link to the outside directory `target`, keeping the directory at `keptAt` when given. */
  const swap = (rel: string, target: string, keptAt?: string): void => {
    if (keptAt) fs.renameSync(f.path('ws/skills/rev', rel), f.path(keptAt));
    else fs.rmSync(f.path('ws/skills/rev', rel), { recursive: true });
    fs.symlinkSync(f.path('outside', target), f.path('ws/skills/rev', rel));
  };
  /**
   * The hash a read through the link would give: the same covered names, those under
   * `swapped` holding the outside bytes, in a skill folder of real directories.
   */
  const hashOfOutside = (files: readonly CoveredFile[], swapped: string): ContentHash => {
    for (const rel of ['SKILL.md', 'sub/a.txt', 'sub/deep/c.txt'])
      f.write(`ws2/skills/rev/${rel}`, rel.startsWith(`${swapped}/`) ? OUTSIDE : INSIDE);
    return evaContentHash(
      'skill-adapter',
      MANIFEST,
      files.map((x) => ({ ...x, abs: x.abs.replace(f.path('ws'), f.path('ws2')), within: f.path('ws2/skills/rev') })),
    );
  };
  /** Whether any byte from outside was hashed: the hash a read through the link gives, or a file of the outside bytes. */
  const outsideBytesHashed = (hashed: ContentHash, outside: ContentHash): boolean =>
    hashed.ok &&
    ((outside.ok && hashed.contentHash === outside.contentHash) ||
      hashed.files.some((x) => x.sha256 === sha256Hex(OUTSIDE)));

  it('refuses a directory the walk found that is a link when its files are read, and hashes nothing from outside', () => {
    const files = cover();
    swap('sub', '');
    const hashed = evaContentHash('skill-adapter', MANIFEST, files);
    assert.equal(outsideBytesHashed(hashed, hashOfOutside(files, 'sub')), false);
    assert.deepEqual(hashed, LINKED);
  });

  it('refuses a link that replaced a directory two levels up from a covered file', () => {
    const files = cover();
    swap('sub/deep', 'deep');
    const hashed = evaContentHash('skill-adapter', MANIFEST, files);
    assert.equal(outsideBytesHashed(hashed, hashOfOutside(files, 'sub/deep')), false);
    assert.deepEqual(hashed, LINKED);
  });

  it('refuses a directory that became a link after its parent was listed, and covers no name from outside', () => {
    coverSeams.listed = (abs) => {
      if (abs === dir()) swap('sub', '', 'kept');
    };
    const covered = coverDirectory(dir(), f.path('ws'), null);
    const names = covered.ok ? covered.files.map((x) => x.rel) : [];
    assert.ok(!names.includes('skills/rev/sub/only-outside.txt'), names.join(', '));
    assert.deepEqual(covered, LINKED);
  });

  it('reads a covered directory moved away after its listing where it went, nothing from the link in its place', () => {
    coverSeams.listed = (abs) => {
      if (abs === f.path('ws/skills/rev/sub')) swap('sub', '', 'kept');
    };
    const covered = coverDirectory(dir(), f.path('ws'), null);
    assert.ok(covered.ok);
    // Listed in the directory held: its entries are the ones it held, named as listed.
    assert.deepEqual(covered.files.map((x) => x.rel).sort(), [
      'skills/rev/SKILL.md',
      'skills/rev/sub/a.txt',
      'skills/rev/sub/deep/c.txt',
    ]);
    // Read later beneath the folder, each file by its name: the name leads through a link now.
    assert.deepEqual(evaContentHash('skill-adapter', MANIFEST, covered.files), LINKED);
  });

  it('hashes the same, holding directories, as a read of each whole path where nothing races', () => {
    const files = cover();
    const held = evaContentHash('skill-adapter', MANIFEST, files);
    const byPath = evaContentHash(
      'skill-adapter',
      MANIFEST,
      files.map(({ abs, domain, rel }) => ({ abs, domain, rel })),
    );
    assert.ok(held.ok);
    assert.deepEqual(held, byPath);
    // A covered file gone since the walk is recorded as missing either way; one whose directory became a file fails alike.
    fs.rmSync(f.path('ws/skills/rev/sub/deep/c.txt'));
    assert.deepEqual(
      evaContentHash('skill-adapter', MANIFEST, files),
      evaContentHash(
        'skill-adapter',
        MANIFEST,
        files.map(({ abs, domain, rel }) => ({ abs, domain, rel })),
      ),
    );
    fs.rmSync(f.path('ws/skills/rev/sub/deep'), { recursive: true });
    f.write('ws/skills/rev/sub/deep', 'a file now');
    const failed = evaContentHash('skill-adapter', MANIFEST, files);
    assert.equal(failed.ok, false);
    assert.deepEqual(
      failed,
      evaContentHash(
        'skill-adapter',
        MANIFEST,
        files.map(({ abs, domain, rel }) => ({ abs, domain, rel })),
      ),
    );
  });

  it('walks a skill folder that is itself a link, as Eva follows it (eva.md §8 Q7)', () => {
    f.symlink(dir(), 'ws/skills/linked');
    const files = cover(f.path('ws/skills/linked'));
    assert.deepEqual(files.map((x) => x.rel).sort(), [
      'skills/linked/SKILL.md',
      'skills/linked/sub/a.txt',
      'skills/linked/sub/deep/c.txt',
    ]);
    assert.equal(evaContentHash('skill-adapter', MANIFEST, files).ok, true);
  });

  it('leaves no descriptor open, however the walk ends', () => {
    const open = (): number => fs.readdirSync('/proc/self/fd').length;
    const before = open();
    f.write('ws/skills/rev/sub2/x/y.txt', INSIDE);
    f.write('ws/skills/rev/sub3/z.txt', INSIDE);
    evaContentHash('skill-adapter', MANIFEST, cover());
    // Failed in the middle, while directories found in the folder still wait to be walked.
    coverSeams.listed = (abs) => {
      if (abs === f.path('ws/skills/rev/sub2')) throw new Error('the seam failed');
    };
    assert.throws(() => coverDirectory(dir(), f.path('ws'), null), /the seam failed/);
    delete coverSeams.listed;
    // Refused so: a link in the folder, and a directory that became one.
    fs.symlinkSync('../../../outside', f.path('ws/skills/rev/sub2/x/l'));
    assert.deepEqual(coverDirectory(dir(), f.path('ws'), null), LINKED);
    fs.rmSync(f.path('ws/skills/rev/sub2/x/l'));
    coverSeams.listed = (abs) => {
      if (abs === dir()) swap('sub', '');
    };
    assert.deepEqual(coverDirectory(dir(), f.path('ws'), null), LINKED);
    assert.equal(open(), before);
  });
});
