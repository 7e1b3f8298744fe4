import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import nodeFs from 'node:fs';
import { installPlugin, MAX_SKILL_COPY_BYTES } from '../../src/core/systems/rivumi/install';
import { Fixture } from './helpers/fixture';

/**
 * `install` against a package and a destination that work against it (rivumi.md §5.6):
 * what a hostile manifest can make the installer hold in memory, and what a second
 * install racing it can make it overwrite.
 */
describe('Rivumi plugin install against a hostile package or a racing install', () => {
  let f: Fixture;
  const restores: (() => void)[] = [];
  /** Wraps one fs function for the rest of the test: `before` runs ahead of the real call. */
  const spy = (name: 'openSync' | 'linkSync', before: (args: unknown[]) => void): void => {
    const target = nodeFs as unknown as Record<string, (...args: unknown[]) => unknown>;
    const real = target[name] as (...args: unknown[]) => unknown;
    target[name] = (...args: unknown[]) => {
      before(args);
      return real.apply(nodeFs, args);
    };
    restores.push(() => (target[name] = real));
  };
  const tree = (dir: string): string[] =>
    fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String).sort() : [];
  beforeEach(() => {
    f = new Fixture();
    f.write('package/s.md', '---\nname: s\n---\nBody.');
    f.mkdir('repo');
  });
  afterEach(() => {
    restores
      .splice(0)
      .reverse()
      .forEach((restore) => restore());
    f.remove();
  });

  describe('what the package can make it read', () => {
    it('reads a skill file once, however many spellings of its path the manifest lists', () => {
      // `s.md`, `./s.md`, `.//s.md`, ...: sixteen paths, one file. Held once per spelling,
      // one 2 GiB (sparse) file was 32 GiB of memory. With --overwrite, as Rivumi refuses the
      // second copy of one file without it (rivumi.md §5.6 step 6).
      const spellings = Array.from({ length: 16 }, (_, i) => `.${'/'.repeat(i + 1)}s.md`);
      f.write('package/plugin.json', JSON.stringify({ name: 'p', skills: spellings.map((p) => ({ path: p })) }));
      let opened = 0;
      spy('openSync', (a) => {
        if (String(a[0]) === f.path('package/s.md')) opened++;
      });
      const r = installPlugin(f.path('package/plugin.json'), f.path('repo'), { overwrite: true });
      assert.ok(r.ok, r.ok ? '' : r.message);
      assert.equal(opened, 1);
      assert.equal(fs.readFileSync(f.path('repo/.rivumi/plugins/s.md'), 'utf8'), '---\nname: s\n---\nBody.');
    });

    it('holds at most 64 MiB for the sixteen skills a manifest may list', () => {
      assert.ok(16 * MAX_SKILL_COPY_BYTES <= 64 * 2 ** 20, `${MAX_SKILL_COPY_BYTES} bytes per skill`);
    });

    it('refuses a skill file larger than it will hold, and creates nothing', () => {
      // Sparse: costs no disk, and an archive can carry sixteen of them.
      const big = f.write('package/big.md', '');
      fs.truncateSync(big, MAX_SKILL_COPY_BYTES + 1);
      f.write('package/plugin.json', JSON.stringify({ name: 'p', skills: [{ path: 's.md' }, { path: 'big.md' }] }));
      assert.deepEqual(installPlugin(f.path('package/plugin.json'), f.path('repo')), {
        ok: false,
        message: `plugin skill file could not be read: big.md (larger than ${MAX_SKILL_COPY_BYTES} bytes); nothing was installed`,
      });
      assert.deepEqual(tree(f.path('repo')), []);
      fs.truncateSync(big, MAX_SKILL_COPY_BYTES);
      assert.ok(installPlugin(f.path('package/plugin.json'), f.path('repo')).ok);
    });
  });

  describe('a second install of the same name, landing while this one writes', () => {
    /** The other install's files appear just before this one opens its first temporary file. */
    const racedBy = (files: Record<string, string>): void => {
      let done = false;
      spy('openSync', (a) => {
        if (done || !/\.skillgate-[0-9a-f]+$/.test(String(a[0]))) return;
        done = true;
        for (const [rel, text] of Object.entries(files)) f.write(`repo/.rivumi/plugins/${rel}`, text);
      });
    };

    it('without --overwrite, never replaces the manifest the other install wrote', () => {
      f.write('package/plugin.json', JSON.stringify({ name: 'p' }));
      racedBy({ 'p.json': '{"name": "p", "description": "the other install"}\n' });
      assert.deepEqual(installPlugin(f.path('package/plugin.json'), f.path('repo')), {
        ok: false,
        message: 'plugin already installed: p; nothing was installed',
      });
      assert.deepEqual(tree(f.path('repo/.rivumi/plugins')), ['p.json']);
      assert.equal(
        fs.readFileSync(f.path('repo/.rivumi/plugins/p.json'), 'utf8'),
        '{"name": "p", "description": "the other install"}\n',
      );
    });

    it('without --overwrite, never replaces a skill the other install wrote, and takes back its own files', () => {
      f.write('package/t.md', '---\nname: t\n---\nMine.');
      f.write('package/plugin.json', JSON.stringify({ name: 'p', skills: [{ path: 't.md' }, { path: 's.md' }] }));
      racedBy({ 's.md': 'theirs' });
      assert.deepEqual(installPlugin(f.path('package/plugin.json'), f.path('repo')), {
        ok: false,
        message: 'plugin skill already exists: s.md; nothing was installed',
      });
      assert.deepEqual(tree(f.path('repo/.rivumi/plugins')), ['s.md']);
      assert.equal(fs.readFileSync(f.path('repo/.rivumi/plugins/s.md'), 'utf8'), 'theirs');
    });

    it('without --overwrite, never replaces a file that lands between its last look and its write', () => {
      f.write('package/plugin.json', JSON.stringify({ name: 'p', skills: [{ path: 's.md' }] }));
      spy('linkSync', (a) => {
        if (String(a[1]).endsWith('s.md')) f.write('repo/.rivumi/plugins/s.md', 'theirs');
      });
      assert.deepEqual(installPlugin(f.path('package/plugin.json'), f.path('repo')), {
        ok: false,
        message: 'plugin skill already exists: s.md; nothing was installed',
      });
      assert.deepEqual(tree(f.path('repo/.rivumi/plugins')), ['s.md']);
      assert.equal(fs.readFileSync(f.path('repo/.rivumi/plugins/s.md'), 'utf8'), 'theirs');
    });

    it('renames into place where the file system has no hard links, and rolls back when linking fails otherwise', () => {
      f.write('package/plugin.json', JSON.stringify({ name: 'p', skills: [{ path: 's.md' }] }));
      const failWith = (code: string) =>
        spy('linkSync', () => {
          throw Object.assign(new Error(`${code}: injected`), { code });
        });
      failWith('EPERM');
      const r = installPlugin(f.path('package/plugin.json'), f.path('repo'));
      assert.ok(r.ok, r.ok ? '' : r.message);
      assert.deepEqual(tree(f.path('repo/.rivumi/plugins')), ['p.json', 's.md']);
      fs.rmSync(f.path('repo/.rivumi'), { recursive: true });
      failWith('EIO');
      assert.deepEqual(installPlugin(f.path('package/plugin.json'), f.path('repo')), {
        ok: false,
        message: 'install failed: EIO: injected; nothing was installed',
      });
      assert.deepEqual(tree(f.path('repo')), []);
    });

    it('with --overwrite, replaces what it finds, as Rivumi does', () => {
      f.write('package/plugin.json', JSON.stringify({ name: 'p', skills: [{ path: 's.md' }] }));
      racedBy({ 's.md': 'theirs' });
      const r = installPlugin(f.path('package/plugin.json'), f.path('repo'), { overwrite: true });
      assert.ok(r.ok, r.ok ? '' : r.message);
      assert.equal(fs.readFileSync(f.path('repo/.rivumi/plugins/s.md'), 'utf8'), '---\nname: s\n---\nBody.');
      assert.deepEqual(tree(f.path('repo/.rivumi/plugins')), ['p.json', 's.md']);
    });
  });
});
