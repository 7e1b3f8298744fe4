import { strict as assert } from 'node:assert';
import { Fixture, index, byName, messages, codes } from './helpers/fixture';
import { loadRivumiProject } from '../../src/core/systems/rivumi/load';

const json = (v: unknown) => JSON.stringify(v, null, 2);

describe('Rivumi hooks and plugins (rivumi.md §4, §5, §6, §9)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  describe('hooks', () => {
    it('keeps argv, tool filters and compact commands (upstream test 4)', () => {
      f.write(
        'ws/.rivumi/hooks.json',
        json({
          pre_tool_use: [{ command: ['python', 'hook.py'], timeout_seconds: 2, tools: ['read_file'] }],
          pre_compact: [{ command: ['python', 'compact.py'] }],
          post_compact: [{ command: ['python', 'compact-done.py'] }],
        }),
      );
      const p = loadRivumiProject(f.path('ws'));
      const hooks = p.hooksFile?.hooks ?? [];
      assert.deepEqual(
        hooks.map((h) => [h.event, h.argv, h.tools, h.timeoutSeconds]),
        [
          ['pre_tool_use', ['python', 'hook.py'], ['read_file'], 2],
          ['pre_compact', ['python', 'compact.py'], ['*'], 5],
          ['post_compact', ['python', 'compact-done.py'], ['*'], 5],
        ],
      );
    });

    it('needs RIVUMI_ENABLE_PROJECT_HOOKS exactly 1 (upstream test 5)', () => {
      f.write('ws/.rivumi/hooks.json', '{"pre_tool_use":[{"command":["false"]}]}');
      for (const value of [undefined, 'true', ' 1', 'yes']) {
        const item = byName(index([f.path('ws')], { rivumiHooksEnv: value }), 'hooks.json');
        assert.ok(item.reasons.includes('hooks_not_opted_in'), String(value));
      }
      const on = index([f.path('ws')], { rivumiHooksEnv: '1' });
      assert.ok(!byName(on, 'hooks.json').reasons.includes('hooks_not_opted_in'));
      assert.deepEqual(codes(on), ['rivumi.hooks.opted-in-untrusted']);
    });

    it('has no hooks without a .rivumi directory (upstream test 6)', () => {
      f.mkdir('ws');
      assert.equal(loadRivumiProject(f.path('ws')).hooksFile, undefined);
    });

    it('refuses a timeout above 30 and extra keys, pointing at the field', () => {
      f.write(
        'ws/.rivumi/hooks.json',
        json({
          pre_tool_use: [
            { command: ['a'], timeout_seconds: 31 },
            { command: ['b'], env: {} },
          ],
        }),
      );
      const s = index([f.path('ws')]);
      assert.equal(byName(s, 'hooks.json').decision, 'rejected');
      assert.deepEqual(
        messages(s).filter((m) => !m.startsWith('Rivumi aborts')),
        [
          'project hook config is invalid: pre_tool_use.0.timeout_seconds: Input should be less than or equal to 30',
          'project hook config is invalid: pre_tool_use.1.env: Extra inputs are not permitted',
        ],
      );
      const envDiag = s.diagnostics.find((d) => d.message.endsWith('Extra inputs are not permitted'));
      assert.deepEqual(envDiag?.range, { start: { line: 12, character: 6 }, end: { line: 12, character: 11 } });
    });

    it('coerces laxly: "2" is 2 seconds and true is 1', () => {
      f.write(
        'ws/.rivumi/hooks.json',
        json({
          pre_tool_use: [
            { command: ['a'], timeout_seconds: '2' },
            { command: ['b'], timeout_seconds: true },
          ],
        }),
      );
      assert.deepEqual(
        loadRivumiProject(f.path('ws')).hooksFile?.hooks.map((h) => h.timeoutSeconds),
        [2, 1],
      );
    });

    it('accepts tools [] (never matches) and strips and deduplicates tools', () => {
      f.write(
        'ws/.rivumi/hooks.json',
        json({
          pre_tool_use: [
            { command: ['a'], tools: [] },
            { command: ['b'], tools: [' x ', 'x', 'y'] },
          ],
        }),
      );
      assert.deepEqual(
        loadRivumiProject(f.path('ws')).hooksFile?.hooks.map((h) => h.tools),
        [[], ['x', 'y']],
      );
    });

    it('refuses a plain string command, never splitting it', () => {
      f.write('ws/.rivumi/hooks.json', json({ pre_tool_use: [{ command: 'python hook.py' }] }));
      assert.equal(byName(index([f.path('ws')]), 'hooks.json').decision, 'rejected');
    });

    it('accepts hooks.json with a BOM or in UTF-16', () => {
      f.write(
        'ws/.rivumi/hooks.json',
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"pre_compact":[{"command":["a"]}]}')]),
      );
      assert.deepEqual(index([f.path('ws')]).diagnostics, []);
      // Accepted means loaded: the one entry is read (json.loads detects the encoding from the bytes).
      assert.deepEqual(
        loadRivumiProject(f.path('ws')).hooksFile?.hooks.map((h) => [h.event, h.argv]),
        [['pre_compact', ['a']]],
      );
      f.write(
        'ws/.rivumi/hooks.json',
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"pre_compact":[{"command":["a"]}]}', 'utf16le')]),
      );
      assert.deepEqual(index([f.path('ws')]).diagnostics, []);
      assert.deepEqual(
        loadRivumiProject(f.path('ws')).hooksFile?.hooks.map((h) => [h.event, h.argv]),
        [['pre_compact', ['a']]],
      );
    });

    it('refuses null for an event, an unknown event and a non-object', () => {
      f.write('ws/.rivumi/hooks.json', '{"pre_tool_use": null, "on_save": []}');
      // pydantic's order: the fields, then the extra keys (model_fields.rs).
      assert.deepEqual(messages(index([f.path('ws')])), [
        'project hook config is invalid: pre_tool_use: Input should be a valid tuple',
        'project hook config is invalid: on_save: Extra inputs are not permitted',
      ]);
      f.write('ws/.rivumi/hooks.json', '[]');
      assert.deepEqual(messages(index([f.path('ws')])), ['project hook config must be a JSON object']);
    });

    it('refuses a hooks.json over 65536 bytes and a symlinked one', () => {
      f.write('ws/.rivumi/hooks.json', `{"pre_compact": []${' '.repeat(65536)}}`);
      assert.deepEqual(messages(index([f.path('ws')])), ['project hook config exceeds 65536 bytes']);
      f.write('ws/real.json', '{}');
      f.symlink('../real.json', 'ws/.rivumi/hooks.json.tmp');
      require('node:fs').renameSync(f.path('ws/.rivumi/hooks.json.tmp'), f.path('ws/.rivumi/hooks.json'));
      assert.deepEqual(messages(index([f.path('ws')])), ['project hook config must be a regular file']);
    });

    it('covers the scripts a hook runs: editing hook.py changes the hooks content hash', () => {
      f.write('ws/.rivumi/hooks.json', json({ pre_tool_use: [{ command: ['python', 'scripts/hook.py'] }] }));
      f.write('ws/scripts/hook.py', 'print(1)\n');
      const a = byName(index([f.path('ws')]), 'hooks.json');
      f.write('ws/scripts/hook.py', 'print(2)\n');
      const b = byName(index([f.path('ws')]), 'hooks.json');
      assert.notEqual(a.contentHash, b.contentHash);
      assert.equal(a.capabilityHash, b.capabilityHash);
      assert.deepEqual(
        a.detail.files?.map((x) => x.path),
        ['.rivumi/hooks.json', 'scripts/hook.py'],
      );
    });
  });

  describe('plugins', () => {
    const local = {
      name: 'local',
      description: 'Local review plugin',
      discovery: {
        keywords: ['review', 'risk'],
        homepage: 'https://example.com/rivumi/review',
        repository: 'https://example.com/rivumi/review.git',
        license: 'MIT',
        author: 'Rivumi',
      },
      skills: [{ path: 'review.md' }],
      hooks: { pre_tool_use: [{ command: ['python', 'hook.py'], tools: ['read_file'] }] },
    };

    it('loads a plugin with discovery fields, a namespaced skill and a hook (upstream test 8)', () => {
      f.write(
        'ws/.rivumi/plugins/review.md',
        '---\nname: review\ndescription: Packaged review\n---\nCheck packaged risks.',
      );
      f.write('ws/.rivumi/plugins/local.json', json(local));
      const p = loadRivumiProject(f.path('ws'));
      const plugin = p.plugins[0];
      assert.equal(plugin?.name, 'local');
      assert.deepEqual(plugin?.discovery, local.discovery);
      assert.equal(plugin?.skills[0]?.qualifiedName, 'local.review');
      assert.equal(plugin?.skills[0]?.body, 'Check packaged risks.');
      assert.deepEqual(
        plugin?.hooks.map((h) => [h.argv, h.tools]),
        [[['python', 'hook.py'], ['read_file']]],
      );
      const s = index([f.path('ws')]);
      // Rivumi loads it whatever Skillgate's trust says (decisions.md): a loaded, unreviewed risk.
      assert.deepEqual(
        [byName(s, 'local').decision, byName(s, 'local').reasons],
        ['registered', ['loaded_unreviewed', 'not_reviewed']],
      );
      assert.deepEqual(
        [byName(s, 'local.review').decision, byName(s, 'local.review').reasons],
        ['registered', ['loaded_unreviewed', 'not_reviewed']],
      );
      assert.match(byName(s, 'local').contentHash ?? '', /^[0-9a-f]{64}$/);
    });

    it('refuses a skill path outside the manifest directory (upstream test 9)', () => {
      f.write('ws/.rivumi/plugins/bad.json', '{"name":"bad","skills":[{"path":"../outside.md"}]}');
      const s = index([f.path('ws')]);
      assert.ok(messages(s).some((m) => m.includes('manifest-relative')));
      assert.deepEqual(byName(s, 'bad').reasons, ['manifest_invalid', 'not_reviewed']);
    });

    it('refuses duplicate keywords and a file: homepage (upstream test 10)', () => {
      f.write(
        'ws/.rivumi/plugins/k.json',
        json({ name: 'k', discovery: { keywords: ['review', 'review'], homepage: 'file:///tmp/plugin' } }),
      );
      const m = messages(index([f.path('ws')]));
      assert.ok(
        m.every((x) => x.startsWith('project plugin manifest is invalid: k.json: ')),
        m.join('\n'),
      );
      assert.ok(m.some((x) => x.includes('plugin discovery keywords cannot contain duplicates')));
      assert.ok(m.some((x) => x.includes('plugin discovery URL must be http(s)')));
    });

    it('rejects a manifest with a BOM as not UTF-8 JSON', () => {
      f.write('ws/.rivumi/plugins/pk.json', '\ufeff{"name":"pk"}');
      assert.deepEqual(messages(index([f.path('ws')])), ['project plugin manifest must be UTF-8 JSON: pk.json']);
    });

    it('accepts NaN as JSON like Python does, then fails the schema', () => {
      f.write('ws/.rivumi/plugins/pk.json', '{"name":"pk","description":NaN}');
      assert.deepEqual(messages(index([f.path('ws')])), [
        'project plugin manifest is invalid: pk.json: description: Input should be a valid string',
      ]);
    });

    it('defaults the name to the stem only when the key is absent', () => {
      f.write('ws/.rivumi/plugins/stem.json', '{}');
      assert.equal(byName(index([f.path('ws')]), 'stem').decision, 'registered');
      f.write('ws/.rivumi/plugins/nul.json', '{"name": null}');
      const s = index([f.path('ws')]);
      assert.deepEqual(byName(s, 'nul').reasons, ['manifest_invalid', 'not_reviewed']);
      // Fail-fast: the bad manifest aborts the load that the valid one is part of.
      assert.deepEqual(byName(s, 'stem').reasons, ['load_aborted', 'not_reviewed']);
    });

    it('fails the whole load on a combined name over 64 characters', () => {
      f.write('ws/.rivumi/plugins/p.json', json({ name: 'p'.repeat(40), skills: [{ path: 'a.md' }] }));
      f.write('ws/.rivumi/plugins/a.md', `---\nname: ${'s'.repeat(30)}\n---\nbody`);
      const s = index([f.path('ws')]);
      assert.ok(messages(s).includes(`plugin skill name exceeds 64 characters: ${'p'.repeat(40)}.${'s'.repeat(30)}`));
    });

    it('yields two pk.x skills for a path listed twice, and pk.a / other.a for a shared file', () => {
      f.write('ws/.rivumi/plugins/x.md', 'body');
      f.write('ws/.rivumi/plugins/a.md', 'body');
      f.write(
        'ws/.rivumi/plugins/pk.json',
        json({ name: 'pk', skills: [{ path: 'x.md' }, { path: 'x.md' }, { path: 'a.md' }] }),
      );
      f.write('ws/.rivumi/plugins/other.json', json({ name: 'other', skills: [{ path: 'a.md' }] }));
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        p.plugins.flatMap((x) => x.skills.map((s) => s.qualifiedName)),
        ['other.a', 'pk.x', 'pk.x', 'pk.a'],
      );
    });

    it('lets a plugin file symlink into the repository pass stage 2, then fails the skill load', () => {
      f.write('ws/docs/real.md', 'body');
      f.symlink('../../docs/real.md', 'ws/.rivumi/plugins/link.md');
      f.write('ws/.rivumi/plugins/pk.json', json({ name: 'pk', skills: [{ path: 'link.md' }] }));
      const s = index([f.path('ws')]);
      assert.ok(messages(s).includes('project skill must be a regular markdown file: link.md'));
      // Its own skill file fails the skill load, so Rivumi loads nothing of pk.
      assert.deepEqual(
        [byName(s, 'pk').decision, byName(s, 'pk').reasons],
        ['rejected', ['load_aborted', 'not_reviewed']],
      );
    });

    it('refuses a plugin skill symlink that leaves the repository', () => {
      f.write('outside.md', 'body');
      f.symlink('../../../outside.md', 'ws/.rivumi/plugins/out.md');
      f.write('ws/.rivumi/plugins/pk.json', json({ name: 'pk', skills: [{ path: 'out.md' }] }));
      assert.ok(messages(index([f.path('ws')])).includes('plugin skill path must stay inside repository'));
    });

    it("resolves a dangling plugin skill link to its target, as Python's Path.resolve does: outside is outside", () => {
      // posixpath.realpath (strict=False) follows a link whose target is missing: the target
      // leaves the repository, so Rivumi says so, not that the file is missing.
      f.symlink('../../../nowhere.md', 'ws/.rivumi/plugins/out.md');
      f.mkdir('elsewhere');
      f.symlink('../../../elsewhere', 'ws/.rivumi/plugins/d');
      f.write('ws/.rivumi/plugins/a.json', json({ name: 'a', skills: [{ path: 'out.md' }] }));
      f.write('ws/.rivumi/plugins/b.json', json({ name: 'b', skills: [{ path: 'd/missing.md' }] }));
      f.symlink('nowhere.md', 'ws/.rivumi/plugins/in.md');
      f.write('ws/.rivumi/plugins/c.json', json({ name: 'c', skills: [{ path: 'in.md' }] }));
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        p.plugins.map((x) => [x.name, x.error?.message]),
        [
          ['a', 'plugin skill path must stay inside repository'],
          ['b', 'plugin skill path must stay inside repository'],
          ['c', 'plugin skill file is missing: in.md'],
        ],
      );
    });

    it('breaks both loads with one bad manifest', () => {
      f.write('ws/.rivumi/skills/s.md', 'body');
      f.write('ws/.rivumi/hooks.json', json({ pre_compact: [{ command: ['a'] }] }));
      f.write('ws/.rivumi/plugins/bad.json', '{"name": "bad", "surprise": 1}');
      const s = index([f.path('ws')], { rivumiHooksEnv: '1' });
      assert.deepEqual(byName(s, 's').reasons, ['load_aborted']);
      assert.deepEqual(byName(s, 'hooks.json').reasons, ['load_aborted', 'not_reviewed']);
      assert.deepEqual(byName(s, 'bad').reasons, ['manifest_invalid', 'not_reviewed']);
    });

    it('merges hooks in that order itself: an entry of b.json (plugin aa) validates after a.json (plugin zz)', () => {
      f.write('ws/.rivumi/hooks.json', json({ pre_tool_use: [{ command: ['project'] }] }));
      f.write('ws/.rivumi/plugins/a.json', json({ name: 'zz', hooks: { pre_tool_use: [{ command: ['zz'] }] } }));
      f.write(
        'ws/.rivumi/plugins/b.json',
        json({ name: 'aa', hooks: { pre_tool_use: [{ command: ['aa'], surprise: 1 }] } }),
      );
      const s = index([f.path('ws')], { rivumiHooksEnv: '1' });
      assert.deepEqual(
        messages(s).filter((m) => !m.startsWith('Rivumi aborts')),
        ['project hook config is invalid: pre_tool_use.2.surprise: Extra inputs are not permitted'],
      );
    });

    it('orders merged hooks: project, then plugins by manifest file name', () => {
      f.write('ws/.rivumi/hooks.json', json({ pre_tool_use: [{ command: ['project'] }] }));
      f.write('ws/.rivumi/plugins/b.json', json({ name: 'b', hooks: { pre_tool_use: [{ command: ['b'] }] } }));
      f.write('ws/.rivumi/plugins/a.json', json({ name: 'a', hooks: { pre_tool_use: [{ command: ['a'] }] } }));
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        [...(p.hooksFile?.hooks ?? []), ...p.plugins.flatMap((x) => x.hooks)].map((h) => h.argv[0]),
        ['project', 'a', 'b'],
      );
    });

    it('fails the hook load on 15 project + 2 plugin entries; every hook of the overflowing plugin is manifest_invalid (decisions.md), the rest aborted', () => {
      f.write(
        'ws/.rivumi/hooks.json',
        json({ pre_tool_use: Array.from({ length: 15 }, (_, i) => ({ command: [`p${i}`] })) }),
      );
      f.write(
        'ws/.rivumi/plugins/pk.json',
        json({ name: 'pk', hooks: { pre_tool_use: [{ command: ['x'] }, { command: ['y'] }] } }),
      );
      const s = index([f.path('ws')], { rivumiHooksEnv: '1' });
      assert.deepEqual(byName(s, 'pk.pre_tool_use.0').reasons, ['manifest_invalid']);
      assert.deepEqual(byName(s, 'pk.pre_tool_use.1').reasons, ['manifest_invalid']);
      assert.deepEqual(byName(s, 'project.pre_tool_use.0').reasons, ['load_aborted']);
      assert.deepEqual(byName(s, 'hooks.json').reasons, ['load_aborted', 'not_reviewed']);
      assert.ok(codes(s).includes('rivumi.hooks.too-many'));
      assert.ok(
        messages(s).includes(
          'project hook config is invalid: pre_tool_use: Tuple should have at most 16 items after validation, not 17 (after plugin hooks are merged)',
        ),
      );
    });

    it("warns when the opt-in is set and a plugin's hooks are not trusted", () => {
      f.write('ws/.rivumi/plugins/pk.json', json({ name: 'pk', hooks: { pre_compact: [{ command: ['true'] }] } }));
      assert.deepEqual(codes(index([f.path('ws')])), []);
      const s = index([f.path('ws')], { rivumiHooksEnv: '1' });
      assert.deepEqual(codes(s), ['rivumi.hooks.opted-in-untrusted']);
      assert.match(
        messages(s)[0] ?? '',
        /runs this plugin's 1 hook command\(s\) although the plugin is not reviewed in Skillgate: pre_compact: true$/,
      );
    });

    it('refuses non-array plugin hook entries in the hook load only', () => {
      f.write('ws/.rivumi/plugins/pk.json', json({ name: 'pk', hooks: { pre_tool_use: { command: ['x'] } } }));
      const s = index([f.path('ws')]);
      assert.deepEqual(
        s.diagnostics.map((d) => [d.severity, d.message]),
        [['warning', 'plugin hook entries must be arrays']],
      );
      assert.deepEqual(byName(s, 'pk').reasons, ['loaded_unreviewed', 'not_reviewed']);
      const on = index([f.path('ws')], { rivumiHooksEnv: '1' });
      assert.deepEqual(
        on.diagnostics.map((d) => [d.severity, d.message]),
        [['error', 'plugin hook entries must be arrays']],
      );
    });

    it('reads at most 16 manifests; the 17th is display only and never read', () => {
      for (let i = 0; i < 17; i++)
        f.write(
          `ws/.rivumi/plugins/p${String(i).padStart(2, '0')}.json`,
          i === 16 ? '{broken' : json({ name: `p${i}` }),
        );
      const s = index([f.path('ws')]);
      assert.deepEqual(byName(s, 'p16').reasons, ['plugin_limit_exceeded', 'not_reviewed']);
      assert.deepEqual(codes(s), ['rivumi.plugin.not-loaded']);
    });

    it('stops appending plugin skills at 16 in all', () => {
      for (let i = 0; i < 15; i++) f.write(`ws/.rivumi/skills/s${String(i).padStart(2, '0')}.md`, 'body');
      f.write('ws/.rivumi/plugins/a.md', 'body');
      f.write('ws/.rivumi/plugins/b.md', '---\nbroken: yes\n---\nbody');
      f.write('ws/.rivumi/plugins/pk.json', json({ name: 'pk', skills: [{ path: 'a.md' }, { path: 'b.md' }] }));
      const s = index([f.path('ws')]);
      assert.deepEqual(byName(s, 'pk.a').reasons, ['loaded_unreviewed', 'not_reviewed']);
      assert.deepEqual(byName(s, 'pk.b').reasons, ['skill_limit_exceeded']);
      // Never opened, so its broken front matter is no error; like a project skill past the cap,
      // it says why it is only shown, on its own file.
      assert.deepEqual(
        s.diagnostics.map((d) => [d.code, d.severity, d.file, d.itemId, d.message]),
        [
          [
            'rivumi.skill.not-loaded',
            'information',
            f.path('ws/.rivumi/plugins/b.md'),
            byName(s, 'pk.b').id,
            'Rivumi loads at most 16 skills; skills[1] of plugin pk (.rivumi/plugins/b.md) is past them and never loaded',
          ],
        ],
      );
    });

    it('names the entry past the cap, not an earlier entry of the same file that loads', () => {
      for (let i = 0; i < 15; i++) f.write(`ws/.rivumi/skills/s${String(i).padStart(2, '0')}.md`, 'body');
      f.write('ws/.rivumi/plugins/a.md', 'body');
      f.write('ws/.rivumi/plugins/pk.json', json({ name: 'pk', skills: [{ path: 'a.md' }, { path: './a.md' }] }));
      const s = index([f.path('ws')]);
      const [loaded, past] = s.items.filter((i) => i.qualifiedName === 'pk.a');
      assert.deepEqual(
        [loaded?.decision, past?.decision, past?.reasons],
        ['registered', 'display_only', ['skill_limit_exceeded']],
      );
      assert.deepEqual(
        s.diagnostics.map((d) => [d.code, d.itemId]),
        [['rivumi.skill.not-loaded', past?.id]],
      );
    });
  });
});
