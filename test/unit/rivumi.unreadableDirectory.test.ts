import { strict as assert } from 'node:assert';
import { loadRivumiProject } from '../../src/core/systems/rivumi/load';
import { Fixture } from './helpers/fixture';
import { fsPatcher } from './helpers/fsPatch';
import { denyDirectory } from './helpers/deniedDirectory';

/**
 * `.rivumi`, `.rivumi/skills` or `.rivumi/plugins` this user may not read (rivumi.md §2, §3.2,
 * §5.4; upstream skills.py `_load_skills_directory`, plugins.py `load_project_plugins`). Rivumi
 * run as the same user fails or skips it; run as one who may read it, it loads what is there.
 * Skillgate must say so, never read it as absent.
 */
describe('Rivumi directories this user may not read', () => {
  const fsPatch = fsPatcher();
  let f: Fixture;
  beforeEach(() => {
    f = new Fixture();
    f.write('.rivumi/skills/review.md', '# Review\n\nReview the change.\n');
    f.write('.rivumi/plugins/pack.json', JSON.stringify({ name: 'pack', skills: [{ path: 'pack/tips.md' }] }));
    f.write('.rivumi/plugins/pack/tips.md', '# Tips\n\nSome tips.\n');
  });
  afterEach(() => f.remove());
  const diags = (p: ReturnType<typeof loadRivumiProject>) =>
    p.diagnostics.map((d) => [d.code, d.severity, d.message, d.file]);

  it('fails the skill load at .rivumi/skills when .rivumi may not be searched (mode 000), in Python’s words', () => {
    denyDirectory(fsPatch, f.path('.rivumi'));
    const p = loadRivumiProject(f.root);
    const skills = f.path('.rivumi/skills');
    const plugins = f.path('.rivumi/plugins');
    assert.deepEqual(diags(p), [
      [
        'rivumi.path-unreadable',
        'error',
        `[Errno 13] Permission denied: '${skills}' (Rivumi's skill load fails on it as this user; run as a user who may read it, Rivumi loads what is there, which Skillgate cannot show)`,
        skills,
      ],
      [
        'rivumi.path-unreadable',
        'error',
        `[Errno 13] Permission denied: '${plugins}' (Rivumi's plugin load fails on it as this user; run as a user who may read it, Rivumi loads what is there, which Skillgate cannot show)`,
        plugins,
      ],
    ]);
    assert.equal(p.skillLoad?.file, skills);
  });

  it('says that Rivumi skips a .rivumi/skills it may not list, and keeps the skill load going', () => {
    denyDirectory(fsPatch, f.path('.rivumi/skills'));
    const p = loadRivumiProject(f.root);
    assert.deepEqual(diags(p), [
      [
        'rivumi.path-unreadable',
        'error',
        `.rivumi/skills cannot be listed (EACCES: permission denied): Rivumi's glob skips it without a word, so run as this user it loads nothing from it; run as a user who may read it, Rivumi loads what is there, which Skillgate cannot show`,
        f.path('.rivumi/skills'),
      ],
    ]);
    assert.equal(p.skillLoad, null);
    assert.deepEqual(
      p.plugins.flatMap((pl) => pl.skills.map((s) => [s.qualifiedName, s.state])),
      [['pack.tips', 'valid']],
    );
  });

  it('says that Rivumi skips a .rivumi/plugins it may not list', () => {
    denyDirectory(fsPatch, f.path('.rivumi/plugins'));
    const p = loadRivumiProject(f.root);
    assert.deepEqual(
      diags(p).map(([code, , , file]) => [code, file]),
      [['rivumi.path-unreadable', f.path('.rivumi/plugins')]],
    );
    assert.deepEqual(p.plugins, []);
    assert.deepEqual(
      p.skills.map((s) => s.name),
      ['review'],
    );
  });
});
