import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import nodeFs from 'node:fs';
import * as path from 'node:path';
import { installPlugin } from '../../src/core/systems/rivumi/install';
import { loadRivumiProject } from '../../src/core/systems/rivumi/load';
import { run } from '../../src/cli/main';
import { Fixture } from './helpers/fixture';

describe('Rivumi plugin install, atomic (rivumi.md §5.6, §9.1 cases 11-12)', () => {
  let f: Fixture;
  beforeEach(() => {
    f = new Fixture();
    f.write('package/review.md', '---\nname: review\n---\nInstalled skill body.');
    f.write(
      'package/plugin.json',
      JSON.stringify({
        name: 'review-pack',
        description: 'Review pack',
        discovery: { keywords: ['review'], homepage: 'https://example.com/review-pack', license: 'Apache-2.0' },
        skills: [{ path: 'review.md' }],
      }),
    );
    f.mkdir('repo');
  });
  afterEach(() => f.remove());

  it('installs the manifest and its skill, loadable as review-pack.review', () => {
    const r = installPlugin(f.path('package/plugin.json'), f.path('repo'));
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.equal(r.plugin.name, 'review-pack');
    assert.equal((r.plugin.discovery as { homepage: string }).homepage, 'https://example.com/review-pack');
    const written = JSON.parse(fs.readFileSync(f.path('repo/.rivumi/plugins/review-pack.json'), 'utf8'));
    assert.deepEqual(written.discovery.keywords, ['review']);
    assert.equal(written.discovery.license, 'Apache-2.0');
    assert.ok(fs.readFileSync(f.path('repo/.rivumi/plugins/review.md'), 'utf8').endsWith('Installed skill body.'));
    assert.equal(loadRivumiProject(f.path('repo')).plugins[0]?.skills[0]?.qualifiedName, 'review-pack.review');
    assert.equal(
      fs.readFileSync(f.path('repo/.rivumi/plugins/review-pack.json'), 'utf8'),
      `${JSON.stringify({ description: 'Review pack', discovery: { homepage: 'https://example.com/review-pack', keywords: ['review'], license: 'Apache-2.0' }, name: 'review-pack', skills: [{ path: 'review.md' }] }, null, 2)}\n`,
    );
  });

  it('refuses a second install without --overwrite', () => {
    assert.ok(installPlugin(f.path('package/plugin.json'), f.path('repo')).ok);
    const r = installPlugin(f.path('package/plugin.json'), f.path('repo'));
    assert.deepEqual(r, { ok: false, message: 'plugin already installed: review-pack' });
  });

  it('writes nothing when the second skill collides (Rivumi would leave the first behind)', () => {
    f.write('package/second.md', 'Second.');
    f.write(
      'package/plugin.json',
      JSON.stringify({ name: 'pair', skills: [{ path: 'review.md' }, { path: 'second.md' }] }),
    );
    f.write('repo/.rivumi/plugins/second.md', 'existing');
    const r = installPlugin(f.path('package/plugin.json'), f.path('repo'));
    assert.deepEqual(r, { ok: false, message: 'plugin skill already exists: second.md' });
    assert.deepEqual(fs.readdirSync(f.path('repo/.rivumi/plugins')), ['second.md']);
  });

  it('rolls everything back when the installed plugin cannot be loaded', () => {
    f.write('repo/.rivumi/plugins/aaa-broken.json', '{"name": "broken", "surprise": true}');
    const r = installPlugin(f.path('package/plugin.json'), f.path('repo'));
    assert.ok(!r.ok);
    assert.match(r.message, /^installed plugin could not be loaded: review-pack/);
    assert.deepEqual(fs.readdirSync(f.path('repo/.rivumi/plugins')), ['aaa-broken.json']);
  });

  it('restores overwritten files when an overwrite fails', () => {
    const first = installPlugin(f.path('package/plugin.json'), f.path('repo'));
    assert.ok(first.ok, first.ok ? '' : first.message);
    const before = fs.readFileSync(f.path('repo/.rivumi/plugins/review.md'), 'utf8');
    f.write('package/review.md', '---\nname: review\n---\nNew body.');
    f.write('repo/.rivumi/plugins/aaa-broken.json', '{"name": "broken", "surprise": true}');
    const r = installPlugin(f.path('package/plugin.json'), f.path('repo'), { overwrite: true });
    assert.ok(!r.ok);
    assert.equal(fs.readFileSync(f.path('repo/.rivumi/plugins/review.md'), 'utf8'), before);
    assert.deepEqual(fs.readdirSync(f.path('repo/.rivumi/plugins')).sort(), [
      'aaa-broken.json',
      'review-pack.json',
      'review.md',
    ]);
  });

  it("uses --name, and reports Rivumi's messages for a bad manifest", () => {
    const r = installPlugin(f.path('package/plugin.json'), f.path('repo'), { name: 'renamed' });
    assert.ok(r.ok && r.plugin.name === 'renamed');
    f.write('package/bad.json', '[1]');
    assert.deepEqual(installPlugin(f.path('package/bad.json'), f.path('repo')), {
      ok: false,
      message: 'plugin manifest must be an object',
    });
    assert.deepEqual(installPlugin(f.path('package/missing.json'), f.path('repo')), {
      ok: false,
      message: 'plugin manifest must be a regular file',
    });
    f.write('package/escape.json', JSON.stringify({ name: 'esc', skills: [{ path: '../outside.md' }] }));
    const esc = installPlugin(f.path('package/escape.json'), f.path('repo'));
    assert.ok(!esc.ok && esc.message.startsWith('project plugin manifest is invalid: escape.json: '));
  });

  it('lands untrusted through the CLI, even where an older copy was trusted, and says Rivumi loads it', async () => {
    const io = (out: string[]) => ({
      out: (t: string) => out.push(t),
      err: (t: string) => out.push(t),
      env: { SKILLGATE_STATE_DIR: f.path('state') },
      cwd: f.path('repo'),
    });
    const out: string[] = [];
    assert.equal(await run(['install', f.path('package/plugin.json'), '--no-user'], io(out)), 0);
    assert.match(
      out.join(''),
      /Installed plugin review-pack at \.rivumi\/plugins\/review-pack\.json\. It is not reviewed, and Rivumi loads it from now on/,
    );
    const review: string[] = [];
    await run(['review', 'review-pack', '--json', '--no-user'], io(review));
    const token = JSON.parse(review.join('')).reviewToken as string;
    assert.equal(await run(['trust', 'review-pack', token, '--no-user'], io([])), 0);
    assert.equal(await run(['install', f.path('package/plugin.json'), '--overwrite', '--no-user'], io([])), 0);
    const list: string[] = [];
    await run(['list', '--json', '--no-user'], io(list));
    const item = JSON.parse(list.join('')).items.find((i: { name: string }) => i.name === 'review-pack');
    assert.deepEqual(
      [item.trust, item.enabled, item.decision, item.reasons],
      ['not-reviewed', null, 'registered', ['loaded_unreviewed', 'not_reviewed']],
    );
  });

  it('takes a relative MANIFEST from the working directory without removing "lnk/.." before the link is followed', async () => {
    // Rivumi's Path(MANIFEST).resolve() follows package/lnk first: lnk/../plugin.json is other/plugin.json.
    f.mkdir('other/sub');
    f.write('other/plugin.json', JSON.stringify({ name: 'other-pack' }));
    f.symlink('../other/sub', 'package/lnk');
    const out: string[] = [];
    const io = {
      out: (t: string) => out.push(t),
      err: (t: string) => out.push(t),
      env: { SKILLGATE_STATE_DIR: f.path('state') },
      cwd: f.path('repo'),
    };
    assert.equal(await run(['install', '../package/lnk/../plugin.json', '--no-user'], io), 0, out.join(''));
    assert.match(out.join(''), /Installed plugin other-pack at \.rivumi\/plugins\/other-pack\.json\./);
  });

  it('does not claim the installed plugin is untrusted when its old trust record could not be dropped (exit 1)', async () => {
    fs.mkdirSync(f.path('state'), { mode: 0o700 });
    fs.writeFileSync(f.path('state/state.json'), 'garbage', { mode: 0o600 });
    const err: string[] = [];
    const code = await run(['install', f.path('package/plugin.json'), '--no-user'], {
      out: (t) => err.push(t),
      err: (t) => err.push(t),
      env: { SKILLGATE_STATE_DIR: f.path('state') },
      cwd: f.path('repo'),
    });
    assert.equal(code, 1);
    assert.match(
      err.join(''),
      /Installed plugin review-pack at \.rivumi\/plugins\/review-pack\.json, but its old trust record could not be dropped: The trust store is unavailable/,
    );
  });

  describe('destinations are resolved on disk, never through a symbolic link', () => {
    /** Every file and directory under `dir`, so a test can show nothing was ever created there. */
    const tree = (dir: string): string[] => fs.readdirSync(dir, { recursive: true }).map(String).sort();
    const withSkillIn = (sub: string) => {
      f.write(`package/${sub}/s.md`, '---\nname: s\n---\nSkill.');
      f.write('package/plugin.json', JSON.stringify({ name: 'linked', skills: [{ path: `${sub}/s.md` }] }));
    };

    it('refuses a skill whose directory is a link planted by the repository, and never creates a file outside', () => {
      withSkillIn('skills');
      f.mkdir('outside');
      f.symlink('../../../outside', 'repo/.rivumi/plugins/skills');
      // Watch the target for the whole install: not even a temporary file may appear there.
      const seen: string[] = [];
      const watcher = fs.watch(f.path('outside'), (_event, name) => seen.push(String(name)));
      try {
        const r = installPlugin(f.path('package/plugin.json'), f.path('repo'));
        assert.deepEqual(r, {
          ok: false,
          message:
            'plugin skill destination skills/s.md: .rivumi/plugins/skills is a symbolic link; nothing was installed',
        });
      } finally {
        watcher.close();
      }
      assert.deepEqual(tree(f.path('outside')), []);
      assert.deepEqual(seen, []);
      assert.deepEqual(tree(f.path('repo/.rivumi/plugins')), ['skills']);
    });

    it('refuses a link deeper in the skill path, and a linked .rivumi', () => {
      withSkillIn('a/b');
      f.mkdir('outside');
      f.mkdir('repo/.rivumi/plugins/a');
      f.symlink('../../../../outside', 'repo/.rivumi/plugins/a/b');
      assert.deepEqual(installPlugin(f.path('package/plugin.json'), f.path('repo')), {
        ok: false,
        message: 'plugin skill destination a/b/s.md: .rivumi/plugins/a/b is a symbolic link; nothing was installed',
      });
      f.mkdir('repo2');
      f.mkdir('outside2');
      f.symlink('../outside2', 'repo2/.rivumi');
      assert.deepEqual(installPlugin(f.path('package/plugin.json'), f.path('repo2')), {
        ok: false,
        message: '.rivumi is a symbolic link; nothing was installed',
      });
      assert.deepEqual([tree(f.path('outside')), tree(f.path('outside2'))], [[], []]);
    });

    it('never writes through a link at a destination: without --overwrite it is taken, with --overwrite it is replaced', () => {
      // Rivumi tests `target.exists()`, which follows the link: a dangling one is free to it, and its
      // write creates the file where the link points. Here a link is an existing file, and is replaced.
      withSkillIn('sk');
      f.mkdir('outside');
      const victim = f.write('outside/victim.json', 'keep\n');
      f.mkdir('repo/.rivumi/plugins/sk');
      f.symlink('../../../../outside/gone.md', 'repo/.rivumi/plugins/sk/s.md');
      assert.deepEqual(installPlugin(f.path('package/plugin.json'), f.path('repo')), {
        ok: false,
        message: 'plugin skill already exists: sk/s.md',
      });
      f.symlink('../../../outside/victim.json', 'repo/.rivumi/plugins/linked.json');
      const r = installPlugin(f.path('package/plugin.json'), f.path('repo'), { overwrite: true });
      assert.ok(r.ok, r.ok ? '' : r.message);
      assert.deepEqual(tree(f.path('outside')), ['victim.json']);
      assert.equal(fs.readFileSync(victim, 'utf8'), 'keep\n');
      for (const dest of ['linked.json', 'sk/s.md'])
        assert.ok(fs.lstatSync(f.path('repo/.rivumi/plugins', dest)).isFile(), `${dest} is a regular file`);
    });

    it('installs into a workspace reached through a link whose text has ".." after another link, as the kernel resolves it', () => {
      // wslink -> via/../ws, via -> d/e: the kernel reads "via/.." as d, so the workspace is d/ws.
      // A resolver that folds ".." in the text first would look for ./ws, which is not there.
      withSkillIn('sk');
      f.mkdir('d/e');
      f.mkdir('d/ws');
      f.symlink('d/e', 'via');
      f.symlink('via/../ws', 'wslink');
      const r = installPlugin(f.path('package/plugin.json'), f.path('wslink'));
      assert.ok(r.ok, r.ok ? '' : r.message);
      assert.deepEqual(tree(f.path('d/ws/.rivumi/plugins')), ['linked.json', 'sk', 'sk/s.md']);
      assert.equal(fs.existsSync(f.path('ws')), false);
    });

    it('creates missing skill directories itself and removes them again on rollback', () => {
      withSkillIn('x/y');
      f.write('repo/.rivumi/plugins/aaa-broken.json', '{"name": "broken", "surprise": true}');
      const r = installPlugin(f.path('package/plugin.json'), f.path('repo'));
      assert.ok(!r.ok);
      assert.deepEqual(tree(f.path('repo/.rivumi/plugins')), ['aaa-broken.json']);
      fs.rmSync(f.path('repo/.rivumi/plugins/aaa-broken.json'));
      const ok = installPlugin(f.path('package/plugin.json'), f.path('repo'));
      assert.ok(ok.ok, ok.ok ? '' : ok.message);
      assert.deepEqual(tree(f.path('repo/.rivumi/plugins')), ['linked.json', 'x', 'x/y', 'x/y/s.md']);
    });
  });

  describe('all files land or none (cli.md "install"), whatever fails', () => {
    type FsFault = 'openSync' | 'writeSync' | 'renameSync' | 'rmSync';
    const restores: (() => void)[] = [];
    /**
     * Makes one fs function fail with EIO whenever `when` says, as a full or failing disk
     * would, until the test ends. Patched on the module object, so the code under test
     * (and Node's own readFileSync and writeFileSync, which call through it) see it.
     */
    const inject = (name: FsFault, when: (args: unknown[]) => boolean): void => {
      const target = nodeFs as unknown as Record<FsFault, (...args: unknown[]) => unknown>;
      const real = target[name];
      target[name] = (...args: unknown[]) => {
        if (when(args)) throw Object.assign(new Error('EIO: i/o error (injected)'), { code: 'EIO' });
        return real.apply(nodeFs, args);
      };
      restores.push(() => (target[name] = real));
    };
    // Last patch first: each restore puts back the function the one before it saw.
    afterEach(() =>
      restores
        .splice(0)
        .reverse()
        .forEach((restore) => restore()),
    );

    const plugins = () => f.path('repo/.rivumi/plugins');
    /** Every file and directory under the plugins directory with its content: the user's files, exactly. */
    const contents = (): Record<string, string> =>
      Object.fromEntries(
        fs
          .readdirSync(plugins(), { recursive: true })
          .map(String)
          .sort()
          .map((rel) => {
            const p = path.join(plugins(), rel);
            return [rel, fs.lstatSync(p).isDirectory() ? '(directory)' : fs.readFileSync(p, 'utf8')];
          }),
      );
    const arg = (args: unknown[], i: number) => String(args[i]);
    const cli = async (args: string[]) => {
      const out: string[] = [];
      const code = await run([...args, '--no-user'], {
        out: (t) => out.push(t),
        err: (t) => out.push(t),
        env: { SKILLGATE_STATE_DIR: f.path('state') },
        cwd: f.path('repo'),
      });
      return { code, text: out.join('') };
    };

    /** review-pack installed once; the package then changes, so an --overwrite has something to lose. */
    const installedOnce = (): Record<string, string> => {
      const first = installPlugin(f.path('package/plugin.json'), f.path('repo'));
      assert.ok(first.ok, first.ok ? '' : first.message);
      f.write('package/review.md', '---\nname: review\n---\nNew body.');
      f.write('package/extra/more.md', '---\nname: more\n---\nMore.');
      f.write(
        'package/plugin.json',
        JSON.stringify({ name: 'review-pack', skills: [{ path: 'review.md' }, { path: 'extra/more.md' }] }),
      );
      return contents();
    };

    it('refuses a directory at the manifest destination, even with --overwrite, and keeps every file (exit 1)', async () => {
      f.write('package/p.json', JSON.stringify({ name: 'good', skills: [{ path: 's.md' }] }));
      f.write('package/s.md', '---\nname: s\n---\nNew.');
      f.write('repo/.rivumi/plugins/good.json/inside', 'kept');
      f.write('repo/.rivumi/plugins/s.md', 'OLD');
      const before = contents();
      assert.deepEqual(installPlugin(f.path('package/p.json'), f.path('repo'), { overwrite: true }), {
        ok: false,
        message: 'plugin manifest destination good.json is a directory; nothing was installed',
      });
      const r = await cli(['install', f.path('package/p.json'), '--overwrite']);
      assert.deepEqual(r, {
        code: 1,
        text: 'skillgate: plugin manifest destination good.json is a directory; nothing was installed\n',
      });
      assert.deepEqual(contents(), before);
    });

    it('refuses a named pipe at the manifest destination: only a file or a link is replaced', () => {
      f.write('package/p.json', JSON.stringify({ name: 'piped' }));
      f.mkdir('repo/.rivumi/plugins');
      execFileSync('mkfifo', [f.path('repo/.rivumi/plugins/piped.json')]);
      assert.deepEqual(installPlugin(f.path('package/p.json'), f.path('repo'), { overwrite: true }), {
        ok: false,
        message: 'plugin manifest destination piped.json is not a regular file; nothing was installed',
      });
      assert.ok(fs.lstatSync(f.path('repo/.rivumi/plugins/piped.json')).isFIFO());
    });

    const failurePoints: [string, FsFault, (args: unknown[]) => boolean][] = [
      // Any write of file content during an install is the first skill's temporary copy.
      ['writing the first skill half-way', 'writeSync', () => true],
      ['renaming the first skill into place', 'renameSync', (a) => /review\.md\.skillgate-[0-9a-f]+$/.test(arg(a, 0))],
      ['moving the old manifest aside', 'renameSync', (a) => arg(a, 1).includes('review-pack.json.skillgate-backup-')],
      [
        'renaming the new manifest into place, after both skills landed',
        'renameSync',
        (a) => /review-pack\.json\.skillgate-[0-9a-f]+$/.test(arg(a, 0)) && arg(a, 1).endsWith('review-pack.json'),
      ],
    ];
    for (const [step, name, when] of failurePoints)
      it(`leaves every file as it was when ${step} fails`, () => {
        const before = installedOnce();
        inject(name, when);
        const r = installPlugin(f.path('package/plugin.json'), f.path('repo'), { overwrite: true });
        assert.deepEqual(contents(), before);
        assert.deepEqual(r, { ok: false, message: 'install failed: EIO: i/o error (injected); nothing was installed' });
      });

    it('restores what it can when the rollback itself fails, says where the old file is, and never throws', () => {
      const before = installedOnce();
      inject(
        'renameSync',
        (a) => /review-pack\.json\.skillgate-[0-9a-f]+$/.test(arg(a, 0)) && arg(a, 1).endsWith('.json'),
      );
      inject('renameSync', (a) => arg(a, 0).includes('review.md.skillgate-backup-'));
      const r = installPlugin(f.path('package/plugin.json'), f.path('repo'), { overwrite: true });
      assert.ok(!r.ok);
      const kept = Object.keys(contents()).find((k) => k.startsWith('review.md.skillgate-backup-')) as string;
      assert.equal(
        r.message,
        `install failed: EIO: i/o error (injected); the install could not be fully undone: the previous .rivumi/plugins/review.md is kept at .rivumi/plugins/${kept} (EIO: i/o error (injected))`,
      );
      const after = contents();
      assert.equal(after[kept], before['review.md']);
      delete after[kept];
      delete before['review.md'];
      delete after['review.md'];
      assert.deepEqual(after, before);
    });

    it('keeps a complete install when an old copy cannot be deleted afterwards', () => {
      installedOnce();
      inject('rmSync', (a) => arg(a, 0).includes('review-pack.json.skillgate-backup-'));
      const r = installPlugin(f.path('package/plugin.json'), f.path('repo'), { overwrite: true });
      assert.ok(r.ok, r.ok ? '' : r.message);
      assert.equal(
        fs.readFileSync(f.path('repo/.rivumi/plugins/review.md'), 'utf8'),
        '---\nname: review\n---\nNew body.',
      );
      assert.deepEqual(
        Object.keys(contents()).map((k) => k.replace(/-backup-[0-9a-f]+$/, '-backup')),
        ['extra', 'extra/more.md', 'review-pack.json', 'review-pack.json.skillgate-backup', 'review.md'],
      );
    });

    it('refuses a skill that cannot be read, in its own words, and creates nothing (exit 1)', async () => {
      inject('openSync', (a) => arg(a, 0) === f.path('package/review.md'));
      assert.deepEqual(installPlugin(f.path('package/plugin.json'), f.path('repo')), {
        ok: false,
        message: 'plugin skill file could not be read: review.md (EIO: i/o error (injected)); nothing was installed',
      });
      assert.deepEqual(await cli(['install', f.path('package/plugin.json')]), {
        code: 1,
        text: 'skillgate: plugin skill file could not be read: review.md (EIO: i/o error (injected)); nothing was installed\n',
      });
      assert.deepEqual(fs.readdirSync(f.path('repo')), []);
    });
  });

  describe("the install name follows Python's truth value (rivumi.md §5.6 step 2)", () => {
    it('takes the file stem for every name Python holds false: [], {}, "", 0, 0.0, false, null', () => {
      for (const falsy of ['[]', '{}', '""', '0', '0.0', 'false', 'null']) {
        f.write('package/stem-pack.json', `{"name": ${falsy}, "skills": [{"path": "review.md"}]}`);
        const r = installPlugin(f.path('package/stem-pack.json'), f.path('repo'), { overwrite: true });
        assert.ok(r.ok && r.plugin.name === 'stem-pack', `${falsy}: ${r.ok ? r.plugin.name : r.message}`);
      }
    });

    it('keeps NaN, which Python holds true, and refuses it as not a string', () => {
      f.write('package/stem-pack.json', '{"name": NaN}');
      assert.deepEqual(installPlugin(f.path('package/stem-pack.json'), f.path('repo')), {
        ok: false,
        message: 'project plugin manifest is invalid: stem-pack.json: name: Input should be a valid string',
      });
    });
  });
});
