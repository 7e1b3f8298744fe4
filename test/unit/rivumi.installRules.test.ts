import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { installPlugin, sortedJson } from '../../src/core/systems/rivumi/install';
import { Fixture } from './helpers/fixture';

/**
 * `rivumi plugin install` step by step (rivumi.md §5.6): each refusal with Rivumi's
 * message and nothing written, the install name's precedence, and the manifest exactly
 * as Rivumi writes it.
 */
describe('Rivumi plugin install: each step of §5.6', () => {
  let f: Fixture;
  const tree = (dir: string): string[] =>
    fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String).sort() : [];
  const manifest = (value: unknown, name = 'plugin.json') => f.write(`package/${name}`, JSON.stringify(value));
  const install = (options: { name?: string; overwrite?: boolean } = {}, file = 'plugin.json') =>
    installPlugin(f.path(`package/${file}`), f.path('repo'), options);
  beforeEach(() => {
    f = new Fixture();
    f.write('package/s.md', 'Skill body.');
    f.mkdir('repo');
  });
  afterEach(() => f.remove());

  describe('reading the manifest (step 1)', () => {
    it('refuses a directory as the manifest', () => {
      f.mkdir('package/dir.json');
      assert.deepEqual(install({}, 'dir.json'), { ok: false, message: 'plugin manifest must be a regular file' });
    });
    it('accepts a manifest of exactly 65536 bytes and refuses 65537', () => {
      const body = '{"name": "big"}';
      f.write('package/plugin.json', body + ' '.repeat(65537 - body.length));
      assert.deepEqual(install(), { ok: false, message: 'plugin manifest exceeds size limit' });
      f.write('package/plugin.json', body + ' '.repeat(65536 - body.length));
      assert.ok(install().ok);
    });
    it('refuses invalid UTF-8, a BOM and broken JSON as not UTF-8 JSON, and null as not an object', () => {
      for (const bytes of [Buffer.from([0x7b, 0xff, 0x7d]), Buffer.from('\ufeff{}'), Buffer.from('{"name":')]) {
        f.write('package/plugin.json', bytes);
        assert.deepEqual(install(), { ok: false, message: 'plugin manifest must be UTF-8 JSON' });
      }
      for (const top of ['null', '5', '"review"', '[]']) {
        f.write('package/plugin.json', top);
        assert.deepEqual(install(), { ok: false, message: 'plugin manifest must be an object' }, top);
      }
      assert.deepEqual(tree(f.path('repo')), []);
    });
    it("reads JSON as Python does: NaN parses (then fails the schema), nesting past 512 levels is Python's RecursionError", () => {
      f.write('package/plugin.json', '{"name": "p", "description": NaN}');
      assert.deepEqual(install(), {
        ok: false,
        message: 'project plugin manifest is invalid: plugin.json: description: Input should be a valid string',
      });
      f.write('package/plugin.json', `{"name": "p", "hooks": {"x": ${'['.repeat(600)}${']'.repeat(600)}}}`);
      const deep = install();
      assert.ok(!deep.ok);
      assert.match(
        deep.message,
        /^plugin manifest cannot be parsed by Python's json: RecursionError: maximum recursion depth exceeded while decoding a JSON array/,
      );
    });
    it("refuses an integer of more than 4300 digits as Python's json does, writing nothing", () => {
      f.write('package/plugin.json', `{"name": "p", "hooks": {"x": ${'7'.repeat(4301)}}}`);
      assert.deepEqual(install(), {
        ok: false,
        message:
          "plugin manifest cannot be parsed by Python's json: ValueError: Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; use sys.set_int_max_str_digits() to increase the limit",
      });
      assert.deepEqual(tree(f.path('repo')), []);
    });
    it("follows a linked manifest: the link target's directory is the package", () => {
      f.write('real/s.md', 'Real skill.');
      f.write('real/plugin.json', JSON.stringify({ name: 'real', skills: [{ path: 's.md' }] }));
      f.symlink('../real/plugin.json', 'package/link.json');
      const r = install({}, 'link.json');
      assert.ok(r.ok, r.ok ? '' : r.message);
      assert.equal(fs.readFileSync(f.path('repo/.rivumi/plugins/s.md'), 'utf8'), 'Real skill.');
    });
  });

  describe('the install name (step 2)', () => {
    it('prefers --name, then a non-empty declared name, then the manifest stem', () => {
      manifest({ name: 'declared' });
      const named = install({ name: 'given' });
      assert.ok(named.ok && named.plugin.name === 'given');
      assert.equal(JSON.parse(fs.readFileSync(f.path('repo/.rivumi/plugins/given.json'), 'utf8')).name, 'given');
      const declared = install();
      assert.ok(declared.ok && declared.plugin.name === 'declared');
      manifest({ name: '' }, 'stem-pack.json');
      const stem = install({}, 'stem-pack.json');
      assert.ok(stem.ok && stem.plugin.name === 'stem-pack');
      manifest({}, 'absent.json');
      const absent = install({}, 'absent.json');
      assert.ok(absent.ok && absent.plugin.name === 'absent');
    });
    it('names the file by the stripped name and writes the name as given', () => {
      manifest({ name: ' spaced ', discovery: { keywords: [' k '] } });
      const r = install();
      assert.ok(r.ok && r.plugin.name === 'spaced');
      const written = JSON.parse(fs.readFileSync(f.path('repo/.rivumi/plugins/spaced.json'), 'utf8'));
      assert.deepEqual([written.name, written.discovery.keywords], [' spaced ', [' k ']]);
    });
  });

  describe('validation against the package (step 3)', () => {
    it('words a value of the wrong type as pydantic does', () => {
      manifest({ name: 'p', skills: {} });
      assert.deepEqual(install(), {
        ok: false,
        message: 'project plugin manifest is invalid: plugin.json: skills: Input should be a valid tuple',
      });
    });
    it("reports every schema problem with the manifest's file name", () => {
      manifest({ name: 'bad name', extra: 1 });
      assert.deepEqual(install(), {
        ok: false,
        message:
          'project plugin manifest is invalid: plugin.json: name: invalid plugin name; extra: Extra inputs are not permitted',
      });
    });
    it("reports extra keys in the manifest's order, as Python's dict keeps them, also a key that is a number", () => {
      f.write('package/plugin.json', '{"name": "p", "zz": 1, "7": 2}');
      assert.deepEqual(install(), {
        ok: false,
        message:
          'project plugin manifest is invalid: plugin.json: zz: Extra inputs are not permitted; 7: Extra inputs are not permitted',
      });
    });
    it('refuses a skill missing from the package, by its stored path', () => {
      manifest({ name: 'p', skills: [{ path: ' sub\\missing.md ' }] });
      assert.deepEqual(install(), { ok: false, message: 'plugin skill file is missing: sub/missing.md' });
      f.mkdir('package/dir.md');
      manifest({ name: 'p', skills: [{ path: 'dir.md' }] });
      assert.deepEqual(install(), { ok: false, message: 'plugin skill file is missing: dir.md' });
      assert.deepEqual(tree(f.path('repo')), []);
    });
    it('refuses a skill that is a link leaving the package', () => {
      f.write('elsewhere/x.md', 'outside');
      f.symlink('../elsewhere/x.md', 'package/x.md');
      manifest({ name: 'p', skills: [{ path: 'x.md' }] });
      assert.deepEqual(install(), { ok: false, message: 'plugin skill path must stay inside repository' });
      assert.deepEqual(tree(f.path('repo')), []);
    });
    it("resolves a dangling skill link to its target, as Python's Path.resolve does: outside the package is outside", () => {
      f.symlink('../elsewhere/gone.md', 'package/x.md');
      manifest({ name: 'p', skills: [{ path: 'x.md' }] });
      assert.deepEqual(install(), { ok: false, message: 'plugin skill path must stay inside repository' });
      f.symlink('gone.md', 'package/y.md');
      manifest({ name: 'p', skills: [{ path: 'y.md' }] });
      assert.deepEqual(install(), { ok: false, message: 'plugin skill file is missing: y.md' });
      assert.deepEqual(tree(f.path('repo')), []);
    });
    it('resolves MANIFEST as Python does: a link is followed before the ".." after it', () => {
      // Path("package/lnk/../plugin.json").resolve() is other/plugin.json when lnk -> ../other/sub.
      f.mkdir('other/sub');
      f.write('other/plugin.json', JSON.stringify({ name: 'o' }));
      manifest({ name: 'p' });
      f.symlink('../other/sub', 'package/lnk');
      const r = installPlugin(`${f.path('package')}/lnk/../plugin.json`, f.path('repo'));
      assert.ok(r.ok, r.ok ? '' : r.message);
      assert.equal(r.plugin.name, 'o');
    });
  });

  describe('destinations (steps 4-6)', () => {
    it("refuses a plugins path that is a file, and a .rivumi that is a file, with the OSError Rivumi's mkdir raises", () => {
      // Changed on purpose (rivumi.md §5.6 step 4: "a regular file at that path makes the creation
      // itself fail with an operating-system error"): `mkdir(parents=True, exist_ok=True)` raises
      // FileExistsError, or NotADirectoryError when .rivumi is a file. These said "project plugins
      // path must be a directory" and ".rivumi is not a directory; nothing was installed".
      manifest({ name: 'p', skills: [{ path: 's.md' }] });
      const plugins = f.write('repo/.rivumi/plugins', 'x');
      assert.deepEqual(install(), {
        ok: false,
        message: `could not create ${plugins}: [Errno 17] File exists: '${plugins}'`,
      });
      assert.equal(fs.readFileSync(plugins, 'utf8'), 'x');
      f.mkdir('repo2');
      const rivumi = f.write('repo2/.rivumi', 'x');
      const plugins2 = f.path('repo2/.rivumi/plugins');
      assert.deepEqual(installPlugin(f.path('package/plugin.json'), f.path('repo2')), {
        ok: false,
        message: `could not create ${plugins2}: [Errno 20] Not a directory: '${plugins2}'`,
      });
      assert.equal(fs.readFileSync(rivumi, 'utf8'), 'x');
    });
    it('refuses a symbolic link as the plugins path', () => {
      manifest({ name: 'p' });
      f.mkdir('outside');
      f.mkdir('repo/.rivumi');
      f.symlink('../../outside', 'repo/.rivumi/plugins');
      assert.deepEqual(install(), { ok: false, message: 'project plugins path must be a directory' });
      assert.deepEqual(tree(f.path('outside')), []);
    });
    it('creates .rivumi/plugins when it is missing', () => {
      manifest({ name: 'p' });
      const r = install();
      assert.ok(r.ok, r.ok ? '' : r.message);
      assert.deepEqual(r.written, [f.path('repo/.rivumi/plugins/p.json')]);
      assert.deepEqual(tree(f.path('repo/.rivumi')), ['plugins', 'plugins/p.json']);
    });
    it('refuses a skill destination that is a directory, even with --overwrite', () => {
      manifest({ name: 'p', skills: [{ path: 's.md' }] });
      f.mkdir('repo/.rivumi/plugins/s.md');
      assert.deepEqual(install({ overwrite: true }), {
        ok: false,
        message: 'plugin skill destination s.md is a directory; nothing was installed',
      });
      assert.deepEqual(tree(f.path('repo/.rivumi/plugins')), ['s.md']);
    });
    it('refuses a skill listed twice without --overwrite: Rivumi finds its own first copy there (step 6)', () => {
      // Rivumi copies skills one by one, so the second `s.md` (however spelled) meets the first.
      manifest({ name: 'p', skills: [{ path: 's.md' }, { path: './/s.md' }] });
      assert.deepEqual(install(), { ok: false, message: 'plugin skill already exists: .//s.md' });
      assert.deepEqual(tree(f.path('repo/.rivumi')), []);
      const r = install({ overwrite: true });
      assert.ok(r.ok, r.ok ? '' : r.message);
      assert.deepEqual(tree(f.path('repo/.rivumi/plugins')), ['p.json', 's.md']);
    });
    it('refuses a skill destination whose directory is a file', () => {
      f.write('package/d/s.md', 'Skill.');
      manifest({ name: 'p', skills: [{ path: 'd/s.md' }] });
      f.write('repo/.rivumi/plugins/d', 'a file');
      assert.deepEqual(install(), {
        ok: false,
        message: 'plugin skill destination d/s.md: .rivumi/plugins/d is not a directory; nothing was installed',
      });
    });
    it('overwrites the manifest and the skills with --overwrite, leaving no backup behind', () => {
      manifest({ name: 'p', description: 'one', skills: [{ path: 's.md' }] });
      assert.ok(install().ok);
      f.write('package/s.md', 'New body.');
      manifest({ name: 'p', description: 'two', skills: [{ path: 's.md' }] });
      assert.deepEqual(install(), { ok: false, message: 'plugin already installed: p' });
      const r = install({ overwrite: true });
      assert.ok(r.ok, r.ok ? '' : r.message);
      assert.equal(r.plugin.description, 'two');
      assert.equal(fs.readFileSync(f.path('repo/.rivumi/plugins/s.md'), 'utf8'), 'New body.');
      assert.deepEqual(tree(f.path('repo/.rivumi/plugins')), ['p.json', 's.md']);
    });
  });

  describe('the written manifest (step 7) and the re-load (step 8)', () => {
    it('drops source and directory, sorts keys at every level, keeps non-ASCII, and ends with a newline', () => {
      manifest({
        source: 'x',
        name: 'p',
        directory: 'y',
        description: 'café',
        discovery: { license: 'MIT', author: 'Zoë' },
      });
      assert.ok(install().ok);
      assert.equal(
        fs.readFileSync(f.path('repo/.rivumi/plugins/p.json'), 'utf8'),
        '{\n  "description": "café",\n  "discovery": {\n    "author": "Zoë",\n    "license": "MIT"\n  },\n  "name": "p"\n}\n',
      );
    });
    it('writes JSON as Python json.dumps(sort_keys=True, indent=2) does', () => {
      assert.equal(
        sortedJson({ b: [{ d: 1, c: null }], a: 'x' }),
        '{\n  "a": "x",\n  "b": [\n    {\n      "c": null,\n      "d": 1\n    }\n  ]\n}',
      );
      assert.equal(sortedJson([]), '[]');
    });
    it('fails, and rolls back, when the installed plugin sorts beyond the 16-plugin cap', () => {
      for (let i = 0; i < 16; i++) f.write(`repo/.rivumi/plugins/a${String(i).padStart(2, '0')}.json`, '{}');
      manifest({ name: 'zz', skills: [{ path: 's.md' }] });
      assert.deepEqual(install(), {
        ok: false,
        message: 'installed plugin could not be loaded: zz; nothing was installed',
      });
      assert.ok(!tree(f.path('repo/.rivumi/plugins')).includes('zz.json'));
      assert.ok(!tree(f.path('repo/.rivumi/plugins')).includes('s.md'));
    });
    it('names the broken manifest that makes the re-load fail', () => {
      f.write('repo/.rivumi/plugins/aaa.json', '[]');
      manifest({ name: 'p' });
      assert.deepEqual(install(), {
        ok: false,
        message:
          'installed plugin could not be loaded: p (project plugin manifest must be an object: aaa.json); nothing was installed',
      });
      assert.deepEqual(tree(f.path('repo/.rivumi/plugins')), ['aaa.json']);
    });
  });
});
