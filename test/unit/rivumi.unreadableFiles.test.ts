import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as net from 'node:net';
import { loadRivumiProject } from '../../src/core/systems/rivumi/load';
import { installPlugin } from '../../src/core/systems/rivumi/install';
import { hookArgvCoverage } from '../../src/core/systems/rivumi/hookArgvFiles';
import { Fixture } from './helpers/fixture';
import { fsPatcher } from './helpers/fsPatch';
import { denyDirectory, failReadsOf, permissionDenied } from './helpers/deniedDirectory';

/**
 * The files Rivumi reads on its load path, when reading them fails: a file of another
 * owner at mode 600, a folder it may list but not search (744) or neither (700), and a read
 * that fails once the file is open. Rivumi checks each file with pathlib (`is_symlink()`,
 * `is_file()`, `stat()`) and reads it (`read_text()`, `open("rb")`), and catches none of the
 * OSErrors these raise (skills.py `_load_skill_file`, plugins.py `load_project_plugins` and
 * `_validate_plugin_skill_paths`, hooks.py `load_project_hook_config`): the load that meets
 * one fails with it, in Python's words. Tests run as root, where mode bits deny nothing:
 * the denials are injected. The same cases, run for real as `nobody` with CPython 3.11,
 * 3.12 and 3.13, raise exactly these messages.
 */
