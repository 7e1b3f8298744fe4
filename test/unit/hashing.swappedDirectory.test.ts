import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import {
  readBundleTree,
  walkBundleTree,
  type TreeFailure,
  type TreeStep,
  type WalkSeams,
} from '../../src/core/hashing/treeRead';
import { heldDirectoriesWork } from '../../src/core/fs/heldDirectory';
import { Fixture } from './helpers/fixture';

/**
 * A directory swapped for a symbolic link after the walk listed it (a process in the
 * repository racing the walk). `O_NOFOLLOW` guards only a path's last component: a walk
 * that names entries by their whole path follows such a link in the middle and hashes
 * bytes from outside the bundle, and trust binds to them. The walk's seams (treeRead.ts
 * `WalkSeams`) make the race deterministic. On Linux the walk holds each directory it
 * lists and names its entries against it (heldDirectory.ts), so no link is followed:
 * Codewhale itself lstats each entry as it reaches it (manifest.rs `hash_path`,
 * `symlink_metadata`), so a directory that is a link by then is `component trees may not
 * contain symbolic link {path}`, as a link the listing shows is.
 */
(heldDirectoriesWork() ? describe : describe.skip)(
  'the content walk and a directory swapped for a link (Linux)',
  () => {
    let f: Fixture;
    const OUTSIDE = 'outside bytes the bundle never held';
    const INSIDE = "the bundle's own bytes";
    beforeEach(() => {
      f = new Fixture();
      f.write('b/plugin.json', '{"name":"b"}');
      f.write('b/sub/a.txt', INSIDE);
      f.write('b/sub/deep/c.txt', INSIDE);
      f.write('outside/a.txt', OUTSIDE);
      f.write('outside/deep/c.txt', OUTSIDE);
      f.write('outside/plugin.json', OUTSIDE);
    });
    afterEach(() => f.remove());

    type Walked = { steps: TreeStep[]; failure: TreeFailure | undefined };
    /** The walk's steps and failure, with the seams given. */
    const walk = (seams: WalkSeams): Walked => {
      const steps: TreeStep[] = [];
      const failure = walkBundleTree(f.path('b'), (step) => steps.push(step), seams);
      return { steps, failure };
    };
    const readOutside = (steps: TreeStep[]): string[] =>
      steps.flatMap((s) => (s.kind === 'file' && s.bytes.toString() === OUTSIDE ? [String(s.rel)] : []));
    /** Replaces the bundle's `rel` by a relative link to `outside/<target>`, keeping the directory at `keptAt` when given. */
    const swap = (rel: string, target: string, keptAt?: string): void => {
      if (keptAt) fs.renameSync(f.path('b', rel), f.path(keptAt));
      else fs.rmSync(f.path('b', rel), { recursive: true });
      const depth = rel.split('/').length;
      fs.symlinkSync(`${'../'.repeat(depth)}outside${target ? '/' + target : ''}`, f.path('b', rel));
    };

    it('reports a directory that became a link after its parent was listed as a link, and reads nothing through it', () => {
      const { steps, failure } = walk({ listed: (rel) => rel === '' && swap('sub', '') });
      assert.deepEqual(readOutside(steps), []);
      assert.deepEqual(failure, {
        kind: 'symlink',
        message: 'component trees may not contain symbolic link sub',
        rel: 'sub',
      });
      // As a link the listing shows: no directory step for it.
      assert.deepEqual(
        steps.map((s) => (s.kind === 'end' ? 'end' : `${s.kind} ${String(s.rel)}`)),
        ['directory ', 'file plugin.json'],
      );
    });

    it('reads the files of a listed directory from that directory, though its name now leads outside', () => {
      const { steps, failure } = walk({ listed: (rel) => rel === 'sub' && swap('sub', '', 'kept') });
      assert.deepEqual(readOutside(steps), []);
      assert.equal(failure, undefined);
      const a = steps.find((s) => s.kind === 'file' && s.rel === 'sub/a.txt');
      assert.ok(a && a.kind === 'file');
      assert.equal(a.bytes.toString(), INSIDE);
    });

    it('follows no link that replaced an ancestor two levels up', () => {
      const { steps, failure } = walk({ listed: (rel) => rel === 'sub/deep' && swap('sub', '', 'kept') });
      assert.deepEqual(readOutside(steps), []);
      assert.equal(failure, undefined);
      const c = steps.find((s) => s.kind === 'file' && s.rel === 'sub/deep/c.txt');
      assert.ok(c && c.kind === 'file');
      assert.equal(c.bytes.toString(), INSIDE);
    });

    it('reads nothing outside when the listed directory was removed and a link put in its place', () => {
      const { steps, failure } = walk({ listed: (rel) => rel === 'sub' && swap('sub', '') });
      assert.deepEqual(readOutside(steps), []);
      // The held directory is empty now: its file is gone, as the walk reports a file removed under it.
      assert.equal(failure?.kind, 'unreadable');
      assert.equal(failure?.rel, 'sub/a.txt');
      assert.equal(failure?.message, 'failed to inspect component sub/a.txt: No such file or directory (os error 2)');
    });

    it('reports a root that became a link after it was inspected as a root that is no directory', () => {
      const { steps, failure } = walk({
        rootInspected: () => {
          fs.renameSync(f.path('b'), f.path('kept'));
          fs.symlinkSync('outside', f.path('b'));
        },
      });
      assert.deepEqual(readOutside(steps), []);
      assert.deepEqual(failure, {
        kind: 'root-not-directory',
        message: 'plugin root must be a directory, not a symbolic link',
      });
      assert.deepEqual(steps, []);
    });

    it("spells a name holding `$&` or `$'` as it is in the message of an entry swapped for a link", () => {
      for (const name of ['a$&b.txt', "c$'d"]) {
        f.write(`b/${name}`, INSIDE);
        const { steps, failure } = walk({
          listed: (rel) => {
            if (rel !== '') return;
            fs.rmSync(f.path('b', name));
            fs.symlinkSync('../outside/a.txt', f.path('b', name));
          },
        });
        assert.deepEqual(readOutside(steps), []);
        assert.deepEqual(failure, {
          kind: 'symlink',
          message: `component trees may not contain symbolic link ${name}`,
          rel: name,
        });
        fs.rmSync(f.path('b', name));
      }
    });

    it('reads the same steps, and fails alike, holding directories or naming them by path', () => {
      f.write('b/x.sh', '#!/bin/sh\n', 0o755);
      f.mkdir('b/empty');
      const raw = Buffer.concat([Buffer.from(f.path('b/sub/r')), Buffer.from([0xff])]);
      fs.mkdirSync(raw);
      fs.writeFileSync(Buffer.concat([raw, Buffer.from('/f\xfe', 'latin1')]), 'raw');
      const both = (): [Walked, Walked] => [walk({ holdDirectories: true }), walk({ holdDirectories: false })];
      const [held, byPath] = both();
      assert.equal(held.failure, undefined);
      assert.ok(held.steps.some((s) => s.kind === 'file' && Buffer.isBuffer(s.rel)));
      assert.deepEqual(held, byPath);
      // A link the listing shows, and a path past PATH_MAX (Linux's 4096 bytes): the same failure either way.
      fs.symlinkSync('../outside', f.path('b/sub/deep/link'));
      const [heldLink, byPathLink] = both();
      assert.equal(heldLink.failure?.kind, 'symlink');
      assert.deepEqual(heldLink, byPathLink);
      fs.rmSync(f.path('b/sub/deep/link'));
      // Made one level at a time from inside, as no path that long can name it.
      const cwd = process.cwd();
      try {
        process.chdir(f.path('b/sub/deep'));
        for (let length = Buffer.byteLength(process.cwd()); length < 4200; length += 201) {
          fs.mkdirSync('d'.repeat(200));
          process.chdir('d'.repeat(200));
        }
      } finally {
        process.chdir(cwd);
      }
      try {
        const [heldLong, byPathLong] = both();
        assert.match(heldLong.failure?.message ?? '', /File name too long \(os error 36\)$/);
        assert.deepEqual(heldLong, byPathLong);
      } finally {
        // Node's rmSync names each entry by its whole path; rm(1) removes it from inside.
        execFileSync('rm', ['-rf', f.path('b/sub/deep', 'd'.repeat(200))]);
      }
    });

    it('leaves no descriptor open, however the walk ends', () => {
      const open = (): number => fs.readdirSync('/proc/self/fd').length;
      const before = open();
      walk({});
      walk({ listed: (rel) => rel === '' && swap('sub', '') });
      f.mkdir('b2/sub/deep');
      fs.symlinkSync('../../../outside', f.path('b2/sub/deep/z'));
      readBundleTree(f.path('b2'));
      assert.throws(() =>
        walkBundleTree(f.path('b2'), (step) => {
          if (step.kind === 'directory' && step.rel === 'sub/deep') throw new Error('the visitor failed');
        }),
      );
      assert.equal(open(), before);
    });
  },
);
