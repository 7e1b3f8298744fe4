import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { runCli } from './helpers/runCli';
import { Fixture } from './helpers/fixture';
import { writeEvaProject } from './helpers/evaFixture';

/**
 * A workspace folder named through a symbolic link (`--workspace link`, `link -> repo`):
 * the index keeps that spelling for every agent's items. Eva decides under the folder's
 * canonical path (its project root, project.ts) and once reported its items there too, so
 * the lock held none of them. The lock must pin every bundle of the folder (README "The lock
 * grants nothing": it pins every bundle of the repository), or `check --lock` passes a
 * changed Eva adapter that Eva registers.
 */
describe('skillgate.lock: a workspace folder named through a symbolic link', () => {
  let f: Fixture;
  beforeEach(() => {
    f = new Fixture();
    writeEvaProject(f, 'repo');
    f.write(
      'repo/.rivumi/plugins/pack.json',
      JSON.stringify({ name: 'pack', description: 'A pack.', skills: [{ path: 'pack.md' }] }),
    );
    f.write('repo/.rivumi/plugins/pack.md', '---\nname: pack-skill\ndescription: A skill.\n---\nDo the thing.\n');
    f.symlink(f.path('repo'), 'link');
  });
  afterEach(() => f.remove());

  const cli = (...args: string[]) =>
    runCli(
      [...args, '--workspace', f.path('link'), '--no-user', '--no-cache'],
      { SKILLGATE_STATE_DIR: f.path('state') },
      f.root,
    );
  const pinned = () =>
    (
      JSON.parse(fs.readFileSync(f.path('repo/skillgate.lock'), 'utf8')) as {
        bundles: { path: string; system: string }[];
      }
    ).bundles.map((b) => `${b.system} ${b.path}`);

  it('lock pins the Eva bundles too, by their workspace-relative path', async () => {
    const r = await cli('lock');
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(pinned(), [
      'rivumi .rivumi/plugins/pack.json',
      'eva config/adapters/review.yaml',
      'eva config/capabilities/lint.yaml',
    ]);
  });

  it('check --lock fails on an Eva adapter changed after the lock', async () => {
    assert.equal((await cli('lock')).code, 0);
    assert.equal((await cli('check', '--lock')).code, 0);
    fs.appendFileSync(f.path('repo/config/adapters/review.yaml'), '# changed\n');
    const r = await cli('check', '--lock');
    assert.equal(r.code, 1, r.out);
    assert.match(r.err, /changed: Eva-CLI bundle review-skill \(config\/adapters\/review\.yaml\)/);
  });
});
