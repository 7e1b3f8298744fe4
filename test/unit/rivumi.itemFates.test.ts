import * as path from 'node:path';
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { Fixture } from './helpers/fixture';
import { loadRivumiProject } from '../../src/core/systems/rivumi/load';
import { rivumiItems } from '../../src/core/systems/rivumi/items';
import { bundleKey } from '../../src/core/hashing/identity';
import type { TrustView, ReceiptView } from '../../src/core/decisions/trustView';
import type { Diagnostic, Item } from '../../src/core/model';
import type { RivumiSkill } from '../../src/core/systems/rivumi/model';

const json = (v: unknown) => JSON.stringify(v, null, 2);

/**
 * Rivumi items and their decisions under every trust state (decisions.md: a decision
 * states what Rivumi will do). Rivumi enforces no trust and has no enable switch: a loaded
 * bundle is `registered` whatever the store says, `loaded_unreviewed` first when it is not
 * trusted at its current hashes, and `enabled` is always null.
 */
describe('Rivumi items: decisions under each trust state (decisions.md)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  type Receipts = Record<string, ReceiptView>;
  const view = (receipts: Receipts = {}): TrustView => ({
    available: true,
    lookup: (key) => (receipts[key] ? { enabled: false, trust: receipts[key] } : undefined),
  });
  const UNAVAILABLE: TrustView = { available: false, problem: 'state.json is not JSON' };
  const decide = (trust: TrustView, hooksOptIn = false, workspaceTrusted = true) =>
    rivumiItems(loadRivumiProject(f.path('ws')), { trust, workspaceTrusted, hooksOptIn });
  const named = (items: readonly Item[], qualifiedName: string): Item => {
    const found = items.filter((i) => i.qualifiedName === qualifiedName);
    assert.equal(found.length, 1, `${qualifiedName} in ${items.map((i) => i.qualifiedName).join(', ')}`);
    return found[0] as Item;
  };
  const fate = (items: readonly Item[], name: string) => {
    const i = named(items, name);
    return [i.decision, i.reasons];
  };
  /** A receipt at the bundle's current hashes, optionally with one of them changed. */
  const receiptFor = (item: Item, change: 'content' | 'capability' | null = null): Receipts => ({
    [String(item.detail.bundleKey)]: {
      contentHash: change === 'content' ? 'f'.repeat(64) : (item.contentHash as string),
      capabilityHash: change === 'capability' ? 'f'.repeat(64) : (item.capabilityHash as string),
    },
  });

  const writePlugin = () => {
    f.write('ws/.rivumi/plugins/a.md', 'Check the risks.');
    f.write(
      'ws/.rivumi/plugins/pk.json',
      json({ skills: [{ path: 'a.md' }], hooks: { pre_compact: [{ command: ['true'] }] } }),
    );
  };

  describe('a plugin', () => {
    beforeEach(writePlugin);

    it('is active, its skill and hook component_active, when trusted at its hashes (opt-in on)', () => {
      const pk = named(decide(view()).items, 'pk');
      const { items, diagnostics } = decide(view(receiptFor(pk)), true);
      assert.deepEqual(fate(items, 'pk'), ['registered', ['active']]);
      assert.deepEqual(fate(items, 'pk.a'), ['registered', ['component_active']]);
      assert.deepEqual(fate(items, 'pk.pre_compact.0'), ['registered', ['component_active']]);
      assert.equal(named(items, 'pk').trust, 'trusted');
      assert.deepEqual(diagnostics, []);
    });

    it('is loaded_unreviewed then content_changed / capabilities_changed when its receipt no longer matches', () => {
      const pk = named(decide(view()).items, 'pk');
      const content = decide(view(receiptFor(pk, 'content'))).items;
      assert.deepEqual(fate(content, 'pk'), ['registered', ['loaded_unreviewed', 'content_changed']]);
      assert.deepEqual(fate(content, 'pk.a'), ['registered', ['loaded_unreviewed', 'content_changed']]);
      assert.equal(named(content, 'pk').trust, 'content-changed');
      const caps = decide(view(receiptFor(pk, 'capability'))).items;
      assert.deepEqual(fate(caps, 'pk'), ['registered', ['loaded_unreviewed', 'capabilities_changed']]);
    });

    it('fails closed on an unavailable store: loaded_unreviewed, trust_store_unavailable, never enabled', () => {
      const { items } = decide(UNAVAILABLE);
      const pk = named(items, 'pk');
      assert.deepEqual(
        [pk.decision, pk.reasons, pk.trust, pk.enabled],
        ['registered', ['loaded_unreviewed', 'trust_store_unavailable'], 'not-reviewed', null],
      );
      assert.deepEqual(fate(items, 'pk.a'), ['registered', ['loaded_unreviewed', 'trust_store_unavailable']]);
    });

    it('lists workspace_untrusted last in Restricted Mode with an unavailable store, as for Eva', () => {
      const { items } = decide(UNAVAILABLE, false, false);
      assert.deepEqual(fate(items, 'pk'), [
        'registered',
        ['loaded_unreviewed', 'trust_store_unavailable', 'workspace_untrusted'],
      ]);
    });

    it('says Rivumi runs hooks not vouched for when the store is unavailable and the opt-in is set', () => {
      const { diagnostics } = decide(UNAVAILABLE, true);
      assert.deepEqual(
        diagnostics.map((d) => [d.code, d.severity, d.message]),
        [
          [
            'rivumi.hooks.opted-in-untrusted',
            'warning',
            "RIVUMI_ENABLE_PROJECT_HOOKS=1 is set, so Rivumi runs this plugin's 1 hook command(s) although the plugin is not vouched for (the trust store is unavailable) in Skillgate: pre_compact: true",
          ],
        ],
      );
    });

    it('names the changed status in that warning', () => {
      const pk = named(decide(view()).items, 'pk');
      const { diagnostics } = decide(view(receiptFor(pk, 'capability')), true);
      assert.match(diagnostics[0]?.message ?? '', /although the plugin is capabilities changed in Skillgate/);
    });

    it('changes nothing in Restricted Mode: trusted stays active, untrusted lists workspace_untrusted last', () => {
      const pk = named(decide(view()).items, 'pk');
      assert.deepEqual(fate(decide(view(receiptFor(pk)), false, false).items, 'pk'), ['registered', ['active']]);
      assert.deepEqual(fate(decide(view(), false, false).items, 'pk'), [
        'registered',
        ['loaded_unreviewed', 'not_reviewed', 'workspace_untrusted'],
      ]);
    });

    it('carries its hashes, review token, bundle key, ids and no enable switch', () => {
      const { items } = decide(view());
      const pk = named(items, 'pk');
      const prefix = `rivumi:${createHash('sha256').update(f.path('ws')).digest('hex').slice(0, 12)}:`;
      assert.equal(pk.id, `${prefix}.rivumi/plugins/pk.json`);
      assert.equal(pk.reviewToken, `${pk.contentHash}.${pk.capabilityHash}`);
      assert.deepEqual([pk.kind, pk.scope, pk.enabled, pk.parent], ['plugin', 'workspace', null, null]);
      assert.equal(pk.detail.bundleKey, bundleKey('rivumi', 'workspace', f.path('ws/.rivumi/plugins/pk.json'), 'pk'));
      const skill = named(items, 'pk.a');
      assert.deepEqual([skill.id, skill.parent, skill.kind, skill.name], [`${pk.id}#skills/0`, pk.id, 'skill', 'a']);
      const hook = named(items, 'pk.pre_compact.0');
      assert.deepEqual(
        [hook.id, hook.parent, hook.kind, hook.name, hook.enabled],
        [`${pk.id}#hooks/pre_compact/0`, pk.id, 'hook', 'pre_compact: true', null],
      );
    });
  });

  describe('hooks.json', () => {
    it('is disabled with hooks_not_opted_in, then its gate reasons, without the opt-in', () => {
      f.write('ws/.rivumi/hooks.json', json({ pre_tool_use: [{ command: ['python', 'hook.py'] }] }));
      const { items } = decide(view());
      assert.equal(
        named(items, 'hooks.json').detail.bundleKey,
        bundleKey('rivumi', 'workspace', f.path('ws/.rivumi/hooks.json'), 'hooks'),
      );
      assert.deepEqual(fate(items, 'hooks.json'), ['disabled', ['hooks_not_opted_in', 'not_reviewed']]);
      assert.deepEqual(fate(items, 'project.pre_tool_use.0'), ['disabled', ['hooks_not_opted_in']]);
      assert.deepEqual(named(items, 'hooks.json').detail.loads, { hooks: 'not loaded (opt-in off)' });
    });

    it('is active, its hooks component_active, when trusted and opted in; no warning', () => {
      f.write('ws/.rivumi/hooks.json', json({ pre_tool_use: [{ command: ['python', 'hook.py'] }] }));
      const hooks = named(decide(view()).items, 'hooks.json');
      const { items, diagnostics } = decide(view(receiptFor(hooks)), true);
      assert.deepEqual(fate(items, 'hooks.json'), ['registered', ['active']]);
      assert.deepEqual(fate(items, 'project.pre_tool_use.0'), ['registered', ['component_active']]);
      assert.deepEqual(diagnostics, []);
      assert.deepEqual(named(items, 'hooks.json').detail.loads, {
        hooks: 'loaded by the hook load (opt-in on): Rivumi runs them',
      });
    });

    it('is manifest_invalid when invalid, with the opt-in or without; its valid hooks are manifest_invalid too', () => {
      f.write('ws/.rivumi/hooks.json', json({ pre_tool_use: [{ command: ['ok'] }, { command: ['bad'], env: {} }] }));
      for (const optIn of [false, true])
        assert.deepEqual(fate(decide(view(), optIn).items, 'hooks.json'), [
          'rejected',
          ['manifest_invalid', 'not_reviewed'],
        ]);
      const { items } = decide(view(), true);
      assert.deepEqual(fate(items, 'project.pre_tool_use.0'), ['rejected', ['manifest_invalid']]);
      assert.deepEqual(fate(items, 'project.pre_tool_use.1'), ['rejected', ['component_invalid']]);
      assert.match(
        String(named(items, 'hooks.json').detail.loads?.hooks ?? ''),
        /^not loaded \(the hook load fails: project hook config is invalid: pre_tool_use\.1\.env/,
      );
    });

    it('says "none declared" for an empty hooks.json', () => {
      f.write('ws/.rivumi/hooks.json', '{}');
      assert.deepEqual(named(decide(view(), true).items, 'hooks.json').detail.loads, { hooks: 'none declared' });
    });
  });

  describe('the fail-fast loads on items', () => {
    it('aborts a plugin without hooks when another file fails the skill load, naming that file', () => {
      f.write('ws/.rivumi/skills/bad.md', '   ');
      f.write('ws/.rivumi/plugins/a.md', 'body');
      f.write('ws/.rivumi/plugins/pk.json', json({ skills: [{ path: 'a.md' }] }));
      const { items, diagnostics } = decide(view());
      assert.deepEqual(fate(items, 'pk'), ['rejected', ['load_aborted', 'not_reviewed']]);
      assert.deepEqual(fate(items, 'pk.a'), ['rejected', ['load_aborted']]);
      const aborted = diagnostics.filter((d) => d.code === 'rivumi.load-aborted' && d.itemId === named(items, 'pk').id);
      assert.deepEqual(
        aborted.map((d) => [d.severity, d.message, d.related?.[0]?.file]),
        [
          [
            'warning',
            'Rivumi aborts the whole skill load because of .rivumi/skills/bad.md: project skill body cannot be blank or contain NUL: bad.md',
            f.path('ws/.rivumi/skills/bad.md'),
          ],
        ],
      );
      assert.deepEqual(named(items, 'pk').detail.loads, {
        skills: 'not loaded (the skill load fails: project skill body cannot be blank or contain NUL: bad.md)',
        hooks: 'none declared',
      });
    });

    it('keeps a plugin whose hooks Rivumi runs registered although the skill load fails', () => {
      f.write('ws/.rivumi/skills/bad.md', '   ');
      writePlugin();
      assert.deepEqual(fate(decide(view(), true).items, 'pk'), ['registered', ['loaded_unreviewed', 'not_reviewed']]);
      assert.deepEqual(fate(decide(view(), false).items, 'pk'), ['rejected', ['load_aborted', 'not_reviewed']]);
    });

    it('marks a plugin that fails the skill load by itself invalid, not aborted', () => {
      f.write('ws/.rivumi/plugins/pk.json', json({ name: 'bad name' }));
      const { items } = decide(view());
      assert.deepEqual(fate(items, 'pk'), ['rejected', ['manifest_invalid', 'not_reviewed']]);
    });

    it('aborts project hooks when a plugin fails the hook load, naming the plugin', () => {
      f.write('ws/.rivumi/hooks.json', json({ pre_compact: [{ command: ['ok'] }] }));
      f.write('ws/.rivumi/plugins/pk.json', json({ hooks: { pre_compact: [{ command: [] }] } }));
      const { items, diagnostics } = decide(view(), true);
      assert.deepEqual(fate(items, 'hooks.json'), ['rejected', ['load_aborted', 'not_reviewed']]);
      assert.deepEqual(fate(items, 'project.pre_compact.0'), ['rejected', ['load_aborted']]);
      assert.deepEqual(fate(items, 'pk.pre_compact.0'), ['rejected', ['component_invalid']]);
      const d = diagnostics.find((x) => x.code === 'rivumi.load-aborted' && x.itemId === named(items, 'hooks.json').id);
      assert.match(d?.message ?? '', /^Rivumi aborts the whole hook load because of \.rivumi\/plugins\/pk\.json: /);
    });

    it('says an aborted hook load once per file, not once more for each of its hooks', () => {
      f.write('ws/.rivumi/hooks.json', json({ pre_compact: [{ command: ['a'] }, { command: ['b'] }] }));
      f.write('ws/.rivumi/plugins/pk.json', json({ hooks: { pre_compact: [{ command: [] }] } }));
      f.write('ws/.rivumi/plugins/q.json', json({ hooks: { pre_compact: [{ command: ['c'] }, { command: ['d'] }] } }));
      const { items, diagnostics } = decide(view(), true);
      const told = diagnostics
        .filter((x) => x.code === 'rivumi.load-aborted')
        .map((x) => [path.basename(x.file), items.find((i) => i.id === x.itemId)?.qualifiedName]);
      assert.deepEqual(told, [
        ['hooks.json', 'hooks.json'],
        ['q.json', 'q.pre_compact.0'],
      ]);
      // Every hook still carries its reason.
      assert.deepEqual(fate(items, 'project.pre_compact.1'), ['rejected', ['load_aborted']]);
      assert.deepEqual(fate(items, 'q.pre_compact.1'), ['rejected', ['load_aborted']]);
    });

    it("shows a plugin's hooks merged into a hooks.json event that is not an array: aborted, in its capabilities and hash", () => {
      f.write('ws/.rivumi/hooks.json', json({ post_tool_use: [] }));
      f.write('ws/.rivumi/plugins/a.json', json({ name: 'a', hooks: { post_tool_use: [{ command: ['true'] }] } }));
      const sound = named(decide(view(), true).items, 'a');
      f.write('ws/.rivumi/hooks.json', json({ post_tool_use: null }));
      const { items, diagnostics } = decide(view(), true);
      const a = named(items, 'a');
      assert.deepEqual(fate(items, 'a.post_tool_use.0'), ['rejected', ['load_aborted']]);
      const d = diagnostics.find(
        (x) => x.code === 'rivumi.load-aborted' && x.itemId === named(items, 'a.post_tool_use.0').id,
      );
      assert.equal(
        d?.message,
        'Rivumi aborts the whole hook load because of .rivumi/hooks.json: project hook entries must be arrays',
      );
      assert.deepEqual(Object.keys((a.detail.capabilities as { hooks: object }).hooks), ['post_tool_use: ["true"]']);
      assert.equal(
        (a.detail.loads as { hooks: string }).hooks,
        'not loaded (the hook load fails: project hook entries must be arrays)',
      );
      // What the plugin can do does not depend on hooks.json: the same capability hash as beside a sound one.
      assert.equal(a.capabilityHash, sound.capabilityHash);
    });

    it('turns hook-only errors in a plugin into warnings without the opt-in, and keeps them errors with it', () => {
      f.write('ws/.rivumi/hooks.json', json({ pre_compact: Array.from({ length: 16 }, () => ({ command: ['c'] })) }));
      f.write('ws/.rivumi/plugins/pk.json', json({ hooks: { pre_compact: [{ command: ['x'] }] } }));
      const off = decide(view()).diagnostics.filter((d) => d.code === 'rivumi.hooks.too-many');
      assert.deepEqual(
        off.map((d) => d.severity),
        ['warning'],
      );
      const on = decide(view(), true).diagnostics.filter((d) => d.code === 'rivumi.hooks.too-many');
      assert.deepEqual(
        on.map((d) => d.severity),
        ['error'],
      );
    });

    it('keeps a hook error in hooks.json itself an error without the opt-in', () => {
      f.write('ws/.rivumi/hooks.json', json({ pre_compact: [{ command: [] }] }));
      const { diagnostics, items } = decide(view());
      assert.deepEqual(
        diagnostics.map((d) => [d.severity, d.itemId]),
        [['error', named(items, 'hooks.json').id]],
      );
    });

    it('rejects an invalid project skill as skill_invalid, and gives each skill its description and location', () => {
      f.write('ws/.rivumi/skills/a.md', '---\ndescription: Ask first.\n---\nbody');
      f.write('ws/.rivumi/skills/b.md', '---\nwhat: 1\n---\nbody');
      const { items, diagnostics } = decide(view());
      assert.deepEqual(fate(items, 'b'), ['rejected', ['skill_invalid']]);
      const a = named(items, 'a');
      assert.deepEqual(
        [a.decision, a.reasons, a.detail, a.location, a.trust, a.id.endsWith(':.rivumi/skills/a.md')],
        [
          'rejected',
          ['load_aborted'],
          { description: 'Ask first.' },
          {
            file: f.path('ws/.rivumi/skills/a.md'),
            range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
          },
          null,
          true,
        ],
      );
      assert.equal(diagnostics.find((d) => d.code === 'rivumi.skill.frontmatter')?.itemId, named(items, 'b').id);
    });

    it("describes a hook item by its hook, and a hooks file's uncovered arguments", () => {
      f.write(
        'ws/.rivumi/hooks.json',
        json({ pre_tool_use: [{ command: ['sh', '../out.sh'], tools: ['read_file'] }] }),
      );
      const { items, diagnostics } = decide(view());
      const hooks = named(items, 'hooks.json');
      assert.deepEqual(hooks.detail.notCovered, [
        "hook argument '../out.sh' names '../out.sh' outside the workspace: it cannot be covered by trust",
      ]);
      assert.deepEqual(
        hooks.detail.files?.map((x) => x.path),
        ['.rivumi/hooks.json'],
      );
      assert.ok(hooks.id.endsWith(':.rivumi/hooks.json'));
      const hook = named(items, 'project.pre_tool_use.0');
      assert.equal(hook.name, 'pre_tool_use: sh ../out.sh');
      assert.deepEqual(hook.detail.hook?.tools, ['read_file']);
      // The argv error belongs to the hooks file: its item is the one the diagnostic names.
      assert.equal(diagnostics.find((d) => d.code === 'rivumi.hook.argv-uncovered')?.itemId, hooks.id);
    });

    it("names the hooks file's hooks in the opted-in warning, and a plugin's hook-only failure in its loads", () => {
      f.write(
        'ws/.rivumi/hooks.json',
        json({ pre_tool_use: [{ command: ['a', 'b'] }], post_compact: [{ command: ['c'] }] }),
      );
      const { diagnostics } = decide(view(), true);
      assert.deepEqual(
        diagnostics.map((d) => d.message),
        [
          'RIVUMI_ENABLE_PROJECT_HOOKS=1 is set, so Rivumi runs these 2 hook command(s) although they are not reviewed in Skillgate: pre_tool_use: a b; post_compact: c',
        ],
      );
      f.write('ws/.rivumi/plugins/pk.json', json({ hooks: { pre_compact: 'x' } }));
      const pk = named(decide(view(), true).items, 'pk');
      assert.deepEqual(pk.detail.loads, {
        skills: 'loaded by the skill load',
        hooks: 'not loaded (the hook load fails: plugin hook entries must be arrays)',
      });
      assert.deepEqual(pk.reasons, ['loaded_unreviewed', 'not_reviewed']);
    });

    it('warns without the opt-in about an invalid plugin hook entry, not only an overflow', () => {
      f.write(
        'ws/.rivumi/plugins/pk.json',
        json({ hooks: { pre_compact: [{ command: ['x'], timeout_seconds: 31 }] } }),
      );
      assert.deepEqual(
        decide(view()).diagnostics.map((d) => [d.code, d.severity]),
        [['rivumi.hooks.invalid', 'warning']],
      );
    });

    it('gives beyond-cap skills and plugins display_only', () => {
      for (let i = 0; i < 17; i++) f.write(`ws/.rivumi/skills/s${String(i).padStart(2, '0')}.md`, 'body');
      for (let i = 0; i < 17; i++) f.write(`ws/.rivumi/plugins/p${String(i).padStart(2, '0')}.json`, '{}');
      const { items, diagnostics } = decide(view());
      assert.deepEqual(fate(items, 's16'), ['display_only', ['skill_limit_exceeded']]);
      assert.deepEqual(fate(items, 's00'), ['registered', ['guidance']]);
      assert.deepEqual(fate(items, 'p16'), ['display_only', ['plugin_limit_exceeded', 'not_reviewed']]);
      assert.deepEqual(
        diagnostics.map((d) => [d.code, d.itemId]),
        [
          ['rivumi.skill.not-loaded', named(items, 's16').id],
          ['rivumi.plugin.not-loaded', named(items, 'p16').id],
        ],
      );
    });

    it('gives each of 200,000 beyond-cap skills its own diagnostic, within the default timeout', () => {
      // Each diagnostic's item was found by scanning every item: 40,000 skills took 7 s, 200,000 minutes.
      for (let i = 0; i < 17; i++) f.write(`ws/.rivumi/skills/s${String(i).padStart(2, '0')}.md`, 'body');
      const read = loadRivumiProject(f.path('ws'));
      const beyond = read.skills[16] as RivumiSkill;
      const notLoaded = read.diagnostics[0] as Diagnostic;
      const skills = [...read.skills.slice(0, 16)];
      const diagnostics: Diagnostic[] = [];
      for (let i = 0; i < 200_000; i++) {
        const file = beyond.file.replace(/s16\.md$/, `t${i}.md`);
        skills.push({ ...beyond, name: `t${i}`, qualifiedName: `t${i}`, file, source: `.rivumi/skills/t${i}.md` });
        diagnostics.push({ ...notLoaded, file });
      }
      const { items, diagnostics: out } = rivumiItems(
        { ...read, skills, diagnostics },
        { trust: view(), workspaceTrusted: true, hooksOptIn: false },
      );
      assert.equal(out.length, 200_000);
      const byId = new Map(items.map((i) => [i.id, i]));
      assert.ok(out.every((d) => byId.get(d.itemId as string)?.path === d.file));
      assert.equal(byId.get(out[199_999]?.itemId as string)?.name, 't199999');
    });
  });
});
