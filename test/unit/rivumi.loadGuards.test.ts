import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { Fixture } from './helpers/fixture';
import { loadRivumiProject } from '../../src/core/systems/rivumi/load';
import { MAX_SKILL_CONTEXT_BYTES, renderSkillSection } from '../../src/core/systems/rivumi/promptSection';
import type { Range } from '../../src/core/model';

const json = (v: unknown) => JSON.stringify(v, null, 2);
const range = (line: number, from: number, to: number, endLine = line): Range => ({
  start: { line, character: from },
  end: { line: endLine, character: to },
});
const arrays = (n: number) => '['.repeat(n) + ']'.repeat(n);

/**
 * The guards of Rivumi's two loads that the scenario tests pass through without stating
 * (rivumi.md §2, §3, §4.4, §5.4, §6): listing order and the caps it decides, the record
 * each unread or refused file still gets, Python's nesting limit, where each hook
 * finding points, and which findings a refused file must not cause.
 */
describe('Rivumi loads: order, records of refused files, nesting and where findings point', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  describe('listing order (§2 "Order") decides which files the caps leave unread', () => {
    it('sorts skill files by code point whatever order the directory lists them in', () => {
      for (const n of ['a', 'Z', '0', 'B']) f.write(`ws/.rivumi/skills/${n}.md`, 'body');
      assert.deepEqual(
        loadRivumiProject(f.path('ws')).skills.map((s) => s.name),
        ['0', 'B', 'Z', 'a'],
      );
    });
    it('leaves the 17th skill by name unread even when it was written first', () => {
      const letters = 'abcdefghijklmnopq'.split('');
      for (const n of [...letters].reverse()) f.write(`ws/.rivumi/skills/${n}.md`, 'body');
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        p.skills.filter((s) => s.state === 'beyond_cap').map((s) => s.name),
        ['q'],
      );
    });
    it('leaves the 17th manifest by name unread even when it was written first', () => {
      const letters = 'abcdefghijklmnopq'.split('');
      for (const n of [...letters].reverse()) f.write(`ws/.rivumi/plugins/${n}.json`, '{}');
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        p.plugins.filter((x) => x.state === 'beyond_cap').map((x) => x.name),
        ['q'],
      );
    });
    it('orders a name with byte 0xFF (U+DCFF, as Python decodes it) before a non-BMP character', () => {
      // In bytes F0 (the emoji's first) comes before FF; in code points U+DCFF comes first.
      const dir = f.mkdir('ws/.rivumi/skills');
      fs.writeFileSync(Buffer.from(`${dir}/x\u{1F600}.md`), 'body');
      fs.writeFileSync(Buffer.concat([Buffer.from(`${dir}/x`), Buffer.from([0xff]), Buffer.from('.md')]), 'body');
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        p.skills.map((s) => s.name),
        ['x\udcff', 'x\u{1F600}'],
      );
      assert.equal(p.skillLoad?.message, "invalid project skill name: 'x\\udcff'");
    });
  });

  describe('the record of a file that is refused or never read', () => {
    it('gives a manifest past the cap its stem and nothing else', () => {
      for (let i = 0; i < 17; i++) f.write(`ws/.rivumi/plugins/p${String(i).padStart(2, '0')}.json`, '{}');
      const p = loadRivumiProject(f.path('ws')).plugins[16];
      assert.deepEqual(p, {
        name: 'p16',
        file: f.path('ws/.rivumi/plugins/p16.json'),
        canonicalFile: f.path('ws/.rivumi/plugins/p16.json'),
        fileName: 'p16.json',
        source: '.rivumi/plugins/p16.json',
        state: 'beyond_cap',
        description: '',
        discovery: {},
        skills: [],
        hooks: [],
      });
    });
    it('gives a skill past the cap no description and no body', () => {
      for (let i = 0; i < 17; i++) f.write(`ws/.rivumi/skills/s${String(i).padStart(2, '0')}.md`, 'body');
      const s = loadRivumiProject(f.path('ws')).skills[16];
      assert.deepEqual(
        [s?.name, s?.qualifiedName, s?.state, s?.description, s?.body, s?.plugin],
        ['s16', 's16', 'beyond_cap', '', '', null],
      );
    });
    it('keeps no description or body of a refused skill, and names a refused plugin skill <plugin>.<stem>', () => {
      f.write('ws/.rivumi/skills/a.md', '---\ndescription: kept?\n---\n   ');
      f.write('ws/.rivumi/plugins/b.md', '---\ndescription: kept?\nbogus: 1\n---\nbody');
      f.write('ws/.rivumi/plugins/pk.json', json({ skills: [{ path: 'b.md' }] }));
      const p = loadRivumiProject(f.path('ws'));
      const a = p.skills[0];
      const b = p.plugins[0]?.skills[0];
      assert.deepEqual([a?.state, a?.qualifiedName, a?.description, a?.body], ['invalid', 'a', '', '']);
      assert.deepEqual(
        [b?.state, b?.name, b?.qualifiedName, b?.description, b?.body, b?.plugin],
        ['invalid', 'b', 'pk.b', '', '', 'pk'],
      );
    });
    it('gives an unreadable manifest its stem, no description, skills or hooks', () => {
      f.write('ws/.rivumi/plugins/pk.json', '{"description": "d", "hooks": {"pre_compact": [{"command": ["x"]}]}');
      const p = loadRivumiProject(f.path('ws')).plugins[0];
      assert.deepEqual(
        [p?.name, p?.state, p?.description, p?.discovery, p?.skills, p?.hooks, p?.error?.message],
        ['pk', 'invalid', '', {}, [], [], 'project plugin manifest must be UTF-8 JSON: pk.json'],
      );
    });
    it("defaults a valid manifest's description to empty", () => {
      f.write('ws/.rivumi/plugins/pk.json', '{}');
      const p = loadRivumiProject(f.path('ws')).plugins[0];
      assert.deepEqual([p?.state, p?.description], ['valid', '']);
    });
    it('reads no skill of a manifest whose later skill path fails stage 2, and counts none toward the cap', () => {
      f.write('ws/.rivumi/plugins/a.md', 'body');
      f.write('ws/.rivumi/plugins/pk.json', json({ skills: [{ path: 'a.md' }, { path: 'gone.md' }] }));
      f.write('ws/.rivumi/plugins/z.md', '   ');
      const p = loadRivumiProject(f.path('ws'));
      const pk = p.plugins[0];
      assert.deepEqual(
        [pk?.state, pk?.error?.message, pk?.skills],
        ['invalid', 'plugin skill file is missing: gone.md', []],
      );
      assert.equal(p.skillLoad?.message, 'plugin skill file is missing: gone.md');
    });
    it('marks a manifest whose skill leaves the repository invalid, at the path value', () => {
      f.write('outside.md', 'body');
      f.symlink('../../../outside.md', 'ws/.rivumi/plugins/out.md');
      f.write('ws/.rivumi/plugins/pk.json', '{\n  "skills": [\n    {"path": "out.md"}\n  ]\n}');
      const pk = loadRivumiProject(f.path('ws')).plugins[0];
      assert.deepEqual(
        [pk?.state, pk?.error?.message, pk?.error?.range],
        ['invalid', 'plugin skill path must stay inside repository', range(2, 13, 21)],
      );
    });
    it('points a missing skill file at its path value', () => {
      f.write('ws/.rivumi/plugins/pk.json', '{\n  "skills": [\n    {"path": "gone.md"}\n  ]\n}');
      const pk = loadRivumiProject(f.path('ws')).plugins[0];
      assert.deepEqual(pk?.error?.range, range(2, 13, 22));
    });
    it('fails both loads on a skill path with a lone surrogate (pydantic reads the str as UTF-8 first), at the path value', () => {
      f.write('ws/.rivumi/plugins/pk.json', '{\n  "skills": [\n    {"path": "\\ud800.md"}\n  ]\n}');
      const p = loadRivumiProject(f.path('ws'));
      const pk = p.plugins[0];
      // pydantic-core's string_unicode (its test_string.py, test_unicode_error), before the path is ever opened.
      const message =
        'project plugin manifest is invalid: pk.json: skills.0.path: Input should be a valid string, unable to parse raw data as a unicode string';
      assert.deepEqual(
        [pk?.state, pk?.error?.code, pk?.error?.message, pk?.error?.range],
        ['invalid', 'rivumi.plugin.invalid', message, range(2, 13, 24)],
      );
      assert.deepEqual([p.skillLoad?.message, p.hookLoad?.message], [message, message]);
    });
  });

  describe('manifest checks (§5.4)', () => {
    it('refuses a top-level array, null, a number or a string as not an object, pointing at the value', () => {
      f.write('ws/.rivumi/plugins/a.json', '\n\n[]');
      f.write('ws/.rivumi/plugins/b.json', 'null');
      f.write('ws/.rivumi/plugins/c.json', '5');
      f.write('ws/.rivumi/plugins/d.json', '"x"');
      const [a, ...rest] = loadRivumiProject(f.path('ws')).plugins;
      assert.deepEqual(a?.error?.range, range(2, 0, 2));
      assert.deepEqual(
        [a, ...rest].map((p) => [p.state, p.error?.message]),
        ['a', 'b', 'c', 'd'].map((n) => ['invalid', `project plugin manifest must be an object: ${n}.json`]),
      );
    });
    it('puts every schema error after the first in the manifest, an extra key at its key', () => {
      f.write('ws/.rivumi/plugins/pk.json', '{\n  "a": 1,\n  "description": 5,\n  "b": 2,\n  "name": 7\n}');
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        p.diagnostics.map((d) => [d.file, d.message, d.range]),
        [
          [
            f.path('ws/.rivumi/plugins/pk.json'),
            'project plugin manifest is invalid: pk.json: name: Input should be a valid string',
            range(4, 10, 11),
          ],
          [
            f.path('ws/.rivumi/plugins/pk.json'),
            'project plugin manifest is invalid: pk.json: description: Input should be a valid string',
            range(2, 17, 18),
          ],
          [
            f.path('ws/.rivumi/plugins/pk.json'),
            'project plugin manifest is invalid: pk.json: a: Extra inputs are not permitted',
            range(1, 2, 5),
          ],
          [
            f.path('ws/.rivumi/plugins/pk.json'),
            'project plugin manifest is invalid: pk.json: b: Extra inputs are not permitted',
            range(3, 2, 5),
          ],
        ],
      );
    });
  });

  describe("Python's json nesting limit (RecursionError, refused past 512 levels)", () => {
    it('parses a manifest of 512 levels and refuses 513 with the RecursionError, failing both loads', () => {
      f.write('ws/.rivumi/plugins/pk.json', arrays(512));
      assert.equal(
        loadRivumiProject(f.path('ws')).plugins[0]?.error?.message,
        'project plugin manifest must be an object: pk.json',
      );
      f.write('ws/.rivumi/plugins/pk.json', arrays(513));
      const p = loadRivumiProject(f.path('ws'));
      const message =
        "project plugin manifest cannot be parsed by Python's json: pk.json: RecursionError: maximum recursion depth exceeded while decoding a JSON array from a unicode string";
      assert.deepEqual(
        [p.plugins[0]?.error?.message, p.skillLoad?.message, p.hookLoad?.message],
        [message, message, message],
      );
    });
    it('parses hooks.json of 512 levels and refuses 513, keeping the file record, hashed and invalid', () => {
      const hooks = (n: number) => `{"pre_compact": ${arrays(n - 1)}}`;
      f.write('ws/.rivumi/hooks.json', hooks(512));
      assert.equal(
        loadRivumiProject(f.path('ws')).hookLoad?.message,
        'project hook config is invalid: pre_compact.0: Input should be a valid dictionary',
      );
      f.write('ws/.rivumi/hooks.json', hooks(513));
      const p = loadRivumiProject(f.path('ws'));
      const message =
        "project hook config cannot be parsed by Python's json: RecursionError: maximum recursion depth exceeded while decoding a JSON array from a unicode string";
      assert.deepEqual(
        [p.hookLoad?.message, p.hooksFile?.valid, p.hooksFile?.error?.message, p.skillLoad],
        [message, false, message, null],
      );
      assert.match(p.hooksFile?.hashes?.contentHash ?? '', /^[0-9a-f]{64}$/);
    });
  });

  describe("Python's int() digit limit (ValueError past 4300 digits)", () => {
    const tooLong =
      'ValueError: Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; use sys.set_int_max_str_digits() to increase the limit';
    it('refuses a manifest holding a 4301-digit integer, even where Rivumi ignores the value, failing both loads', () => {
      f.write('ws/.rivumi/plugins/a.md', 'body');
      // An unknown event key of a plugin's hooks is ignored: only the parse can fail here.
      const manifest = (n: number) =>
        `{"name": "pk", "skills": [{"path": "a.md"}], "hooks": {"note": -${'9'.repeat(n)}}}`;
      f.write('ws/.rivumi/plugins/pk.json', manifest(4300));
      assert.equal(loadRivumiProject(f.path('ws')).skillLoad, null);
      f.write('ws/.rivumi/plugins/pk.json', manifest(4301));
      const p = loadRivumiProject(f.path('ws'));
      const message = `project plugin manifest cannot be parsed by Python's json: pk.json: ${tooLong}`;
      assert.deepEqual(
        [p.plugins[0]?.error?.message, p.skillLoad?.message, p.hookLoad?.message],
        [message, message, message],
      );
      // A float has no such limit.
      f.write('ws/.rivumi/plugins/pk.json', manifest(4301).replace('}}', '.0}}'));
      assert.equal(loadRivumiProject(f.path('ws')).skillLoad, null);
    });
    it('refuses hooks.json holding a 4301-digit integer, keeping the file record, hashed and invalid', () => {
      f.write(
        'ws/.rivumi/hooks.json',
        `{"pre_compact": [{"command": ["x"], "timeout_seconds": 1${'0'.repeat(4300)}}]}`,
      );
      const p = loadRivumiProject(f.path('ws'));
      const message = `project hook config cannot be parsed by Python's json: ${tooLong}`;
      assert.deepEqual(
        [p.hookLoad?.message, p.hooksFile?.valid, p.hooksFile?.error?.message],
        [message, false, message],
      );
      assert.match(p.hooksFile?.hashes?.contentHash ?? '', /^[0-9a-f]{64}$/);
    });
  });

  describe('hooks.json (§4.4 step 1): every refusal keeps a record of the file', () => {
    const refused = (content: string | Buffer | null, message: string) => {
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        [p.hookLoad?.message, p.hooksFile?.file, p.hooksFile?.valid, p.hooksFile?.error?.message, p.hooksFile?.hooks],
        [message, f.path('ws/.rivumi/hooks.json'), false, message, []],
        String(content),
      );
      return p;
    };
    it('refuses a directory, and a link to a valid file', () => {
      f.mkdir('ws/.rivumi/hooks.json');
      refused(null, 'project hook config must be a regular file');
      fs.rmdirSync(f.path('ws/.rivumi/hooks.json'));
      f.write('real.json', '{}');
      f.symlink('../../real.json', 'ws/.rivumi/hooks.json');
      refused(null, 'project hook config must be a regular file');
    });
    it('refuses 65537 bytes', () => {
      const body = '{"pre_compact": []}';
      f.write('ws/.rivumi/hooks.json', body + ' '.repeat(65537 - body.length));
      refused(null, 'project hook config exceeds 65536 bytes');
    });
    it('refuses a number, null, a string and an array at the top, pointing at the value', () => {
      for (const top of ['5', 'null', '"x"', '[]']) {
        f.write('ws/.rivumi/hooks.json', `\n${top}`);
        const p = refused(top, 'project hook config must be a JSON object');
        assert.deepEqual(p.hooksFile?.error?.range, range(1, 0, top.length), top);
      }
    });
    it('points a syntax error at the place the parser stopped, not the start of the file', () => {
      f.write('ws/.rivumi/hooks.json', '{\n  "pre_compact": [\n    {"command": ["x"]},\n    oops\n  ]\n}');
      const p = refused(null, 'project hook config is not valid UTF-8 JSON');
      assert.equal(p.hooksFile?.error?.range.start.line, 3);
    });
    it("reads NaN as Python's json does: the schema then refuses it as a timeout, at le (checked before gt)", () => {
      f.write('ws/.rivumi/hooks.json', '{"pre_compact": [{"command": ["x"], "timeout_seconds": NaN}]}');
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        [p.hookLoad?.message, p.hooksFile?.valid, p.hooksFile?.hooks.map((h) => [h.argv, h.valid])],
        [
          'project hook config is invalid: pre_compact.0.timeout_seconds: Input should be less than or equal to 30',
          false,
          [[['x'], false]],
        ],
      );
    });
  });

  describe('where each hook finding points (§4.3, §4.4)', () => {
    it('points an unknown event at its key, a null event at its value', () => {
      f.write('ws/.rivumi/hooks.json', '{\n  "on_save": [],\n  "pre_compact": null\n}');
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        p.diagnostics.map((d) => [d.message, d.range]),
        // pydantic's order: the fields, then the extra keys (model_fields.rs).
        [
          ['project hook config is invalid: pre_compact: Input should be a valid tuple', range(2, 17, 21)],
          ['project hook config is invalid: on_save: Extra inputs are not permitted', range(1, 2, 11)],
        ],
      );
      assert.equal(p.hooksFile?.error?.message, p.diagnostics[0]?.message);
    });
    it('points "project hook entries must be arrays" at the project event value', () => {
      f.write('ws/.rivumi/hooks.json', '{\n  "pre_compact": {}\n}');
      f.write('ws/.rivumi/plugins/pk.json', json({ hooks: { pre_compact: [{ command: ['x'] }] } }));
      const d = loadRivumiProject(f.path('ws')).diagnostics.find(
        (x) => x.message === 'project hook entries must be arrays',
      );
      assert.deepEqual([d?.file, d?.range], [f.path('ws/.rivumi/hooks.json'), range(1, 17, 19)]);
    });
    it("points a plugin's non-array event at it in the manifest, and keeps the first as the plugin's hook error", () => {
      f.write('ws/.rivumi/plugins/pk.json', '{\n  "hooks": {\n    "pre_tool_use": 1,\n    "pre_compact": "x"\n  }\n}');
      const p = loadRivumiProject(f.path('ws'));
      const pk = p.plugins[0];
      assert.deepEqual(
        p.diagnostics.map((d) => [d.file, d.message, d.range]),
        [
          [f.path('ws/.rivumi/plugins/pk.json'), 'plugin hook entries must be arrays', range(2, 20, 21)],
          [f.path('ws/.rivumi/plugins/pk.json'), 'plugin hook entries must be arrays', range(3, 19, 22)],
        ],
      );
      assert.equal(pk?.hookError, p.diagnostics[0]);
      assert.equal(p.hookLoad?.diagnostic, p.diagnostics[0]);
    });
    it("points a plugin's invalid entry at it in the manifest", () => {
      f.write(
        'ws/.rivumi/plugins/pk.json',
        '{\n  "hooks": {\n    "pre_compact": [\n      {"command": []}\n    ]\n  }\n}',
      );
      const d = loadRivumiProject(f.path('ws')).diagnostics[0];
      assert.deepEqual(
        [d?.file, d?.message, d?.range],
        [
          f.path('ws/.rivumi/plugins/pk.json'),
          'project hook config is invalid: pre_compact.0.command: Tuple should have at least 1 item after validation, not 0',
          range(3, 18, 20),
        ],
      );
    });
    it('names an entry that is not an object by its event and position alone', () => {
      f.write('ws/.rivumi/hooks.json', json({ pre_tool_use: [5] }));
      assert.equal(
        loadRivumiProject(f.path('ws')).hookLoad?.message,
        'project hook config is invalid: pre_tool_use.0: Input should be a valid dictionary',
      );
    });
    it('joins a nested field path with dots', () => {
      f.write('ws/.rivumi/hooks.json', json({ pre_tool_use: [{ command: ['x'], tools: ['a', 5] }] }));
      assert.equal(
        loadRivumiProject(f.path('ws')).hookLoad?.message,
        'project hook config is invalid: pre_tool_use.0.tools.1: Input should be a valid string',
      );
    });
    it('keeps an extra key that holds ": " whole in the message', () => {
      f.write('ws/.rivumi/hooks.json', json({ pre_tool_use: [{ command: ['x'], 'a: b': 1 }] }));
      assert.equal(
        loadRivumiProject(f.path('ws')).hookLoad?.message,
        'project hook config is invalid: pre_tool_use.0.a: b: Extra inputs are not permitted',
      );
    });
    it('tells a command of the wrong type from a missing one', () => {
      f.write('ws/.rivumi/hooks.json', json({ pre_tool_use: [{ command: 5 }, { tools: [] }] }));
      assert.deepEqual(
        loadRivumiProject(f.path('ws')).diagnostics.map((d) => d.message),
        [
          'project hook config is invalid: pre_tool_use.0.command: Input should be a valid tuple',
          'project hook config is invalid: pre_tool_use.1.command: Field required',
        ],
      );
    });
    it('points a bad value at the value and an extra key at the key', () => {
      f.write(
        'ws/.rivumi/hooks.json',
        '{\n  "pre_compact": [\n    {"command": ["x"], "timeout_seconds": 31, "env": {}}\n  ]\n}',
      );
      assert.deepEqual(
        loadRivumiProject(f.path('ws')).diagnostics.map((d) => [d.message, d.range]),
        [
          [
            'project hook config is invalid: pre_compact.0.timeout_seconds: Input should be less than or equal to 30',
            range(2, 42, 44),
          ],
          ['project hook config is invalid: pre_compact.0.env: Extra inputs are not permitted', range(2, 46, 51)],
        ],
      );
    });
    it('puts an argv element trust cannot cover at that element, in hooks.json or in the manifest', () => {
      f.write('ws/real.sh', 'echo');
      f.symlink('real.sh', 'ws/link.sh');
      f.write('ws/.rivumi/hooks.json', '{\n  "pre_compact": [\n    {"command": ["sh", "link.sh"]}\n  ]\n}');
      f.write(
        'ws/.rivumi/plugins/pk.json',
        '{\n  "hooks": {\n    "pre_compact": [\n      {"command": ["sh", "link.sh"]}\n    ]\n  }\n}',
      );
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        p.diagnostics.map((d) => [d.code, d.file, d.range]),
        [
          ['rivumi.hook.argv-uncovered', f.path('ws/.rivumi/hooks.json'), range(2, 23, 32)],
          ['rivumi.hook.argv-uncovered', f.path('ws/.rivumi/plugins/pk.json'), range(3, 25, 34)],
        ],
      );
      assert.deepEqual(
        [p.hooksFile?.hooks[0]?.at, p.plugins[0]?.hooks[0]?.at],
        [
          { file: f.path('ws/.rivumi/hooks.json'), path: ['pre_compact', 0] },
          { file: f.path('ws/.rivumi/plugins/pk.json'), path: ['hooks', 'pre_compact', 0] },
        ],
      );
    });
    it('leaves no hook error on a plugin whose hooks are valid', () => {
      f.write('ws/.rivumi/hooks.json', json({ pre_compact: [{ command: [] }] }));
      f.write('ws/.rivumi/plugins/pk.json', json({ hooks: { pre_compact: [{ command: ['x'] }] } }));
      const p = loadRivumiProject(f.path('ws'));
      assert.equal(p.hookLoad?.file, f.path('ws/.rivumi/hooks.json'));
      assert.equal(Object.hasOwn(p.plugins[0] ?? {}, 'hookError'), false);
      assert.deepEqual(
        [p.hooksFile?.valid, p.hooksFile?.error?.message],
        [
          false,
          'project hook config is invalid: pre_compact.0.command: Tuple should have at least 1 item after validation, not 0',
        ],
      );
    });
  });

  describe('the combined plugin skill name (§3.4 step 9) at its boundary', () => {
    it('accepts a project skill name of 64 characters: only plugin skills get a prefix', () => {
      const name = 'n'.repeat(64);
      f.write(`ws/.rivumi/skills/${name}.md`, 'body');
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual([p.skills[0]?.state, p.skillLoad, p.diagnostics], ['valid', null, []]);
    });
    it('checks the combined name only of a skill whose own checks pass: a blank body is the one error', () => {
      f.write('ws/.rivumi/plugins/s.md', '   ');
      // p × 64 + ".s" is 66 characters: over the limit, yet the blank body is the one error.
      f.write('ws/.rivumi/plugins/pk.json', json({ name: 'p'.repeat(64), skills: [{ path: 's.md' }] }));
      assert.deepEqual(
        loadRivumiProject(f.path('ws')).diagnostics.map((d) => d.code),
        ['rivumi.skill.body'],
      );
    });
    it('accepts <plugin>.<skill> of 64 characters and refuses 65', () => {
      f.write('ws/.rivumi/plugins/s.md', `---\nname: ${'s'.repeat(31)}\n---\nbody`);
      f.write('ws/.rivumi/plugins/pk.json', json({ name: 'p'.repeat(32), skills: [{ path: 's.md' }] }));
      assert.equal(loadRivumiProject(f.path('ws')).plugins[0]?.skills[0]?.state, 'valid');
      f.write('ws/.rivumi/plugins/s.md', `---\nname: ${'s'.repeat(32)}\n---\nbody`);
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        [p.plugins[0]?.skills[0]?.state, p.skillLoad?.message, p.skillLoad?.diagnostic.range.start.line],
        ['invalid', `plugin skill name exceeds 64 characters: ${'p'.repeat(32)}.${'s'.repeat(32)}`, 1],
      );
    });
  });

  describe('warnings only about what loads', () => {
    it('does not call a refused skill a duplicate of a loaded one with its name', () => {
      f.write('ws/.rivumi/skills/a.md', '---\nname: b\n---\nbody');
      f.write('ws/.rivumi/skills/b.md', '   ');
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        p.diagnostics.map((d) => d.code),
        ['rivumi.skill.body'],
      );
    });
    it('names the earlier skill where the duplicate name is first defined', () => {
      f.write('ws/.rivumi/skills/a.md', '---\nname: b\n---\nbody');
      f.write('ws/.rivumi/skills/b.md', 'body');
      const d = loadRivumiProject(f.path('ws')).diagnostics[0];
      assert.deepEqual(d?.related, [
        { file: f.path('ws/.rivumi/skills/a.md'), range: range(0, 0, 0), message: 'b is first defined here' },
      ]);
    });
    it('does not call a refused manifest a duplicate of a loaded plugin with its name', () => {
      f.write('ws/.rivumi/plugins/a.json', json({ name: 'b' }));
      f.write('ws/.rivumi/plugins/b.json', '{');
      assert.deepEqual(
        loadRivumiProject(f.path('ws')).diagnostics.map((d) => d.message),
        ['project plugin manifest must be UTF-8 JSON: b.json'],
      );
    });
    it('leaves skills past the cap out of the rendered size: 16 skills of exactly 16000 bytes and a 17th unread', () => {
      const skill = (i: number, body: string) => ({
        qualifiedName: `s${String(i).padStart(2, '0')}`,
        description: '',
        body,
      });
      const base = Buffer.byteLength(renderSkillSection(Array.from({ length: 16 }, (_, i) => skill(i, 'x'))));
      const last = 'x'.repeat(1 + MAX_SKILL_CONTEXT_BYTES - base);
      for (let i = 0; i < 16; i++) f.write(`ws/.rivumi/skills/${skill(i, '').qualifiedName}.md`, i === 15 ? last : 'x');
      assert.deepEqual(loadRivumiProject(f.path('ws')).diagnostics, []);
      f.write('ws/.rivumi/skills/s16.md', 'x');
      assert.deepEqual(
        loadRivumiProject(f.path('ws')).diagnostics.map((d) => d.code),
        ['rivumi.skill.not-loaded'],
      );
    });
  });
});
