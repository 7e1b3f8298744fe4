import { strict as assert } from 'node:assert';
import { loadRivumiProject } from '../../src/core/systems/rivumi/load';
import { Fixture } from './helpers/fixture';
import { fsPatcher } from './helpers/fsPatch';
import { denyDirectory, permissionDenied } from './helpers/deniedDirectory';

/**
 * `.rivumi`, `.rivumi/skills`, `.rivumi/plugins` or `.rivumi/hooks.json` this user may not read
 * (rivumi.md §2, §3.2, §4.4, §5.4; upstream skills.py `_load_skills_directory`, plugins.py
 * `load_project_plugins`, hooks.py `load_project_hook_config`). Rivumi
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

  it('fails the skill load at .rivumi/skills and the hook load at hooks.json when .rivumi may not be searched (mode 000), in Python’s words', () => {
    denyDirectory(fsPatch, f.path('.rivumi'));
    const p = loadRivumiProject(f.root);
    const skills = f.path('.rivumi/skills');
    const plugins = f.path('.rivumi/plugins');
    // hooks.py: `if path.exists():` stats hooks.json, and the stat is what is refused, whether or not the file is there.
    const hooks = f.path('.rivumi/hooks.json');
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
      [
        'rivumi.path-unreadable',
        'error',
        `[Errno 13] Permission denied: '${hooks}' (Rivumi's hook load fails on it as this user; run as a user who may read it, Rivumi loads what is there, which Skillgate cannot show)`,
        hooks,
      ],
    ]);
    assert.equal(p.skillLoad?.file, skills);
    // H1 comes before the plugin manifests (H2): hooks.json is what ends the hook load.
    assert.equal(p.hookLoad?.file, hooks);
    assert.equal(p.hooksFile, undefined);
  });

  it('fails the hook load at a hooks.json it may not open, in Python’s words, not as a file of the wrong kind', () => {
    const hooks = f.write('.rivumi/hooks.json', JSON.stringify({ pre_compact: [{ command: ['true'] }] }));
    // hooks.py: `path.exists()` and `path.is_file()` answer (the directory may be searched), `path.open("rb")` is refused.
    fsPatch.replace('openSync', (original) => (p: string, ...rest: unknown[]) => {
      if (p === hooks) throw permissionDenied('open', p);
      return (original as (...a: unknown[]) => unknown)(p, ...rest);
    });
    const p = loadRivumiProject(f.root);
    assert.deepEqual(diags(p), [
      [
        'rivumi.path-unreadable',
        'error',
        `[Errno 13] Permission denied: '${hooks}' (Rivumi's hook load fails on it as this user; run as a user who may read it, Rivumi loads what is there, which Skillgate cannot show)`,
        hooks,
      ],
    ]);
    assert.equal(p.hookLoad?.file, hooks);
    assert.equal(p.hooksFile?.valid, false);
    assert.equal(p.skillLoad, null);
  });

  it('loads everything from a .rivumi it may search but not list (mode 711), as Rivumi does', () => {
    f.write('.rivumi/hooks.json', JSON.stringify({ pre_compact: [{ command: ['true'] }] }));
    const dir = f.path('.rivumi');
    // Rivumi never lists .rivumi itself: every path in it is built by name (rivumi.md §2).
    fsPatch.replace('readdirSync', (original) => (p: string, ...rest: unknown[]) => {
      if (p === dir) throw permissionDenied('scandir', p);
      return (original as (...a: unknown[]) => unknown)(p, ...rest);
    });
    const p = loadRivumiProject(f.root);
    assert.deepEqual(diags(p), []);
    assert.deepEqual(
      p.skills.map((s) => s.name),
      ['review'],
    );
    assert.deepEqual(
      p.plugins.map((pl) => pl.name),
      ['pack'],
    );
    assert.equal(p.hooksFile?.valid, true);
    assert.equal(p.hookLoad, null);
  });

  it('says that Rivumi skips a .rivumi/skills it may not list, and keeps the skill load going', () => {
    denyDirectory(fsPatch, f.path('.rivumi/skills'));
    const p = loadRivumiProject(f.root);
    assert.deepEqual(diags(p), [
      [
        'rivumi.path-unreadable',
        'error',
        // os.scandir's PermissionError, which Python's glob swallows: Skillgate says it in Python's words.
        `.rivumi/skills cannot be listed ([Errno 13] Permission denied: '${f.path('.rivumi/skills')}'): Rivumi's glob skips it without a word, so run as this user it loads nothing from it; run as a user who may read it, Rivumi loads what is there, which Skillgate cannot show`,
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
