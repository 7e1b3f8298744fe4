import { strict as assert } from 'node:assert';
import { Fixture, index, byName, codes, messages } from './helpers/fixture';
import { loadRivumiProject } from '../../src/core/systems/rivumi/load';
import type { Snapshot } from '../../src/core/index/snapshot';

const json = (v: unknown) => JSON.stringify(v, null, 2);
const fate = (s: Snapshot, name: string) => {
  const i = byName(s, name);
  return [i.decision, i.reasons];
};
const own = (s: Snapshot) => messages(s).filter((m) => !m.startsWith('Rivumi aborts'));

/**
 * The fail-fast loads rule by rule (rivumi.md §2, §3.2, §4.4, §5.4, §6): each path and
 * file check with Rivumi's message, each cap at its boundary, which load a failure ends,
 * and the file each failure names.
 */
describe('Rivumi loads: each check of §3.2, §4.4 and §5.4, and the load it ends', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  describe('.rivumi itself (§2 "Links")', () => {
    it('follows a symbolic link named .rivumi, and says so', () => {
      f.write('real/skills/a.md', 'body');
      f.mkdir('ws');
      f.symlink('../real', 'ws/.rivumi');
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        p.skills.map((s) => [s.name, s.state]),
        [['a', 'valid']],
      );
      assert.deepEqual(
        p.diagnostics.map((d) => [d.code, d.message, d.file]),
        [
          [
            'rivumi.root-symlink',
            '.rivumi is a symbolic link; Rivumi follows it, so its target is what Rivumi loads',
            f.path('ws/.rivumi'),
          ],
        ],
      );
    });
    it('finds nothing, and no error, when .rivumi is a file or missing', () => {
      f.write('ws/.rivumi', 'not a directory');
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        [p.skills, p.plugins, p.skillLoad, p.hookLoad, p.hooksFile, p.diagnostics],
        [[], [], null, null, undefined, []],
      );
      f.mkdir('other');
      assert.deepEqual(loadRivumiProject(f.path('other')).diagnostics, []);
    });
  });

  describe('the skill load (§3.2, §3.3)', () => {
    it('fails on a skills path that is a file, naming it', () => {
      f.write('ws/.rivumi/skills', 'x');
      f.write('ws/.rivumi/plugins/a.md', 'body');
      f.write('ws/.rivumi/plugins/pk.json', json({ skills: [{ path: 'a.md' }] }));
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        [p.skillLoad?.file, p.skillLoad?.message],
        [f.path('ws/.rivumi/skills'), 'project skills path must be a directory'],
      );
      assert.equal(p.hookLoad, null);
      // The plugin is valid on its own; the skill load it belongs to fails.
      assert.deepEqual(fate(index([f.path('ws')]), 'pk.a'), ['rejected', ['load_aborted']]);
    });
    it('refuses a symbolic link to a skill file even inside the repository', () => {
      f.write('ws/docs/real.md', 'body');
      f.symlink('../../docs/real.md', 'ws/.rivumi/skills/real.md');
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        p.skills.map((s) => [s.state, s.error?.message]),
        [['invalid', 'project skill must be a regular markdown file: real.md']],
      );
      assert.equal(p.skillLoad?.message, 'project skill must be a regular markdown file: real.md');
    });
    it('names the 17th skill file as never opened, and records it beyond the cap with its stem', () => {
      for (let i = 0; i < 17; i++) f.write(`ws/.rivumi/skills/s${String(i).padStart(2, '0')}.md`, 'body');
      const p = loadRivumiProject(f.path('ws'));
      const last = p.skills[16];
      assert.deepEqual(
        [last?.name, last?.qualifiedName, last?.state, last?.source, last?.plugin, last?.body],
        ['s16', 's16', 'beyond_cap', '.rivumi/skills/s16.md', null, ''],
      );
      assert.deepEqual(
        p.diagnostics.map((d) => [d.code, d.message, d.file]),
        [
          [
            'rivumi.skill.not-loaded',
            'Rivumi loads at most 16 skills; s16.md is never opened',
            f.path('ws/.rivumi/skills/s16.md'),
          ],
        ],
      );
      assert.equal(p.skillLoad, null);
    });
    it('records the first failing file as the skill load failure, not a later one', () => {
      f.write('ws/.rivumi/skills/a.md', '---\nbad: 1\n---\nbody');
      f.write('ws/.rivumi/skills/b.md', '   ');
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        [p.skillLoad?.file, p.skillLoad?.message],
        [f.path('ws/.rivumi/skills/a.md'), "unsupported project skill frontmatter in 'a.md'"],
      );
      assert.deepEqual(own(index([f.path('ws')])), [
        "unsupported project skill frontmatter in 'a.md'",
        'project skill body cannot be blank or contain NUL: b.md',
      ]);
    });
    it('points the unsupported-key error at its front-matter line', () => {
      f.write('ws/.rivumi/skills/a.md', '---\nname: x\n\nwhat: 1\n---\nbody');
      const d = loadRivumiProject(f.path('ws')).skills[0]?.error;
      assert.equal(d?.range.start.line, 3);
    });
    it('does not warn about truncation when the skill load fails', () => {
      for (let i = 0; i < 4; i++) f.write(`ws/.rivumi/skills/s${i}.md`, 'é'.repeat(3000));
      f.write('ws/.rivumi/skills/z.md', '   ');
      assert.ok(!codes(index([f.path('ws')])).includes('rivumi.skills.context-truncated'));
    });
    it('states the rendered size, the limit and the bytes cut when it warns (the example of §7.2)', () => {
      for (let i = 0; i < 4; i++) f.write(`ws/.rivumi/skills/sk0${i}.md`, 'é'.repeat(3000));
      const d = index([f.path('ws')]).diagnostics.find((x) => x.code === 'rivumi.skills.context-truncated');
      assert.equal(
        d?.message,
        'the rendered skill section is 24240 bytes; Rivumi keeps 16000 and cuts 8240 bytes from the middle',
      );
      assert.equal(d?.file, f.path('ws/.rivumi/skills/sk03.md'));
    });
    it('does not warn about a section of at most 16000 bytes', () => {
      f.write('ws/.rivumi/skills/a.md', 'x'.repeat(15000));
      assert.deepEqual(codes(index([f.path('ws')])), []);
    });
    it('warns about a rendered section of 16001 bytes, not of exactly 16000', () => {
      // 35 + 159 bytes of fixed paragraphs, "## a" and three blank-line joins: 15796 body bytes make 16000.
      f.write('ws/.rivumi/skills/a.md', 'x'.repeat(15796));
      assert.deepEqual(codes(index([f.path('ws')])), []);
      f.write('ws/.rivumi/skills/a.md', 'x'.repeat(15797));
      assert.deepEqual(codes(index([f.path('ws')])), ['rivumi.skills.context-truncated']);
    });
  });

  describe('plugin manifests (§5.4)', () => {
    it('fails both loads on a plugins path that is a file or a link', () => {
      f.write('ws/.rivumi/skills/s.md', 'body');
      f.write('ws/.rivumi/hooks.json', json({ pre_compact: [{ command: ['true'] }] }));
      f.write('ws/.rivumi/plugins', 'x');
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        [p.skillLoad?.message, p.hookLoad?.message, p.skillLoad?.file],
        [
          'project plugins path must be a directory',
          'project plugins path must be a directory',
          f.path('ws/.rivumi/plugins'),
        ],
      );
      const s = index([f.path('ws')], { rivumiHooksEnv: '1' });
      assert.deepEqual(fate(s, 's'), ['rejected', ['load_aborted']]);
      assert.deepEqual(fate(s, 'hooks.json'), ['rejected', ['load_aborted', 'not_reviewed']]);
      f.remove();
      f = new Fixture();
      f.mkdir('ws/real');
      f.mkdir('ws/.rivumi');
      f.symlink('../real', 'ws/.rivumi/plugins');
      assert.equal(loadRivumiProject(f.path('ws')).skillLoad?.message, 'project plugins path must be a directory');
    });
    it('treats a dangling plugins link as absent', () => {
      f.mkdir('ws/.rivumi');
      f.symlink('../nowhere', 'ws/.rivumi/plugins');
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual([p.skillLoad, p.diagnostics], [null, []]);
    });
    it('refuses a directory or a symbolic link as a manifest', () => {
      f.mkdir('ws/.rivumi/plugins/dir.json');
      assert.deepEqual(own(index([f.path('ws')])), ['project plugin manifest must be a regular file: dir.json']);
      f.remove();
      f = new Fixture();
      f.write('ws/real.json', '{}');
      f.symlink('../../real.json', 'ws/.rivumi/plugins/link.json');
      const s = index([f.path('ws')]);
      assert.deepEqual(own(s), ['project plugin manifest must be a regular file: link.json']);
      assert.deepEqual(fate(s, 'link'), ['rejected', ['manifest_invalid', 'not_reviewed']]);
    });
    it('accepts a manifest of exactly 65536 bytes and refuses 65537', () => {
      const body = '{"name": "pk"}';
      f.write('ws/.rivumi/plugins/pk.json', body + ' '.repeat(65536 - body.length));
      assert.deepEqual(index([f.path('ws')]).diagnostics, []);
      f.write('ws/.rivumi/plugins/pk.json', body + ' '.repeat(65537 - body.length));
      assert.deepEqual(messages(index([f.path('ws')])), ['project plugin manifest exceeds size limit: pk.json']);
    });
    it('refuses invalid UTF-8, broken JSON and a non-object with their messages', () => {
      f.write('ws/.rivumi/plugins/a.json', Buffer.from([0x7b, 0xff, 0x7d]));
      f.write('ws/.rivumi/plugins/b.json', '{"name": ');
      f.write('ws/.rivumi/plugins/c.json', '["pk"]');
      f.write('ws/.rivumi/plugins/d.json', 'null');
      assert.deepEqual(own(index([f.path('ws')])), [
        'project plugin manifest must be UTF-8 JSON: a.json',
        'project plugin manifest must be UTF-8 JSON: b.json',
        'project plugin manifest must be an object: c.json',
        'project plugin manifest must be an object: d.json',
      ]);
    });
    it('names the first schema problem in the load failure, and points an extra key at the key', () => {
      f.write('ws/.rivumi/plugins/pk.json', '{\n  "name": "pk",\n  "surprise": 1\n}');
      const p = loadRivumiProject(f.path('ws'));
      assert.equal(
        p.skillLoad?.message,
        'project plugin manifest is invalid: pk.json: surprise: Extra inputs are not permitted',
      );
      assert.deepEqual(p.skillLoad?.diagnostic.range, {
        start: { line: 2, character: 2 },
        end: { line: 2, character: 12 },
      });
      f.write('ws/.rivumi/plugins/pk.json', '{\n  "name": 7\n}');
      const q = loadRivumiProject(f.path('ws'));
      assert.equal(
        q.skillLoad?.message,
        'project plugin manifest is invalid: pk.json: name: Input should be a valid string',
      );
      assert.deepEqual(q.skillLoad?.diagnostic.range, {
        start: { line: 1, character: 10 },
        end: { line: 1, character: 11 },
      });
    });
    it('strips the name, keeps the description and discovery of a valid manifest', () => {
      f.write('ws/.rivumi/plugins/pk.json', json({ name: ' pk ', description: ' d ', discovery: { license: 'MIT' } }));
      const p = loadRivumiProject(f.path('ws')).plugins[0];
      assert.deepEqual(
        [p?.name, p?.description, p?.discovery, p?.state, p?.source, p?.fileName],
        ['pk', ' d ', { license: 'MIT' }, 'valid', '.rivumi/plugins/pk.json', 'pk.json'],
      );
    });
    it('refuses a skill path whose file is missing, quoting the path as stored (stripped, \\ as /)', () => {
      f.write('ws/.rivumi/plugins/pk.json', json({ name: 'pk', skills: [{ path: ' sub\\x.md ' }] }));
      const p = loadRivumiProject(f.path('ws'));
      assert.equal(p.plugins[0]?.error?.message, 'plugin skill file is missing: sub/x.md');
      assert.equal(p.skillLoad?.message, 'plugin skill file is missing: sub/x.md');
    });
    it('follows a backslash path to the file in a subdirectory', () => {
      f.write('ws/.rivumi/plugins/sub/x.md', 'body');
      f.write(
        'ws/.rivumi/plugins/pk.json',
        json({ name: 'pk', skills: [{ path: 'sub\\x.md' }, { path: './sub/x.md' }] }),
      );
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        p.plugins[0]?.skills.map((s) => [s.qualifiedName, s.source, s.state]),
        [
          ['pk.x', '.rivumi/plugins/sub/x.md', 'valid'],
          ['pk.x', '.rivumi/plugins/sub/x.md', 'valid'],
        ],
      );
    });
    it('refuses a skill path that is a directory as missing', () => {
      f.mkdir('ws/.rivumi/plugins/d.md');
      f.write('ws/.rivumi/plugins/pk.json', json({ name: 'pk', skills: [{ path: 'd.md' }] }));
      assert.deepEqual(own(index([f.path('ws')])), ['plugin skill file is missing: d.md']);
    });
    it('lets a plugin skill reach any .md of the repository through a directory link inside plugins', () => {
      f.write('ws/docs/guide.md', 'body');
      f.symlink('../../docs', 'ws/.rivumi/plugins/docs');
      f.write('ws/.rivumi/plugins/pk.json', json({ name: 'pk', skills: [{ path: 'docs/guide.md' }] }));
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        p.plugins[0]?.skills.map((s) => [s.qualifiedName, s.state]),
        [['pk.guide', 'valid']],
      );
    });
    it('names the 17th manifest as never read, beyond the cap, with its stem', () => {
      for (let i = 0; i < 17; i++) f.write(`ws/.rivumi/plugins/p${String(i).padStart(2, '0')}.json`, json({}));
      const p = loadRivumiProject(f.path('ws'));
      const last = p.plugins[16];
      assert.deepEqual(
        [last?.name, last?.state, last?.source, last?.fileName, last?.skills, last?.hooks],
        ['p16', 'beyond_cap', '.rivumi/plugins/p16.json', 'p16.json', [], []],
      );
      assert.deepEqual(
        p.diagnostics.map((d) => [d.code, d.message]),
        [['rivumi.plugin.not-loaded', 'Rivumi loads at most 16 plugins; p16.json is never read']],
      );
    });
    it('records the first bad manifest as the failure of both loads', () => {
      f.write('ws/.rivumi/plugins/a.json', '[]');
      f.write('ws/.rivumi/plugins/b.json', '{"x": 1}');
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        [p.skillLoad?.file, p.hookLoad?.file],
        [f.path('ws/.rivumi/plugins/a.json'), f.path('ws/.rivumi/plugins/a.json')],
      );
    });
    it("names extra keys in the file's order, as Python's dict keeps them, also a key that is a number", () => {
      // A JavaScript object lists "7" before "zz"; Python's json keeps the text's order, and pydantic reports it.
      f.write(
        'ws/.rivumi/plugins/pk.json',
        '{"name": "pk", "skills": [{"path": "a.md", "q": 1, "2": 2}], "discovery": {"b": 1, "0": 1}, "zz": 1, "7": 2, "zz": 3}',
      );
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        p.diagnostics.map((d) => d.message),
        [
          'skills.0.q: Extra inputs are not permitted',
          'skills.0.2: Extra inputs are not permitted',
          'discovery.b: Extra inputs are not permitted',
          'discovery.0: Extra inputs are not permitted',
          'zz: Extra inputs are not permitted',
          '7: Extra inputs are not permitted',
        ].map((m) => `project plugin manifest is invalid: pk.json: ${m}`),
      );
      assert.equal(p.skillLoad?.message, p.diagnostics[0]?.message);
    });
    it('warns that two manifests share a plugin name; both load', () => {
      f.write('ws/.rivumi/plugins/a.json', json({ name: 'same' }));
      f.write('ws/.rivumi/plugins/b.json', json({ name: 'same' }));
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        p.diagnostics.map((d) => [d.code, d.message, d.file]),
        [
          [
            'rivumi.plugin.duplicate-name',
            'plugin name same is also used by .rivumi/plugins/a.json; Rivumi loads both',
            f.path('ws/.rivumi/plugins/b.json'),
          ],
        ],
      );
      assert.equal(p.skillLoad, null);
    });
    it('warns once per later skill that shares a qualified name with an earlier one, naming the earlier', () => {
      f.write('ws/.rivumi/skills/pk.x.md', 'body');
      f.write('ws/.rivumi/plugins/x.md', 'body');
      f.write('ws/.rivumi/plugins/pk.json', json({ name: 'pk', skills: [{ path: 'x.md' }] }));
      const p = loadRivumiProject(f.path('ws'));
      const d = p.diagnostics.filter((x) => x.code === 'rivumi.skill.duplicate-name');
      assert.deepEqual(
        d.map((x) => [x.message, x.file, x.related?.[0]?.file]),
        [
          [
            'skill name pk.x is also used by .rivumi/skills/pk.x.md; both load, and a selection by name picks this later one',
            f.path('ws/.rivumi/plugins/x.md'),
            f.path('ws/.rivumi/skills/pk.x.md'),
          ],
        ],
      );
    });
    it('says a plugin lists one skill file twice, rather than that the file shares a name with itself', () => {
      f.write('ws/.rivumi/plugins/x.md', 'body');
      f.write('ws/.rivumi/plugins/pk.json', json({ name: 'pk', skills: [{ path: 'x.md' }, { path: 'x.md' }] }));
      const p = loadRivumiProject(f.path('ws'));
      const d = p.diagnostics.filter((x) => x.code === 'rivumi.skill.duplicate-name');
      assert.deepEqual(
        d.map((x) => [x.message, x.file, x.related]),
        [
          [
            'skill name pk.x is listed twice by .rivumi/plugins/pk.json (.rivumi/plugins/x.md); both load, the same file twice',
            f.path('ws/.rivumi/plugins/pk.json'),
            undefined,
          ],
        ],
      );
    });
    it('gives a plugin skill past the 16-skill cap its qualified name, unread', () => {
      for (let i = 0; i < 16; i++) f.write(`ws/.rivumi/skills/s${String(i).padStart(2, '0')}.md`, 'body');
      f.write('ws/.rivumi/plugins/late.md', '---\nbroken: yes\n---\n');
      f.write('ws/.rivumi/plugins/pk.json', json({ name: 'pk', skills: [{ path: 'late.md' }] }));
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        p.plugins[0]?.skills.map((s) => [s.qualifiedName, s.plugin, s.state, s.source]),
        [['pk.late', 'pk', 'beyond_cap', '.rivumi/plugins/late.md']],
      );
      assert.equal(p.skillLoad, null);
    });
  });

  describe('the hook load (§4.4)', () => {
    it('lets a hooks.json error come before a plugin manifest error', () => {
      f.write('ws/.rivumi/hooks.json', '[]');
      f.write('ws/.rivumi/plugins/a.json', '[]');
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        [p.hookLoad?.message, p.skillLoad?.message],
        ['project hook config must be a JSON object', 'project plugin manifest must be an object: a.json'],
      );
    });
    it("names extra keys in the file's order, as Python's dict keeps them, also a key that is a number", () => {
      f.write('ws/.rivumi/hooks.json', '{"zz": [], "1": [], "pre_compact": [{"command": ["a"], "x": 1, "0": 2}]}');
      f.write(
        'ws/.rivumi/plugins/pk.json',
        '{"name": "pk", "hooks": {"pre_compact": [{"command": ["b"], "y": 1, "5": 2}]}}',
      );
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        p.diagnostics.map((d) => d.message),
        [
          'pre_compact.0.x: Extra inputs are not permitted',
          'pre_compact.0.0: Extra inputs are not permitted',
          'pre_compact.1.y: Extra inputs are not permitted',
          'pre_compact.1.5: Extra inputs are not permitted',
          'zz: Extra inputs are not permitted',
          '1: Extra inputs are not permitted',
        ].map((m) => `project hook config is invalid: ${m}`),
      );
      f.write('ws/.rivumi/hooks.json', '{"zz": [], "1": []}');
      assert.equal(
        loadRivumiProject(f.path('ws')).hooksFile?.error?.message,
        'project hook config is invalid: zz: Extra inputs are not permitted',
      );
    });
    it('refuses hooks.json that is a directory, and invalid UTF-8 JSON', () => {
      f.mkdir('ws/.rivumi/hooks.json');
      assert.deepEqual(messages(index([f.path('ws')])), ['project hook config must be a regular file']);
      f.remove();
      f = new Fixture();
      f.write('ws/.rivumi/hooks.json', Buffer.from([0x7b, 0xff, 0x7d]));
      assert.deepEqual(messages(index([f.path('ws')])), ['project hook config is not valid UTF-8 JSON']);
      f.write('ws/.rivumi/hooks.json', '{"pre_compact": [');
      assert.deepEqual(messages(index([f.path('ws')])), ['project hook config is not valid UTF-8 JSON']);
    });
    it('refuses hooks.json with two BOMs, as Python does after dropping one', () => {
      f.write(
        'ws/.rivumi/hooks.json',
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), Buffer.from('{}')]),
      );
      assert.deepEqual(messages(index([f.path('ws')])), ['project hook config is not valid UTF-8 JSON']);
    });
    it('accepts hooks.json of exactly 65536 bytes', () => {
      const body = '{"pre_compact": []}';
      f.write('ws/.rivumi/hooks.json', body + ' '.repeat(65536 - body.length));
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual([p.hookLoad, p.hooksFile?.valid], [null, true]);
    });
    it('refuses plugin entries merged into a project event that is not an array', () => {
      f.write('ws/.rivumi/hooks.json', json({ pre_tool_use: null }));
      f.write('ws/.rivumi/plugins/pk.json', json({ name: 'pk', hooks: { pre_tool_use: [{ command: ['x'] }] } }));
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        [p.hookLoad?.message, p.hookLoad?.file],
        ['project hook entries must be arrays', f.path('ws/.rivumi/hooks.json')],
      );
      assert.equal(p.hooksFile?.valid, false);
      assert.equal(p.skillLoad, null);
      // The fault is hooks.json's: the plugin's entry is still its hook, valid in itself.
      assert.deepEqual(
        p.plugins[0]?.hooks.map((h) => [h.event, h.argv, h.origin, h.valid]),
        [['pre_tool_use', ['x'], 'pk', true]],
      );
      assert.equal(p.plugins[0]?.hookError, undefined);
    });
    it('skips a plugin event that is null or absent, and ignores unknown plugin events', () => {
      f.write(
        'ws/.rivumi/plugins/pk.json',
        json({ name: 'pk', hooks: { pre_tool_use: null, on_save: 'x', post_compact: [{ command: ['c'] }] } }),
      );
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual([p.hookLoad, p.diagnostics], [null, []]);
      assert.deepEqual(
        p.plugins[0]?.hooks.map((h) => [h.event, h.argv, h.origin, h.index, h.valid, h.timeoutSeconds, h.tools]),
        [['post_compact', ['c'], 'pk', 0, true, 5, ['*']]],
      );
    });
    it('keeps the argv strings of an invalid entry, and no tools', () => {
      f.write('ws/.rivumi/hooks.json', json({ pre_tool_use: [{ command: ['a', 7, 'b'] }, 'not an object'] }));
      const hooks = loadRivumiProject(f.path('ws')).hooksFile?.hooks ?? [];
      assert.deepEqual(
        hooks.map((h) => [h.argv, h.valid, h.tools, h.timeoutSeconds]),
        [
          [['a', 'b'], false, [], 5],
          [[], false, [], 5],
        ],
      );
    });
    it('reports an invalid entry at its event and position, with the field path', () => {
      f.write('ws/.rivumi/hooks.json', json({ post_tool_use: [{ command: ['ok'] }, { command: [''] }, {}] }));
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        p.diagnostics.map((d) => d.message),
        [
          'project hook config is invalid: post_tool_use.1.command: hook command argv entries must be non-empty and NUL-free',
          'project hook config is invalid: post_tool_use.2.command: Field required',
        ],
      );
      assert.equal(p.hookLoad?.message, p.diagnostics[0]?.message);
    });
    it('accepts 16 entries for one event after the merge, and refuses the 17th at the entry that overflows', () => {
      f.write(
        'ws/.rivumi/hooks.json',
        json({ pre_compact: Array.from({ length: 16 }, (_, i) => ({ command: [`c${i}`] })) }),
      );
      assert.equal(loadRivumiProject(f.path('ws')).hookLoad, null);
      f.write(
        'ws/.rivumi/hooks.json',
        json({ pre_compact: Array.from({ length: 17 }, (_, i) => ({ command: [`c${i}`] })) }),
      );
      const p = loadRivumiProject(f.path('ws'));
      assert.equal(
        p.hookLoad?.message,
        'project hook config is invalid: pre_compact: Tuple should have at most 16 items after validation, not 17 (after plugin hooks are merged)',
      );
      assert.equal(p.hookOverflowFile, f.path('ws/.rivumi/hooks.json'));
      // Each entry validates on its own: the 17th is refused as its file's overflow, not as an invalid entry.
      assert.deepEqual(
        p.hooksFile?.hooks.map((h) => h.valid),
        Array(17).fill(true),
      );
    });
    it("names the overflow once more than 16 entries of an event validate, as pydantic's tuple drops that event's entry errors", () => {
      const entries = (n: number) => Array.from({ length: n }, (_, i) => ({ command: i === 3 ? [] : [`c${i}`] }));
      const tooLong = (n: number) =>
        `project hook config is invalid: pre_compact: Tuple should have at most 16 items after validation, not ${n} (after plugin hooks are merged)`;
      const entryError =
        'project hook config is invalid: pre_compact.3.command: Tuple should have at least 1 item after validation, not 0';
      // 17 entries, one invalid: 16 validate, so pydantic names only the invalid entry.
      f.write('ws/.rivumi/hooks.json', json({ pre_compact: entries(17) }));
      assert.equal(loadRivumiProject(f.path('ws')).hookLoad?.message, entryError);
      // 18 entries, one invalid: the 17th that validates is one too many, and that is all pydantic says of the event.
      f.write('ws/.rivumi/hooks.json', json({ pre_compact: entries(18) }));
      const p = loadRivumiProject(f.path('ws'));
      assert.equal(p.hookLoad?.message, tooLong(18));
      assert.equal(p.hooksFile?.error?.message, tooLong(18));
      // An earlier event's own error still comes first.
      f.write('ws/.rivumi/hooks.json', json({ pre_tool_use: [{ command: [] }], pre_compact: entries(18) }));
      assert.equal(
        loadRivumiProject(f.path('ws')).hookLoad?.message,
        'project hook config is invalid: pre_tool_use.0.command: Tuple should have at least 1 item after validation, not 0',
      );
    });
    it('names the plugin whose entries overflow an event', () => {
      f.write(
        'ws/.rivumi/hooks.json',
        json({ pre_compact: Array.from({ length: 16 }, (_, i) => ({ command: [`c${i}`] })) }),
      );
      f.write('ws/.rivumi/plugins/pk.json', json({ name: 'pk', hooks: { pre_compact: [{ command: ['x'] }] } }));
      const p = loadRivumiProject(f.path('ws'));
      assert.equal(p.hookOverflowFile, f.path('ws/.rivumi/plugins/pk.json'));
      assert.equal(p.plugins[0]?.hookError?.code, 'rivumi.hooks.too-many');
      assert.equal(p.hooksFile?.valid, true);
      assert.equal(p.skillLoad, null);
    });
    it("keeps a plugin's first hook error, and leaves hooks.json valid", () => {
      f.write('ws/.rivumi/hooks.json', json({ pre_compact: [{ command: ['ok'] }] }));
      f.write(
        'ws/.rivumi/plugins/pk.json',
        json({ name: 'pk', hooks: { pre_tool_use: [{ command: [] }, { command: ['x'], env: {} }] } }),
      );
      const p = loadRivumiProject(f.path('ws'));
      assert.equal(
        p.plugins[0]?.hookError?.message,
        'project hook config is invalid: pre_tool_use.0.command: Tuple should have at least 1 item after validation, not 0',
      );
      assert.equal(p.hookLoad?.message, p.plugins[0]?.hookError?.message);
      assert.equal(p.hooksFile?.valid, true);
      assert.equal(p.hooksFile?.error, undefined);
    });
    it('hashes hooks.json and names its failure on the file record', () => {
      f.write('ws/.rivumi/hooks.json', json({ pre_compact: [{ command: ['ok'], timeout_seconds: 0 }] }));
      const hf = loadRivumiProject(f.path('ws')).hooksFile;
      assert.equal(hf?.valid, false);
      assert.equal(
        hf?.error?.message,
        'project hook config is invalid: pre_compact.0.timeout_seconds: Input should be greater than 0',
      );
      assert.match(hf?.hashes?.contentHash ?? '', /^[0-9a-f]{64}$/);
      assert.equal(hf?.canonicalFile, f.path('ws/.rivumi/hooks.json'));
    });
  });
});
