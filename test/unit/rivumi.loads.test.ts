import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { Fixture, index, byName, codes, messages } from './helpers/fixture';
import { TrustStore } from '../../src/core/trust/trustStore';
import { review } from '../../src/core/trust/reviewBundle';
import { explainItem, explainText } from '../../src/core/report/explain';
import type { Snapshot } from '../../src/core/index/snapshot';

const json = (v: unknown) => JSON.stringify(v, null, 2);
const fate = (s: Snapshot, name: string) => {
  const i = byName(s, name);
  return [i.decision, i.reasons];
};
const LOADED_UNREVIEWED = ['registered', ['loaded_unreviewed', 'not_reviewed']];

/**
 * Rivumi's two loads, decided as Rivumi runs them (rivumi.md §6, decisions.md): the skill
 * load reads every plugin manifest and its skills and never checks hook values; the hook
 * load (only with RIVUMI_ENABLE_PROJECT_HOOKS=1) merges hooks.json with plugin hooks.
 */
describe('Rivumi: the skill load and the hook load, as upstream runs them (issue 11)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  describe('a plugin whose hooks fail still has its skills loaded (item 9)', () => {
    beforeEach(() => {
      f.write('ws/.rivumi/plugins/a.md', 'Check the risks.');
      f.write('ws/.rivumi/plugins/pk.json', '{"skills":[{"path":"a.md"}],"hooks":{"pre_tool_use":"x"}}');
    });

    it("loads pk.a although pk's hook section is not an array: upstream's plugin model does not check hook values", () => {
      const s = index([f.path('ws')]);
      assert.deepEqual(fate(s, 'pk'), LOADED_UNREVIEWED);
      assert.deepEqual(fate(s, 'pk.a'), LOADED_UNREVIEWED);
      // Without the opt-in Rivumi never reads plugin hooks: the defect is a warning.
      assert.deepEqual(
        s.diagnostics.map((d) => [d.severity, d.message]),
        [['warning', 'plugin hook entries must be arrays']],
      );
    });

    it('fails only the opted-in hook load with "plugin hook entries must be arrays"; the skills still load', () => {
      f.write('ws/.rivumi/hooks.json', json({ pre_compact: [{ command: ['true'] }] }));
      const s = index([f.path('ws')], { rivumiHooksEnv: '1' });
      assert.deepEqual(fate(s, 'pk'), LOADED_UNREVIEWED);
      assert.deepEqual(fate(s, 'pk.a'), LOADED_UNREVIEWED);
      assert.deepEqual(fate(s, 'hooks.json'), ['rejected', ['load_aborted', 'not_reviewed']]);
      assert.deepEqual(fate(s, 'project.pre_compact.0'), ['rejected', ['load_aborted']]);
      const error = s.diagnostics.find((d) => d.severity === 'error');
      assert.deepEqual(
        [error?.message, error?.file],
        ['plugin hook entries must be arrays', f.path('ws/.rivumi/plugins/pk.json')],
      );
    });

    it('without the opt-in, never reads plugin hooks: a bad entry (timeout_seconds 31) is off and only warned about', () => {
      f.write(
        'ws/.rivumi/plugins/pk.json',
        json({ skills: [{ path: 'a.md' }], hooks: { pre_tool_use: [{ command: ['x'], timeout_seconds: 31 }] } }),
      );
      const s = index([f.path('ws')]);
      assert.deepEqual(fate(s, 'pk'), LOADED_UNREVIEWED);
      assert.deepEqual(fate(s, 'pk.a'), LOADED_UNREVIEWED);
      assert.deepEqual(fate(s, 'pk.pre_tool_use.0'), ['disabled', ['hooks_not_opted_in']]);
      assert.deepEqual(
        s.diagnostics.map((d) => [d.severity, d.message]),
        [
          [
            'warning',
            'project hook config is invalid: pre_tool_use.0.timeout_seconds: Input should be less than or equal to 30',
          ],
        ],
      );
      const on = index([f.path('ws')], { rivumiHooksEnv: '1' });
      assert.deepEqual(fate(on, 'pk.pre_tool_use.0'), ['rejected', ['component_invalid']]);
      assert.deepEqual(fate(on, 'pk.a'), LOADED_UNREVIEWED);
    });

    it('lets the plugin be reviewed and trusted: the hook defect is not a manifest error', () => {
      const store = new TrustStore(f.path('state'));
      const r = review(byName(index([f.path('ws')]), 'pk'), { store });
      assert.ok(r.ok, r.ok ? '' : r.message);
      assert.deepEqual([r.value.trustable, r.value.trustRefusal], [true, null]);
    });

    it('loads the skills of a plugin whose hooks push an event past 16; only the hook load fails', () => {
      f.write(
        'ws/.rivumi/hooks.json',
        json({ pre_tool_use: Array.from({ length: 16 }, (_, i) => ({ command: [`p${i}`] })) }),
      );
      f.write(
        'ws/.rivumi/plugins/pk.json',
        json({ skills: [{ path: 'a.md' }], hooks: { pre_tool_use: [{ command: ['x'] }] } }),
      );
      const s = index([f.path('ws')], { rivumiHooksEnv: '1' });
      assert.deepEqual(fate(s, 'pk'), LOADED_UNREVIEWED);
      assert.deepEqual(fate(s, 'pk.a'), LOADED_UNREVIEWED);
      // decisions.md: the hook entries of the plugin that overflows the merge carry manifest_invalid.
      assert.deepEqual(fate(s, 'pk.pre_tool_use.0'), ['rejected', ['manifest_invalid']]);
      assert.deepEqual(fate(s, 'hooks.json'), ['rejected', ['load_aborted', 'not_reviewed']]);
      assert.ok(
        messages(s).includes(
          'project hook config is invalid: pre_tool_use: Tuple should have at most 16 items after validation, not 17 (after plugin hooks are merged)',
        ),
      );
    });
  });

  describe('the warning that Rivumi runs unreviewed hooks (item 10)', () => {
    it('is not given when the opted-in hook load aborts (timeout_seconds 31): Rivumi runs no hook', () => {
      f.write('ws/.rivumi/hooks.json', json({ pre_tool_use: [{ command: ['a'], timeout_seconds: 31 }] }));
      f.write('ws/.rivumi/plugins/pk.json', json({ hooks: { pre_compact: [{ command: ['b'] }] } }));
      const s = index([f.path('ws')], { rivumiHooksEnv: '1' });
      assert.ok(!codes(s).includes('rivumi.hooks.opted-in-untrusted'), messages(s).join('\n'));
      assert.deepEqual(fate(s, 'pk.pre_compact.0'), ['rejected', ['load_aborted']]);
    });

    it('names exactly the hooks Rivumi runs when the hook load succeeds', () => {
      f.write('ws/.rivumi/hooks.json', json({ pre_tool_use: [{ command: ['python', 'hook.py'] }] }));
      const s = index([f.path('ws')], { rivumiHooksEnv: '1' });
      assert.deepEqual(messages(s), [
        'RIVUMI_ENABLE_PROJECT_HOOKS=1 is set, so Rivumi runs these 1 hook command(s) although they are not reviewed in Skillgate: pre_tool_use: python hook.py',
      ]);
      assert.deepEqual(fate(s, 'hooks.json'), LOADED_UNREVIEWED);
      assert.deepEqual(fate(s, 'project.pre_tool_use.0'), LOADED_UNREVIEWED);
    });
  });

  it("refuses a non-UTF-8 skill file name with upstream's \"invalid project skill name: 'a\\udcff'\" (item 11)", () => {
    f.mkdir('ws/.rivumi/skills');
    fs.writeFileSync(
      Buffer.concat([Buffer.from(f.path('ws/.rivumi/skills') + '/a'), Buffer.from([0xff]), Buffer.from('.md')]),
      'body',
    );
    const s = index([f.path('ws')]);
    // Python's repr of the surrogate-escaped stem: the lone surrogate U+DCFF is written \udcff.
    assert.deepEqual(messages(s), ["invalid project skill name: 'a\\udcff'"]);
    assert.deepEqual(fate(s, 'a\udcff'), ['rejected', ['skill_invalid']]);
  });

  describe('validation messages keep every error pydantic reports, with its detail (item 12)', () => {
    it('says how many items a too-long tuple has ("…, not 17")', () => {
      f.write(
        'ws/.rivumi/plugins/pk.json',
        json({
          skills: Array.from({ length: 17 }, () => ({ path: 'a.md' })),
          discovery: { keywords: Array.from({ length: 17 }, (_, i) => `k${i}`) },
        }),
      );
      assert.deepEqual(messages(index([f.path('ws')])), [
        'project plugin manifest is invalid: pk.json: skills: Tuple should have at most 16 items after validation, not 17',
        'project plugin manifest is invalid: pk.json: discovery.keywords: Tuple should have at most 16 items after validation, not 17',
      ]);
    });

    it('reports "Tuple should have at most 32 items" for a 33-item argv, and an unparseable timeout as pydantic\'s float_parsing error', () => {
      f.write(
        'ws/.rivumi/hooks.json',
        json({
          pre_tool_use: [
            { command: Array.from({ length: 33 }, () => 'a') },
            { command: ['b'], timeout_seconds: 'soon' },
            { command: ['c'], timeout_seconds: null },
          ],
        }),
      );
      assert.deepEqual(messages(index([f.path('ws')])), [
        'project hook config is invalid: pre_tool_use.0.command: Tuple should have at most 32 items after validation, not 33',
        'project hook config is invalid: pre_tool_use.1.timeout_seconds: Input should be a valid number, unable to parse string as a number',
        'project hook config is invalid: pre_tool_use.2.timeout_seconds: Input should be a valid number',
      ]);
    });

    it('reports both record errors of a plugin skill whose description and combined name are both too long', () => {
      f.write('ws/.rivumi/plugins/a.md', `---\nname: ${'s'.repeat(30)}\ndescription: ${'d'.repeat(401)}\n---\nbody`);
      f.write('ws/.rivumi/plugins/p.json', json({ name: 'p'.repeat(40), skills: [{ path: 'a.md' }] }));
      const own = messages(index([f.path('ws')])).filter((m) => !m.startsWith('Rivumi aborts'));
      assert.deepEqual(own, [
        `plugin skill name exceeds 64 characters: ${'p'.repeat(40)}.${'s'.repeat(30)}`,
        'project skill description exceeds 400 characters: a.md',
      ]);
    });

    it('keeps every error of one plugin manifest, not only the first', () => {
      f.write('ws/.rivumi/plugins/pk.json', json({ name: 'x y', description: 5, extra: 1 }));
      assert.deepEqual(messages(index([f.path('ws')])), [
        'project plugin manifest is invalid: pk.json: name: invalid plugin name',
        'project plugin manifest is invalid: pk.json: description: Input should be a valid string',
        'project plugin manifest is invalid: pk.json: extra: Extra inputs are not permitted',
      ]);
    });
  });

  describe('explain shows the two loads (item 15)', () => {
    it('says "skills: loaded by the skill load; hooks: not loaded (opt-in off)" for a plugin with both', () => {
      f.write('ws/.rivumi/plugins/a.md', 'Check the risks.');
      f.write(
        'ws/.rivumi/plugins/pk.json',
        json({ skills: [{ path: 'a.md' }], hooks: { pre_compact: [{ command: ['true'] }] } }),
      );
      const s = index([f.path('ws')]);
      const text = explainText(explainItem(s, byName(s, 'pk')));
      assert.match(
        text,
        /^pk: registered: the agent loads it\n {2}- loaded_unreviewed: Rivumi loads it whatever Skillgate says/,
      );
      assert.match(text, /\n {2}Rivumi: skills: loaded by the skill load; hooks: not loaded \(opt-in off\)\n/);
      assert.match(text, /\n {2}enabled: no enable switch \(Rivumi has none\)\n/);
      const on = index([f.path('ws')], { rivumiHooksEnv: '1' });
      assert.match(
        explainText(explainItem(on, byName(on, 'pk'))),
        /Rivumi: skills: loaded by the skill load; hooks: loaded by the hook load \(opt-in on\): Rivumi runs them\n/,
      );
    });
  });
});
