import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { Fixture } from './helpers/fixture';
import { hookCommand, pluginManifest, pydanticDetails } from '../../src/core/systems/rivumi/schemas';
import { installPlugin } from '../../src/core/systems/rivumi/install';
import { loadRivumiProject } from '../../src/core/systems/rivumi/load';
import { REPORT_INPUT } from '../../src/core/documents/parseContext';

/**
 * A str with a length limit, as pydantic-core validates it: `StrConstrainedValidator` turns
 * the Python str into UTF-8 (`either_str.as_cow()?`) before measuring it, and a str holding a
 * lone surrogate has none, so it is `string_unicode`, "Input should be a valid string, unable
 * to parse raw data as a unicode string", before any length check or validator. A plain `str`
 * keeps the surrogate. Both are pydantic-core's own tests (tests/validators/test_string.py:
 * `test_unicode_error` refuses '🐈 Hello \ud800World' with `min_length=1`; `test_str_not_json`
 * returns it unchanged from a plain str). Python's json gives such a str from a `\ud800` or
 * `\udcff` escape, and Python lists a file name byte that is not UTF-8 as U+DC80-U+DCFF.
 * Rivumi's limited str fields (rivumi.md §3.1, §5.2): the manifest's `name` (1-64),
 * `description` (400), each skill `path` (1-256), `discovery` URLs (2048), `license` (128),
 * `author` (256), and the skill record's `source` (1-512).
 */
const UNICODE = 'Input should be a valid string, unable to parse raw data as a unicode string';

function manifestErrors(data: Record<string, unknown>): string[] {
  const r = pluginManifest.safeParse({ name: 'pk', ...data }, REPORT_INPUT);
  return r.success ? [] : pydanticDetails(r.error).map((d) => d.text);
}

