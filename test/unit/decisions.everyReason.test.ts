import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { Indexer, type IndexOptions } from '../../src/core/index/indexer';
import { Fixture, writeW, writeD, byName, LINUX_HOST } from './helpers/fixture';
import type { ReceiptView, TrustView } from '../../src/core/decisions/trustView';
import type { Snapshot } from '../../src/core/index/snapshot';
import type { Item } from '../../src/core/model';
import type { RivumiProject } from '../../src/core/systems/rivumi/model';

/**
 * decisions.md "Reason codes": several reasons can hold at once, and every one that holds is
 * listed, primary first. A bundle its agent does not load (rejected, shadowed, past a cap)
 * still has a trust gate, and its reasons say which gates are closed after why it is not loaded;
 * its parts keep their own reasons.
 */
describe('every gate reason that holds, after the primary reason of a bundle the agent does not load', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  type States = Record<string, { enabled: boolean; trust: ReceiptView | null }>;
  const snapshot = (states: States = {}, over: Partial<IndexOptions> = {}): Snapshot => {
    const trust: TrustView = { available: true, lookup: (key) => states[key] };
    return new Indexer({
      workspaces: [f.path('ws')],
      codewhaleHome: null,
      host: LINUX_HOST,
      trust: () => trust,
      ...over,
    }).indexAll();
  };
  const UNAVAILABLE = { trust: (): TrustView => ({ available: false, problem: 'state.json is not JSON' }) };
  /** The store entry of `item` with a receipt at its current hashes. */
  const trustedAsNow = (item: Item, enabled: boolean): States => ({
    [String(item.detail.bundleKey)]: {
      enabled,
      trust: { contentHash: item.contentHash as string, capabilityHash: item.capabilityHash as string },
    },
  });
  const fate = (i: Item) => [i.decision, i.reasons, i.trust];

  describe('a rejected Codewhale bundle', () => {
    const PLUGIN = 'ws/.codewhale/plugins/example-plugin/plugin.toml';
    const breakManifest = (text: string) => f.write(PLUGIN, text);
    /** Not a version Codewhale accepts: the bytes change, what the bundle can do does not. */
    const badVersion = () => breakManifest(fs.readFileSync(f.path(PLUGIN), 'utf8').replace('1.2.3', 'not-a-version'));

    it('without a receipt is not reviewed and not enabled; its skill stays bundle_inactive', () => {
      writeW(f);
      badVersion();
      const s = snapshot();
      assert.deepEqual(fate(byName(s, 'example-plugin')), [
        'rejected',
        ['manifest_invalid', 'not_reviewed', 'not_enabled'],
        'not-reviewed',
      ]);
      assert.deepEqual(byName(s, 'example-plugin:example').reasons, ['bundle_inactive']);
    });

    it('with a receipt its hashes no longer match says how they differ, as its trust does', () => {
      writeW(f);
      const valid = trustedAsNow(byName(snapshot(), 'example-plugin'), true);
      badVersion();
      assert.deepEqual(fate(byName(snapshot(valid), 'example-plugin')), [
        'rejected',
        ['manifest_invalid', 'content_changed'],
        'content-changed',
      ]);
    });

    it('trusted at its current hashes and enabled lists no gate: none holds', () => {
      writeW(f);
      badVersion();
      const states = trustedAsNow(byName(snapshot(), 'example-plugin'), true);
      assert.deepEqual(fate(byName(snapshot(states), 'example-plugin')), ['rejected', ['manifest_invalid'], 'trusted']);
    });

    it('whose manifest no longer parses has no hashes: a receipt reads as changed since, never as not reviewed', () => {
      writeW(f);
      const valid = trustedAsNow(byName(snapshot(), 'example-plugin'), false);
      breakManifest('schema_version = \n');
      const broken = byName(snapshot(valid), 'example-plugin');
      assert.deepEqual([broken.contentHash, broken.capabilityHash], [null, null]);
      assert.deepEqual(fate(broken), [
        'rejected',
        ['manifest_invalid', 'capabilities_changed', 'not_enabled'],
        'capabilities-changed',
      ]);
    });

    it('in Restricted Mode with the store unreadable lists both, fail closed', () => {
      writeW(f);
      badVersion();
      const s = snapshot({}, { workspaceTrusted: false, ...UNAVAILABLE });
      assert.deepEqual(byName(s, 'example-plugin').reasons, [
        'manifest_invalid',
        'workspace_untrusted',
        'trust_store_unavailable',
      ]);
    });
  });

  describe('a shadowed Codewhale bundle', () => {
    const workspaceDemo = (s: Snapshot) =>
      s.items.find((i) => i.qualifiedName === 'demo' && i.scope === 'workspace') as Item;
    const options = () => ({ codewhaleHome: f.path('home') });

    it('lists its own gate after name_conflict, whatever the winner says; its parts stay bundle_inactive', () => {
      writeD(f);
      writeD(f, '[skills]\npath = "skills"\n', 'ws/.codewhale/plugins/demo');
      f.write('ws/.codewhale/plugins/demo/skills/s/SKILL.md', '---\nname: s\ndescription: s\n---\nbody\n');
      const s = snapshot({}, options());
      const loser = workspaceDemo(s);
      assert.deepEqual(fate(loser), ['shadowed', ['name_conflict', 'not_reviewed', 'not_enabled'], 'not-reviewed']);
      assert.deepEqual(byName(s, 'demo:s').reasons, ['bundle_inactive']);
    });

    it('trusted and enabled lists name_conflict alone; off this host, not_applicable after its gate', () => {
      writeD(f);
      writeD(f, '', 'ws/.codewhale/plugins/demo');
      const trusted = trustedAsNow(workspaceDemo(snapshot({}, options())), true);
      assert.deepEqual(fate(workspaceDemo(snapshot(trusted, options()))), ['shadowed', ['name_conflict'], 'trusted']);
      writeD(f, '[when]\nos = ["windows"]\n', 'ws/.codewhale/plugins/demo');
      assert.deepEqual(workspaceDemo(snapshot({}, options())).reasons, [
        'name_conflict',
        'not_reviewed',
        'not_enabled',
        'not_applicable',
      ]);
    });
  });

  describe('a Rivumi bundle it does not load: no enable switch, so never not_enabled, and never loaded_unreviewed', () => {
    it('a rejected plugin is not reviewed, unless trusted at its current hashes', () => {
      f.write('ws/.rivumi/plugins/pk.json', JSON.stringify({ name: 'bad name' }));
      const pk = byName(snapshot(), 'pk');
      assert.deepEqual(fate(pk), ['rejected', ['manifest_invalid', 'not_reviewed'], 'not-reviewed']);
      assert.deepEqual(byName(snapshot(trustedAsNow(pk, false)), 'pk').reasons, ['manifest_invalid']);
    });

    it('a rejected hooks file is not reviewed, with the opt-in or without; its hooks keep their own reasons', () => {
      f.write(
        'ws/.rivumi/hooks.json',
        JSON.stringify({ pre_tool_use: [{ command: ['ok'] }, { command: ['x'], env: {} }] }),
      );
      for (const rivumiHooksEnv of [undefined, '1'])
        assert.deepEqual(fate(byName(snapshot({}, { rivumiHooksEnv }), 'hooks.json')), [
          'rejected',
          ['manifest_invalid', 'not_reviewed'],
          'not-reviewed',
        ]);
      const optedIn = snapshot({}, { rivumiHooksEnv: '1' });
      assert.deepEqual(byName(optedIn, 'project.pre_tool_use.0').reasons, ['manifest_invalid']);
      assert.deepEqual(byName(optedIn, 'project.pre_tool_use.1').reasons, ['component_invalid']);
    });

    it('a plugin and a hooks file whose load another file aborts are not reviewed too', () => {
      f.write('ws/.rivumi/skills/bad.md', '   ');
      f.write('ws/.rivumi/plugins/a.md', 'body');
      f.write('ws/.rivumi/plugins/pk.json', JSON.stringify({ skills: [{ path: 'a.md' }] }));
      f.write('ws/.rivumi/plugins/hk.json', JSON.stringify({ hooks: { pre_compact: [{ command: [] }] } }));
      f.write('ws/.rivumi/hooks.json', JSON.stringify({ pre_compact: [{ command: ['ok'] }] }));
      const s = snapshot({}, { rivumiHooksEnv: '1' });
      assert.deepEqual(fate(byName(s, 'pk')), ['rejected', ['load_aborted', 'not_reviewed'], 'not-reviewed']);
      assert.deepEqual(byName(s, 'pk.a').reasons, ['load_aborted']);
      assert.deepEqual(fate(byName(s, 'hooks.json')), ['rejected', ['load_aborted', 'not_reviewed'], 'not-reviewed']);
    });

    it('a plugin past the cap is not reviewed', () => {
      for (let n = 1; n <= 17; n++) f.write(`ws/.rivumi/plugins/p${String(n).padStart(2, '0')}.json`, '{}');
      assert.deepEqual(fate(byName(snapshot(), 'p17')), [
        'display_only',
        ['plugin_limit_exceeded', 'not_reviewed'],
        'not-reviewed',
      ]);
    });

    describe('a .rivumi Skillgate failed to read', () => {
      const readers = {
        rivumiProject: (): RivumiProject => {
          throw new Error('simulated rivumi bug');
        },
      };

      it('is not reviewed: no receipt can be for it', () => {
        assert.deepEqual(fate(byName(snapshot({}, { readers }), '.rivumi')), [
          'rejected',
          ['manifest_invalid', 'not_reviewed'],
          'not-reviewed',
        ]);
      });

      it('in Restricted Mode with the store unreadable lists both', () => {
        const s = snapshot({}, { readers, workspaceTrusted: false, ...UNAVAILABLE });
        assert.deepEqual(byName(s, '.rivumi').reasons, [
          'manifest_invalid',
          'workspace_untrusted',
          'trust_store_unavailable',
        ]);
      });
    });
  });
});
