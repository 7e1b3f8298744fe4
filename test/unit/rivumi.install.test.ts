import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
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
});
