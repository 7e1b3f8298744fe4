import { strict as assert } from 'node:assert';
import { Indexer } from '../../src/core/index/indexer';
import { Fixture, writeW, writeD, byName, LINUX_HOST } from './helpers/fixture';
import type { BundleStateView, TrustView } from '../../src/core/decisions/trustView';
import type { Snapshot } from '../../src/core/index/snapshot';

/** The decision table of decisions.md, with the trust store replaced by a map. */
describe('decisions (spec/decisions.md)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const withState = (
    state: (key: string) => BundleStateView | undefined,
    extra: Partial<ConstructorParameters<typeof Indexer>[0]> = {},
  ): Snapshot => {
    const trust: TrustView = { available: true, lookup: state };
    return new Indexer({
      workspaces: [f.path('ws')],
      codewhaleHome: null,
      host: LINUX_HOST,
      trust: () => trust,
      ...extra,
    }).indexAll();
  };
  const current = (s: Snapshot, name: string) => {
    const i = byName(s, name);
    return {
      key: i.detail.bundleKey as string,
      contentHash: i.contentHash as string,
      capabilityHash: i.capabilityHash as string,
    };
  };
  const stateFor = (name: string, make: (c: ReturnType<typeof current>) => BundleStateView) => {
    const c = current(
      withState(() => undefined),
      name,
    );
    return (key: string) => (key === c.key ? make(c) : undefined);
  };

  it('is registered/active when trusted at current hashes and enabled', () => {
    writeW(f);
    const s = withState(stateFor('example-plugin', (c) => ({ enabled: true, trust: c })));
    assert.deepEqual(byName(s, 'example-plugin').reasons, ['active']);
    assert.equal(byName(s, 'example-plugin').trust, 'trusted');
  });

  it('is not_enabled when trusted but off', () => {
    writeW(f);
    const s = withState(stateFor('example-plugin', (c) => ({ enabled: false, trust: c })));
    assert.deepEqual(
      [byName(s, 'example-plugin').decision, byName(s, 'example-plugin').reasons],
      ['disabled', ['not_enabled']],
    );
  });

  it('checks capabilities_changed before content_changed, and keeps the enable bit through drift', () => {
    writeW(f);
    const both = withState(
      stateFor('example-plugin', () => ({
        enabled: true,
        trust: { contentHash: 'x'.repeat(64), capabilityHash: 'y'.repeat(64) },
      })),
    );
    assert.deepEqual(byName(both, 'example-plugin').reasons, ['capabilities_changed']);
    assert.equal(byName(both, 'example-plugin').enabled, true);
    const content = withState(
      stateFor('example-plugin', (c) => ({ enabled: true, trust: { ...c, contentHash: 'x'.repeat(64) } })),
    );
    assert.deepEqual(byName(content, 'example-plugin').reasons, ['content_changed']);
    assert.equal(byName(content, 'example-plugin').trust, 'content-changed');
  });

  it('is not_applicable on another host even when trusted and enabled', () => {
    writeD(f, '[when]\nos = ["windows"]\n', 'ws/.codewhale/plugins/demo');
    const s = withState(stateFor('demo', (c) => ({ enabled: true, trust: c })));
    assert.deepEqual([byName(s, 'demo').decision, byName(s, 'demo').reasons], ['disabled', ['not_applicable']]);
  });

  it('fails closed with trust_store_unavailable', () => {
    writeW(f);
    const s = new Indexer({
      workspaces: [f.path('ws')],
      codewhaleHome: null,
      host: LINUX_HOST,
      trust: () => ({ available: false, problem: 'state.json is not JSON' }),
    }).indexAll();
    assert.deepEqual(byName(s, 'example-plugin').reasons, ['trust_store_unavailable']);
    assert.equal(s.trustProblem, 'state.json is not JSON');
  });

  it('adds workspace_untrusted first in Restricted Mode', () => {
    writeW(f);
    const s = withState(
      stateFor('example-plugin', (c) => ({ enabled: true, trust: c })),
      { workspaceTrusted: false },
    );
    assert.deepEqual(byName(s, 'example-plugin').reasons, ['workspace_untrusted']);
  });

  it('keeps workspace_untrusted in Restricted Mode when the store is unavailable too: both hold', () => {
    writeW(f);
    const s = new Indexer({
      workspaces: [f.path('ws')],
      codewhaleHome: null,
      host: LINUX_HOST,
      workspaceTrusted: false,
      trust: () => ({ available: false, problem: 'state.json is not JSON' }),
    }).indexAll();
    assert.deepEqual(
      [byName(s, 'example-plugin').decision, byName(s, 'example-plugin').reasons],
      ['disabled', ['workspace_untrusted', 'trust_store_unavailable']],
    );
  });

  it('never activates a bundle with a skill warning (its snapshot would fail)', () => {
    writeW(f);
    f.write('ws/.codewhale/plugins/example-plugin/skills/bad/SKILL.md', 'no heading here');
    const s = withState(stateFor('example-plugin', (c) => ({ enabled: true, trust: c })));
    assert.deepEqual(byName(s, 'example-plugin').reasons, ['staged_skill_invalid']);
  });

  it('lists staged_skill_invalid after the gate reasons too: enabling it would not make it active', () => {
    writeW(f);
    f.write('ws/.codewhale/plugins/example-plugin/skills/bad/SKILL.md', 'no heading here');
    const untrusted = withState(() => undefined);
    assert.deepEqual(
      [byName(untrusted, 'example-plugin').decision, byName(untrusted, 'example-plugin').reasons],
      ['disabled', ['not_reviewed', 'not_enabled', 'staged_skill_invalid']],
    );
    const off = withState(stateFor('example-plugin', (c) => ({ enabled: false, trust: c })));
    assert.deepEqual(byName(off, 'example-plugin').reasons, ['not_enabled', 'staged_skill_invalid']);
    const restricted = withState(
      stateFor('example-plugin', (c) => ({ enabled: true, trust: c })),
      {
        workspaceTrusted: false,
      },
    );
    assert.deepEqual(byName(restricted, 'example-plugin').reasons, ['workspace_untrusted', 'staged_skill_invalid']);
  });

  it("activates Rivumi hooks when trusted and opted in, whatever the store's enable bit says (Rivumi has none)", () => {
    f.write('ws/.rivumi/hooks.json', '{"pre_compact":[{"command":["true"]}]}');
    const on = stateFor('hooks.json', (c) => ({ enabled: false, trust: c }));
    assert.deepEqual(byName(withState(on), 'hooks.json').reasons, ['hooks_not_opted_in']);
    const active = withState(on, { rivumiHooksEnv: '1' });
    assert.deepEqual(byName(active, 'hooks.json').reasons, ['active']);
    assert.deepEqual(active.items.find((i) => i.kind === 'hook')?.reasons, ['component_active']);
    assert.deepEqual(active.diagnostics, []);
  });

  it('keeps children of an inactive bundle bundle_inactive and inactive kinds display_only', () => {
    writeW(f, '[lsp]\npath = "skills"\n');
    const s = withState(() => undefined);
    assert.deepEqual(byName(s, 'example-plugin:example').reasons, ['bundle_inactive']);
    assert.deepEqual(
      [byName(s, 'example-plugin:lsp').decision, byName(s, 'example-plugin:lsp').reasons],
      ['display_only', ['component_inactive']],
    );
  });
});