describe("Rivumi's limited str fields refuse a lone surrogate as pydantic-core does (string_unicode)", () => {
  it('refuses it in each limited manifest field, before the length limit and the validators', () => {
    assert.deepEqual(manifestErrors({ description: 'caf\ud800' }), [`description: ${UNICODE}`]);
    assert.deepEqual(manifestErrors({ description: '\udcff'.repeat(401) }), [`description: ${UNICODE}`]);
    assert.deepEqual(manifestErrors({ name: ' pk\udcff' }), [`name: ${UNICODE}`]);
    assert.deepEqual(manifestErrors({ skills: [{ path: 'r\udcff.md' }] }), [`skills.0.path: ${UNICODE}`]);
    assert.deepEqual(manifestErrors({ discovery: { homepage: 'https://example.com/\ud800' } }), [
      `discovery.homepage: ${UNICODE}`,
    ]);
    assert.deepEqual(manifestErrors({ discovery: { repository: 'https://example.com/\udc80' } }), [
      `discovery.repository: ${UNICODE}`,
    ]);
    assert.deepEqual(manifestErrors({ discovery: { license: 'MIT\ud800' } }), [`discovery.license: ${UNICODE}`]);
    assert.deepEqual(manifestErrors({ discovery: { author: '\udfff' } }), [`discovery.author: ${UNICODE}`]);
  });

  it('keeps a surrogate pair (one code point) and a plain str field (hook argv and tools) with a lone one', () => {
    assert.deepEqual(manifestErrors({ description: '\ud83d\ude00'.repeat(400) }), []);
    assert.deepEqual(manifestErrors({ discovery: { author: 'A \ud83d\ude00' } }), []);
    const hook = hookCommand.safeParse({ command: ['run\ud800'], tools: ['\udcff'] }, REPORT_INPUT);
    assert.ok(hook.success);
    assert.deepEqual([hook.data.command, hook.data.tools], [['run\ud800'], ['\udcff']]);
  });

  describe('in the loads and install', () => {
    let f: Fixture;
    beforeEach(() => (f = new Fixture()));
    afterEach(() => f.remove());

    it('fails the skill and hook loads on a manifest whose description holds a \\ud800 escape', () => {
      f.write('ws/.rivumi/skills/ok.md', 'Body.');
      f.write('ws/.rivumi/plugins/a.md', 'Body A.');
      f.write(
        'ws/.rivumi/plugins/pk.json',
        '{"name": "pk", "description": "caf\\ud800", "skills": [{"path": "a.md"}]}',
      );
      const p = loadRivumiProject(f.path('ws'));
      const message = `project plugin manifest is invalid: pk.json: description: ${UNICODE}`;
      assert.deepEqual([p.plugins[0]?.state, p.plugins[0]?.error?.message], ['invalid', message]);
      assert.deepEqual([p.skillLoad?.message, p.hookLoad?.message], [message, message]);
    });

    it('fails the skill load on a project skill whose file name is not UTF-8: its record refuses the source', () => {
      f.write('ws/.rivumi/skills/a.md', 'Body.');
      fs.writeFileSync(Buffer.from(`${f.path('ws/.rivumi/skills')}/\xff.md`, 'latin1'), '---\nname: evil\n---\nBody.');
      const p = loadRivumiProject(f.path('ws'));
      const message = 'project skill file name is not valid UTF-8: \udcff.md';
      assert.deepEqual(
        p.skills.map((s) => [s.source, s.state, s.error?.code]),
        [
          ['.rivumi/skills/a.md', 'valid', undefined],
          ['.rivumi/skills/\udcff.md', 'invalid', 'rivumi.skill.source-utf8'],
        ],
      );
      assert.equal(p.skillLoad?.message, message);
    });

    it('reports the source with a description over 400 characters: one record, two errors', () => {
      fs.mkdirSync(f.path('ws/.rivumi/skills'), { recursive: true });
      fs.writeFileSync(
        Buffer.from(`${f.path('ws/.rivumi/skills')}/\xff.md`, 'latin1'),
        `---\nname: evil\ndescription: ${'d'.repeat(401)}\n---\nBody.`,
      );
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        p.diagnostics.filter((d) => d.code.startsWith('rivumi.skill.')).map((d) => d.message),
        [
          'project skill description exceeds 400 characters: \udcff.md',
          'project skill file name is not valid UTF-8: \udcff.md',
        ],
      );
    });

    it('refuses to install a manifest whose license holds a lone surrogate, and writes nothing', () => {
      f.write('package/plugin.json', '{"name": "pk", "discovery": {"license": "MIT\\udcff"}}');
      f.mkdir('repo');
      const r = installPlugin(f.path('package/plugin.json'), f.path('repo'));
      assert.deepEqual(
        r.ok ? 'installed' : r.message,
        `project plugin manifest is invalid: plugin.json: discovery.license: ${UNICODE}`,
      );
      assert.equal(fs.existsSync(f.path('repo/.rivumi/plugins/pk.json')), false);
    });
  });
});

describe("hooks.json's errors in pydantic's order: the fields in their order, then the extra keys", () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  it('puts an event that is not a tuple in its field place and an unknown key last, whatever the file order', () => {
    // pydantic-core's model_fields.rs validates each field in declaration order (the events of rivumi.md §4.2),
    // then walks the input's keys for the extra ones; Rivumi prints every error, in that order.
    f.write(
      'ws/.rivumi/hooks.json',
      '{"zzz": 1, "post_tool_use": null, "pre_tool_use": [{"command": []}], "approval_request": [{"command": ["a"], "x": 1}]}',
    );
    const p = loadRivumiProject(f.path('ws'));
    const first =
      'project hook config is invalid: pre_tool_use.0.command: Tuple should have at least 1 item after validation, not 0';
    assert.deepEqual(
      p.diagnostics.filter((d) => d.code === 'rivumi.hooks.invalid').map((d) => d.message),
      [
        first,
        'project hook config is invalid: post_tool_use: Input should be a valid tuple',
        'project hook config is invalid: approval_request.0.x: Extra inputs are not permitted',
        'project hook config is invalid: zzz: Extra inputs are not permitted',
      ],
    );
    assert.deepEqual([p.hookLoad?.message, p.hooksFile?.error?.message], [first, first]);
  });
});
