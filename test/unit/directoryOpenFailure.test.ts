import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { directoryOpenFailure, type DirectoryOpenFailure } from '../../src/core/fs/directoryOpenFailure';
import { heldDirectoriesWork, heldPath, holdDirectory } from '../../src/core/fs/heldDirectory';
import { beneathWorks, holdBase, holdBeneath } from '../../src/core/fs/openBeneath';
import { walkBundleTree } from '../../src/core/hashing/treeRead';
import { Fixture } from './helpers/fixture';

/**
 * The one decision after a directory could not be held (src/core/fs/directoryOpenFailure.ts):
 * is the entry a link by now, gone or out of sight, or there and no directory it may open?
 * Codewhale's content walk holds by path or through its held parent (heldDirectory.ts
 * `holdDirectory`), the reads beneath a directory through the held parent with `O_PATH`
 * (openBeneath.ts `holdBeneath`): each open fails its own way, and the same entry must be
 * decided the same way after either.
 */
(heldDirectoriesWork() && beneathWorks() ? describe : describe.skip)(
  'why a directory could not be held (Linux)',
  () => {
    let f: Fixture;
    beforeEach(() => {
      f = new Fixture();
      f.write('b/file', 'a file, not a directory');
      f.mkdir('b/dir');
      f.write('outside/a.txt', 'outside');
      f.symlink('../outside', 'b/link');
      f.symlink('nowhere', 'b/dangling');
      execFileSync('mkfifo', [f.path('b/fifo')]);
    });
    afterEach(() => f.remove());

    /** The decision on the error `open` threw, opening `at`. */
    const decided = (open: () => number, at: string | Buffer): DirectoryOpenFailure => {
      let thrown: unknown;
      try {
        fs.closeSync(open());
      } catch (e) {
        thrown = e;
      }
      assert.ok(thrown, `the open of ${String(at)} failed`);
      return directoryOpenFailure(at, thrown);
    };
    /** The decision's kind, and the code and call of the error it carries (the open's or the lstat's). */
    const shape = (failure: DirectoryOpenFailure): string => {
      if (failure.kind === 'link') return 'link';
      const e = failure.error as NodeJS.ErrnoException;
      return `${failure.kind} ${String(e.code)} ${String(e.syscall)}`;
    };

    /** open(2)'s `O_PATH`, which Node does not export (openBeneath.ts; `beneathWorks` checked the bit means it here). */
    const O_PATH = 0o10000000;
    const HOLD_BENEATH = O_PATH | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW;

    /** Each entry decided after each open: by path and through the held parent (`holdDirectory`), and `O_PATH` beneath it (`holdBeneath`'s). */
    const everyWay = (name: string): string[] => {
      const byPath = f.path('b', name);
      const parent = holdDirectory(f.path('b'));
      const base = holdBase(f.path('b'));
      try {
        const through = heldPath(parent, name);
        const beneath = heldPath(base, Buffer.from(name));
        return [
          decided(() => holdDirectory(byPath), byPath),
          decided(() => holdDirectory(through), through),
          decided(() => fs.openSync(beneath, HOLD_BENEATH), beneath),
        ].map(shape);
      } finally {
        fs.closeSync(parent);
        fs.closeSync(base);
      }
    };

    it('decides a link by now as a link, dangling or not, whichever open met it', () => {
      assert.deepEqual(everyWay('link'), ['link', 'link', 'link']);
      assert.deepEqual(everyWay('dangling'), ['link', 'link', 'link']);
    });

    it("keeps the open's own error for an entry that is there and no directory", () => {
      assert.deepEqual(everyWay('file'), Array(3).fill('refused ENOTDIR open'));
      // O_DIRECTORY refuses a FIFO before it is opened: nothing blocks.
      assert.deepEqual(everyWay('fifo'), Array(3).fill('refused ENOTDIR open'));
    });

    it("answers in the lstat's words for an entry that vanished or cannot be looked at", () => {
      assert.deepEqual(everyWay('gone'), Array(3).fill('uninspectable ENOENT lstat'));
      // A path through a file, and a name past NAME_MAX: the lstat fails as the open did.
      assert.deepEqual(everyWay('file/x'), Array(3).fill('uninspectable ENOTDIR lstat'));
      assert.deepEqual(everyWay('n'.repeat(300)), Array(3).fill('uninspectable ENAMETOOLONG lstat'));
    });

    it('decides by what the entry is when looked at, whatever the open answered', () => {
      // An open that failed otherwise (a directory it may not read) before the entry was swapped for a link.
      const denied = Object.assign(new Error('EACCES: permission denied, open'), { code: 'EACCES' });
      assert.deepEqual(directoryOpenFailure(f.path('b/link'), denied), { kind: 'link' });
      assert.deepEqual(directoryOpenFailure(f.path('b/dir'), denied), { kind: 'refused', error: denied });
    });

    it('makes holdBeneath throw ELOOP for a link and the open’s own error otherwise, as before', () => {
      const base = holdBase(f.path('b'));
      try {
        for (const [name, code] of [
          ['link', 'ELOOP'],
          ['dangling', 'ELOOP'],
          ['file', 'ENOTDIR'],
          ['fifo', 'ENOTDIR'],
          ['gone', 'ENOENT'],
        ] as const)
          assert.throws(() => holdBeneath(base, Buffer.from(name)), { code }, name);
        fs.closeSync(holdBeneath(base, Buffer.from('dir')));
      } finally {
        fs.closeSync(base);
      }
    });

    describe('an entry swapped for a link after an open that failed otherwise, injected', () => {
      // A race no test wins by timing: the open of `dir` fails EACCES (a directory this user may
      // not read), and the entry is a link when it is looked at. Both walks must decide it alike.
      const nodeFs = require('node:fs') as typeof import('node:fs');
      const realOpen = nodeFs.openSync;
      afterEach(() => {
        nodeFs.openSync = realOpen;
      });
      const injectDeniedThenSwapped = (bundle: string): void => {
        nodeFs.openSync = ((p: fs.PathLike, flags: fs.OpenMode, mode?: fs.Mode) => {
          if (typeof flags === 'number' && flags & fs.constants.O_DIRECTORY && String(p).endsWith('/dir')) {
            nodeFs.openSync = realOpen;
            fs.rmdirSync(f.path(bundle, 'dir'));
            fs.symlinkSync('../outside', f.path(bundle, 'dir'));
            throw Object.assign(new Error('EACCES: permission denied, open'), { code: 'EACCES' });
          }
          return realOpen(p, flags, mode);
        }) as typeof fs.openSync;
      };

      it('the content walk reports it as the link it now is', () => {
        f.write('w/a.txt', 'inside');
        f.mkdir('w/dir');
        injectDeniedThenSwapped('w');
        const failure = walkBundleTree(f.path('w'), () => undefined, { holdDirectories: true });
        assert.deepEqual(failure, {
          kind: 'symlink',
          message: 'component trees may not contain symbolic link dir',
          rel: 'dir',
        });
      });

      it('holdBeneath throws ELOOP for it, as for a link its open met', () => {
        const base = holdBase(f.path('b'));
        try {
          injectDeniedThenSwapped('b');
          assert.throws(() => holdBeneath(base, Buffer.from('dir')), { code: 'ELOOP' });
        } finally {
          fs.closeSync(base);
        }
      });
    });

    it('leaves no descriptor open', () => {
      const open = (): number => fs.readdirSync('/proc/self/fd').length;
      const before = open();
      for (const name of ['link', 'file', 'gone']) everyWay(name);
      assert.equal(open(), before);
    });
  },
);
