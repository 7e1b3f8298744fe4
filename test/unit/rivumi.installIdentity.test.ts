import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { installPlugin } from '../../src/core/systems/rivumi/install';
import { run } from '../../src/cli/main';
import { Fixture } from './helpers/fixture';

/**
 * Plugin names need not be unique across manifests (rivumi.md §5.4): another manifest may
 * declare the installed name. What install reports, and what it drops trust in, is the
 * manifest it wrote, never the first plugin that happens to carry the same name.
 */
describe('Rivumi plugin install: the installed plugin is the manifest written, not the first of its name', () => {
  let f: Fixture;
  beforeEach(() => {
    f = new Fixture();
    f.write('package/review.md', '---\nname: review\n---\nInstalled skill body.');
    f.write('package/plugin.json', JSON.stringify({ name: 'x', skills: [{ path: 'review.md' }] }));
    f.mkdir('repo');
  });
  afterEach(() => f.remove());

  it('answers with the written manifest when an earlier manifest declares the same name', () => {
    f.write('repo/.rivumi/plugins/aaa.json', JSON.stringify({ name: 'x', description: 'decoy' }));
    const r = installPlugin(f.path('package/plugin.json'), f.path('repo'));
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.equal(r.plugin.file, f.path('repo/.rivumi/plugins/x.json'));
    assert.equal(r.plugin.source, '.rivumi/plugins/x.json');
  });

  it('refuses, and rolls back, when only another manifest of that name loads (the written one is past the cap)', () => {
    f.write('repo/.rivumi/plugins/a00.json', JSON.stringify({ name: 'x' }));
    for (let i = 1; i < 16; i++) f.write(`repo/.rivumi/plugins/a${String(i).padStart(2, '0')}.json`, '{}');
    const r = installPlugin(f.path('package/plugin.json'), f.path('repo'));
    assert.deepEqual(r, { ok: false, message: 'installed plugin could not be loaded: x; nothing was installed' });
    assert.ok(!fs.existsSync(f.path('repo/.rivumi/plugins/x.json')));
    assert.ok(!fs.existsSync(f.path('repo/.rivumi/plugins/review.md')));
  });

  it('drops trust in the reinstalled manifest through the CLI, and leaves the other manifest of that name trusted', async () => {
    const io = (out: string[]) => ({
      out: (t: string) => out.push(t),
      err: (t: string) => out.push(t),
      env: { SKILLGATE_STATE_DIR: f.path('state') },
      cwd: f.path('repo'),
    });
    const trustFile = async (id: string) => {
      const review: string[] = [];
      await run(['review', id, '--json', '--no-user'], io(review));
      assert.equal(await run(['trust', id, JSON.parse(review.join('')).reviewToken, '--no-user'], io([])), 0);
    };
    const items = async () => {
      const list: string[] = [];
      await run(['list', '--json', '--no-user'], io(list));
      return JSON.parse(list.join('')).items as { id: string; path: string; trust: string | null }[];
    };
    assert.equal(await run(['install', f.path('package/plugin.json'), '--no-user'], io([])), 0);
    f.write('repo/.rivumi/plugins/aaa.json', JSON.stringify({ name: 'x', description: 'decoy' }));
    for (const i of (await items()).filter((i) => i.trust !== null)) await trustFile(i.id);
    const out: string[] = [];
    assert.equal(await run(['install', f.path('package/plugin.json'), '--overwrite', '--no-user'], io(out)), 0);
    assert.match(out.join(''), /^Installed plugin x at \.rivumi\/plugins\/x\.json\. It is not reviewed/);
    const trustOf = Object.fromEntries((await items()).map((i) => [i.path, i.trust]));
    assert.equal(trustOf['.rivumi/plugins/x.json'], 'not-reviewed');
    assert.equal(trustOf['.rivumi/plugins/aaa.json'], 'trusted');
  });
});