describe('Rivumi files it fails to read, in Python’s words', () => {
  const fsPatch = fsPatcher();
  let f: Fixture;
  beforeEach(() => {
    f = new Fixture();
    f.write('.rivumi/skills/review.md', '# Review\n\nReview the change.\n');
    f.write('.rivumi/skills/tests.md', '# Tests\n\nWrite tests.\n');
    f.write('.rivumi/plugins/pack.json', JSON.stringify({ name: 'pack', skills: [{ path: 'pack/tips.md' }] }));
    f.write('.rivumi/plugins/pack/tips.md', '# Tips\n\nSome tips.\n');
  });
  afterEach(() => f.remove());
  const diags = (p: ReturnType<typeof loadRivumiProject>) =>
    p.diagnostics.map((d) => [d.code, d.severity, d.message, d.file]);
  const denied = (file: string, load: string) =>
    `[Errno 13] Permission denied: '${file}' (Rivumi's ${load} load fails on it as this user; run as a user who may read it, Rivumi loads what is there, which Skillgate cannot show)`;

  /** `open` of `file` is refused, as for a file of another owner at mode 600. */
  const denyOpen = (file: string) =>
    fsPatch.replace('openSync', (original) => (p: fs.PathLike, ...rest: unknown[]) => {
      if (path.resolve(String(p)) === file) throw permissionDenied('open', String(p));
      return (original as (...a: unknown[]) => unknown)(p, ...rest);
    });

  /** `file` opens, and reading it fails (EIO), as on a failing disk. */
  const failReads = (file: string) => failReadsOf(fsPatch, file);

  describe('project skills (skills.py _load_skill_file)', () => {
    it('fails the skill load at a skill it may not open: read_text raises PermissionError, not "not a regular file"', () => {
      const skill = f.path('.rivumi/skills/review.md');
      denyOpen(skill);
      const p = loadRivumiProject(f.root);
      assert.deepEqual(diags(p), [['rivumi.path-unreadable', 'error', denied(skill, 'skill'), skill]]);
      assert.deepEqual(
        p.skills.map((s) => [s.name, s.state]),
        [
          ['review', 'invalid'],
          ['tests', 'valid'],
        ],
      );
      assert.equal(p.skillLoad?.file, skill);
      assert.equal(p.hookLoad, null);
    });

    it('fails the skill load at the first skill of a .rivumi/skills it may list but not search (744): is_symlink raises', () => {
      denyDirectory(fsPatch, f.path('.rivumi/skills'), 'mode600');
      const p = loadRivumiProject(f.root);
      const review = f.path('.rivumi/skills/review.md');
      const tests = f.path('.rivumi/skills/tests.md');
      assert.deepEqual(diags(p), [
        ['rivumi.path-unreadable', 'error', denied(review, 'skill'), review],
        ['rivumi.path-unreadable', 'error', denied(tests, 'skill'), tests],
      ]);
      assert.equal(p.skillLoad?.file, review);
    });

    it('says a skill too large before the open is refused: stat().st_size is checked first', () => {
      const big = f.write('.rivumi/skills/big.md', `# Big\n\n${'x'.repeat(40000)}\n`);
      denyOpen(big);
      const p = loadRivumiProject(f.root);
      assert.deepEqual(diags(p), [
        ['rivumi.skill.too-large', 'error', 'project skill exceeds 32768 bytes: big.md', big],
      ]);
    });

    it('fails the skill load at a skill of exactly 32768 bytes it may not open: the size check passes it (rivumi.md §3.3: > 32768)', () => {
      const edge = f.write('.rivumi/skills/edge.md', `# Edge\n\n${'x'.repeat(32768 - 9)}\n`);
      assert.equal(fs.statSync(edge).size, 32768);
      denyOpen(edge);
      const p = loadRivumiProject(f.root);
      assert.deepEqual(diags(p), [['rivumi.path-unreadable', 'error', denied(edge, 'skill'), edge]]);
    });

    it('refuses a skill that is a Unix socket as not a regular file: is_file() is False before any open', async () => {
      const sock = f.path('.rivumi/skills/sock.md');
      const server = net.createServer();
      await new Promise<void>((resolve) => server.listen(sock, resolve));
      try {
        // Skillgate's own open fails first (ENXIO); Rivumi never opens it.
        const p = loadRivumiProject(f.root);
        assert.deepEqual(diags(p), [
          ['rivumi.skill.file', 'error', 'project skill must be a regular markdown file: sock.md', sock],
        ]);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('fails the skill load at a skill whose read fails once open: OSError, without a file name', () => {
      const skill = f.path('.rivumi/skills/review.md');
      failReads(skill);
      const p = loadRivumiProject(f.root);
      assert.deepEqual(diags(p), [['rivumi.skill.file', 'error', '[Errno 5] Input/output error', skill]]);
      assert.equal(p.skillLoad?.file, skill);
    });
  });

  describe('plugin manifests (plugins.py load_project_plugins)', () => {
    it('fails both loads at a manifest it may not open', () => {
      const manifest = f.path('.rivumi/plugins/pack.json');
      denyOpen(manifest);
      const p = loadRivumiProject(f.root);
      assert.deepEqual(diags(p), [['rivumi.path-unreadable', 'error', denied(manifest, 'plugin'), manifest]]);
      assert.equal(p.plugins[0]?.state, 'invalid');
      assert.equal(p.skillLoad?.file, manifest);
      assert.equal(p.hookLoad?.file, manifest);
    });

    it('fails both loads at a manifest whose read fails once open', () => {
      const manifest = f.path('.rivumi/plugins/pack.json');
      failReads(manifest);
      const p = loadRivumiProject(f.root);
      assert.deepEqual(diags(p), [['rivumi.plugin.file', 'error', '[Errno 5] Input/output error', manifest]]);
      assert.equal(p.skillLoad?.file, manifest);
      assert.equal(p.hookLoad?.file, manifest);
    });

    it('fails both loads at a skill path through a folder it may not search (700, 744): is_symlink raises, no "file is missing"', () => {
      for (const mode of ['mode000', 'mode600'] as const) {
        denyDirectory(fsPatch, f.path('.rivumi/plugins/pack'), mode);
        const p = loadRivumiProject(f.root);
        const manifest = f.path('.rivumi/plugins/pack.json');
        // _validate_plugin_skill_paths: the path is resolved first, so the error names the resolved file.
        assert.deepEqual(diags(p), [
          ['rivumi.path-unreadable', 'error', denied(f.path('.rivumi/plugins/pack/tips.md'), 'plugin'), manifest],
        ]);
        assert.deepEqual(p.diagnostics[0]?.range.start, { line: 0, character: 33 });
        assert.equal(p.plugins[0]?.state, 'invalid');
        assert.equal(p.skillLoad?.file, manifest);
        assert.equal(p.hookLoad?.file, manifest);
      }
    });

    it('fails the skill load, not the hook load, at a plugin skill file it may not open', () => {
      const tips = f.path('.rivumi/plugins/pack/tips.md');
      denyOpen(tips);
      const p = loadRivumiProject(f.root);
      assert.deepEqual(diags(p), [['rivumi.path-unreadable', 'error', denied(tips, 'skill'), tips]]);
      assert.equal(p.plugins[0]?.state, 'valid');
      assert.equal(p.plugins[0]?.skills[0]?.state, 'invalid');
      assert.equal(p.skillLoad?.file, tips);
      assert.equal(p.hookLoad, null);
    });

    // trust.md "Trust units": the plugin's hash covers every skill file it references. Hashed as
    // absent, a skill file of another owner could change while a receipt made on the plugin held.
    it('cannot cover a plugin skill file it may not open: not hashed as absent, trust of the plugin is refused', () => {
      const tips = f.path('.rivumi/plugins/pack/tips.md');
      denyOpen(tips);
      const hashes = loadRivumiProject(f.root).plugins[0]?.hashes;
      assert.deepEqual(
        hashes?.notCovered.map((n) => n.message),
        [
          `plugin skill file '.rivumi/plugins/pack/tips.md' cannot be read ([Errno 13] Permission denied: '${tips}'): a user who may read it loads what it holds, which Skillgate cannot hash: it cannot be covered by trust`,
        ],
      );
      assert.deepEqual(
        hashes?.files.map((x) => x.path),
        ['.rivumi/plugins/pack.json'],
      );
    });

    it('cannot cover a plugin skill file whose read fails once open: OSError, without a file name', () => {
      const tips = f.path('.rivumi/plugins/pack/tips.md');
      failReads(tips);
      const p = loadRivumiProject(f.root);
      assert.deepEqual(diags(p), [['rivumi.skill.file', 'error', '[Errno 5] Input/output error', tips]]);
      assert.deepEqual(
        p.plugins[0]?.hashes?.notCovered.map((n) => n.message),
        [
          "plugin skill file '.rivumi/plugins/pack/tips.md' cannot be read ([Errno 5] Input/output error), so Skillgate cannot hash what Rivumi loads: it cannot be covered by trust",
        ],
      );
    });
  });

  describe('hooks.json (hooks.py load_project_hook_config)', () => {
    it('fails the hook load at a hooks.json whose read fails once open', () => {
      const hooks = f.write('.rivumi/hooks.json', JSON.stringify({ pre_compact: [{ command: ['true'] }] }));
      failReads(hooks);
      const p = loadRivumiProject(f.root);
      assert.deepEqual(diags(p), [['rivumi.hooks.file', 'error', '[Errno 5] Input/output error', hooks]]);
      assert.equal(p.hookLoad?.file, hooks);
      assert.equal(p.skillLoad, null);
    });
  });

  describe('files a hook’s argv names (trust.md "Hook argv files, exactly")', () => {
    it('cannot cover a script it may not read: hashed as absent, a change to it would keep the receipt', () => {
      const script = f.write('scripts/guard.py', 'print("ok")\n');
      denyOpen(script);
      const c = hookArgvCoverage(f.root, ['python3', 'scripts/guard.py']);
      assert.deepEqual(c.files, []);
      assert.deepEqual(
        c.problems.map((x) => [x.argIndex, x.code, x.message]),
        [
          [
            1,
            'rivumi.hook.argv-uncovered',
            `hook script 'scripts/guard.py' cannot be read ([Errno 13] Permission denied: '${script}'): a user who may read it runs what it holds, which Skillgate cannot hash: it cannot be covered by trust`,
          ],
        ],
      );
    });

    it('cannot cover a script whose read fails once open: found at its argv element, OSError without a file name', () => {
      const script = f.write('scripts/guard.py', 'print("ok")\n');
      failReads(script);
      const c = hookArgvCoverage(f.root, ['python3', 'scripts/guard.py']);
      assert.deepEqual(c.files, []);
      assert.deepEqual(
        c.problems.map((x) => [x.argIndex, x.code, x.message]),
        [
          [
            1,
            'rivumi.hook.argv-uncovered',
            "hook script 'scripts/guard.py' cannot be read ([Errno 5] Input/output error), so Skillgate cannot hash what Rivumi runs: it cannot be covered by trust",
          ],
        ],
      );
    });

    it('cannot cover a script that stops being readable between its argv walk and the hash: not hashed as absent', () => {
      const script = f.write('scripts/guard.py', 'print("ok")\n');
      f.write('.rivumi/hooks.json', JSON.stringify({ pre_compact: [{ command: ['python3', 'scripts/guard.py'] }] }));
      // The walk's open succeeds; the hash's, the second, is refused (its mode changed meanwhile).
      let opens = 0;
      fsPatch.replace('openSync', (original) => (p: fs.PathLike, ...rest: unknown[]) => {
        if (path.resolve(String(p)) === script && ++opens === 2) throw permissionDenied('open', String(p));
        return (original as (...a: unknown[]) => unknown)(p, ...rest);
      });
      const hashes = loadRivumiProject(f.root).hooksFile?.hashes;
      assert.equal(opens, 2);
      assert.deepEqual(
        hashes?.notCovered.map((n) => n.message),
        [
          `hook script 'scripts/guard.py' cannot be read ([Errno 13] Permission denied: '${script}'): a user who may read it runs what it holds, which Skillgate cannot hash: it cannot be covered by trust`,
        ],
      );
    });

    // The walk found a regular file; by the open it is gone or a link (O_NOFOLLOW): its absence is hashed, as before.
    for (const code of ['ENOENT', 'ENOTDIR', 'ELOOP', 'EMLINK'])
      it(`covers a script gone between its walk and its open (${code}): hashed as absent, not refused as unreadable`, () => {
        const script = f.write('scripts/guard.py', 'print("ok")\n');
        fsPatch.replace('openSync', (original) => (p: fs.PathLike, ...rest: unknown[]) => {
          if (path.resolve(String(p)) === script)
            throw Object.assign(new Error(`${code}: gone, open '${String(p)}'`), { code, errno: -1, path: String(p) });
          return (original as (...a: unknown[]) => unknown)(p, ...rest);
        });
        const c = hookArgvCoverage(f.root, ['python3', 'scripts/guard.py']);
        assert.deepEqual([c.files.map((b) => b.toString()), c.problems], [['scripts/guard.py'], []]);
      });

    it('closes every descriptor it opens to read a script’s head, and no other', () => {
      f.write('scripts/a.sh', '#!scripts/b.sh\n');
      fs.chmodSync(f.path('scripts/a.sh'), 0o755);
      f.write('scripts/b.sh', 'echo b\n');
      const opened: number[] = [];
      const closed: number[] = [];
      // The files opened, as against the directories on the way to them (openBeneath.ts opens each).
      const files: string[] = [];
      fsPatch.replace('openSync', (original) => (...a: unknown[]) => {
        const fd = (original as (...b: unknown[]) => number)(...a);
        opened.push(fd);
        if (!fs.fstatSync(fd).isDirectory()) files.push(String(a[0]));
        return fd;
      });
      fsPatch.replace('closeSync', (original) => (fd: number) => {
        closed.push(fd);
        // A descriptor this test did not see opened (stdout, say) is not closed for real.
        if (opened.includes(fd)) (original as (fd: number) => void)(fd);
      });
      const c = hookArgvCoverage(f.root, ['./scripts/a.sh']);
      assert.deepEqual(
        c.files.map((b) => b.toString()),
        ['scripts/a.sh', 'scripts/b.sh'],
      );
      assert.deepEqual(files, [f.path('scripts/a.sh'), f.path('scripts/b.sh')]);
      assert.deepEqual(closed, opened);
    });

    it('covers a script swapped for a directory between its walk and its open: the hash read decides, no read error', () => {
      const script = f.write('scripts/guard.py', 'print("ok")\n');
      const dir = f.mkdir('elsewhere');
      fsPatch.replace(
        'openSync',
        (original) =>
          (p: fs.PathLike, ...rest: unknown[]) =>
            (original as (...a: unknown[]) => unknown)(path.resolve(String(p)) === script ? dir : p, ...rest),
      );
      const c = hookArgvCoverage(f.root, ['python3', 'scripts/guard.py']);
      assert.deepEqual([c.files.map((b) => b.toString()), c.problems], [['scripts/guard.py'], []]);
    });

    it('says a script in a folder it may not search cannot be inspected, in Python’s words', () => {
      const script = f.write('scripts/guard.py', 'print("ok")\n');
      denyDirectory(fsPatch, f.path('scripts'));
      const c = hookArgvCoverage(f.root, ['python3', 'scripts/guard.py']);
      assert.deepEqual(
        c.problems.map((x) => [x.argIndex, x.code, x.message]),
        [
          [
            1,
            'rivumi.hook.argv-uncovered',
            `hook argument 'scripts/guard.py' names 'scripts/guard.py', which cannot be inspected ([Errno 13] Permission denied: '${script}'): a user who may read it runs what it holds, which Skillgate cannot hash: it cannot be covered by trust`,
          ],
        ],
      );
    });
  });

  // An error strerror.ts has no words for (EXDEV stands for any such) keeps the call's own words, at each place
  // Rivumi's read can fail: never a stand-in such as "open error".
  describe('an io error outside strerror’s table', () => {
    const WORDS = 'EXDEV: cross-device link not permitted';
    const odd = (syscall: string, p: string) =>
      Object.assign(new Error(`${WORDS}, ${syscall} '${p}'`), { code: 'EXDEV', errno: -18, syscall, path: p });
    const failing = (name: 'openSync' | 'lstatSync', file: string) =>
      fsPatch.replace(name, (original) => (p: fs.PathLike, ...rest: unknown[]) => {
        if (path.resolve(String(p)) === file) throw odd(name.replace(/Sync$/, ''), String(p));
        return (original as (...a: unknown[]) => unknown)(p, ...rest);
      });

    it('at the open of a skill', () => {
      const skill = f.path('.rivumi/skills/review.md');
      failing('openSync', skill);
      assert.deepEqual(diags(loadRivumiProject(f.root)), [['rivumi.skill.file', 'error', WORDS, skill]]);
    });

    it('at a read once the skill is open', () => {
      const skill = f.path('.rivumi/skills/review.md');
      const opened = new Set<number>();
      fsPatch.replace('openSync', (original) => (p: fs.PathLike, ...rest: unknown[]) => {
        const fd = (original as (...a: unknown[]) => number)(p, ...rest);
        if (path.resolve(String(p)) === skill) opened.add(fd);
        return fd;
      });
      fsPatch.replace('readSync', (original) => (fd: number, ...rest: unknown[]) => {
        if (opened.has(fd)) throw odd('read', skill);
        return (original as (...a: unknown[]) => number)(fd, ...rest);
      });
      fsPatch.replace('closeSync', (original) => (fd: number) => {
        opened.delete(fd);
        return (original as (fd: number) => void)(fd);
      });
      assert.deepEqual(diags(loadRivumiProject(f.root)), [['rivumi.skill.file', 'error', WORDS, skill]]);
    });

    it('at the is_symlink() Rivumi asks before the open', () => {
      const skill = f.path('.rivumi/skills/review.md');
      denyOpen(skill);
      failing('lstatSync', skill);
      assert.deepEqual(diags(loadRivumiProject(f.root)), [['rivumi.skill.file', 'error', WORDS, skill]]);
    });

    it('at the read of a covered file for the content hash', () => {
      const tips = f.path('.rivumi/plugins/pack/tips.md');
      failing('openSync', tips);
      assert.deepEqual(
        loadRivumiProject(f.root).plugins[0]?.hashes?.notCovered.map((n) => n.message),
        [
          `plugin skill file '.rivumi/plugins/pack/tips.md' cannot be read (${WORDS}), so Skillgate cannot hash what Rivumi loads: it cannot be covered by trust`,
        ],
      );
    });
  });

  describe('rivumi plugin install (plugins.py install_project_plugin_manifest)', () => {
    beforeEach(() => {
      f.write('package/review.md', '---\nname: review\n---\nInstalled skill body.\n');
      f.write('package/plugin.json', JSON.stringify({ name: 'review-pack', skills: [{ path: 'review.md' }] }));
      f.mkdir('repo');
    });

    it('refuses a manifest it may not open with the PermissionError read_text raises', () => {
      const manifest = f.path('package/plugin.json');
      denyOpen(manifest);
      assert.deepEqual(installPlugin(manifest, f.path('repo')), {
        ok: false,
        message: `[Errno 13] Permission denied: '${manifest}'`,
      });
    });

    it('refuses a manifest in a folder it may not search with the PermissionError is_symlink raises', () => {
      const manifest = f.path('package/plugin.json');
      denyDirectory(fsPatch, f.path('package'));
      assert.deepEqual(installPlugin(manifest, f.path('repo')), {
        ok: false,
        message: `[Errno 13] Permission denied: '${manifest}'`,
      });
    });

    it('refuses to install under a .rivumi it may not search with the PermissionError mkdir raises, not "must be a directory"', () => {
      f.mkdir('repo/.rivumi/plugins');
      denyDirectory(fsPatch, f.path('repo/.rivumi'), 'mode600');
      // `destination.mkdir(parents=True, exist_ok=True)`: os.mkdir is refused, and so is the is_dir() it then asks.
      assert.deepEqual(installPlugin(f.path('package/plugin.json'), f.path('repo')), {
        ok: false,
        message: `[Errno 13] Permission denied: '${f.path('repo/.rivumi/plugins')}'`,
      });
    });

    it('refuses a skill it may not read in Python’s words, nothing installed', () => {
      const skill = f.path('package/review.md');
      denyOpen(skill);
      assert.deepEqual(installPlugin(f.path('package/plugin.json'), f.path('repo')), {
        ok: false,
        message: `plugin skill file could not be read: review.md ([Errno 13] Permission denied: '${skill}'); nothing was installed`,
      });
      assert.deepEqual(fs.readdirSync(f.path('repo')), []);
    });
  });
});
