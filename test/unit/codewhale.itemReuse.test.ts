import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { Fixture, LINUX_HOST } from './helpers/fixture';
import { loadCodewhaleBundle } from '../../src/core/systems/codewhale/bundle';
import { resolveManifest } from '../../src/core/systems/codewhale/bundleManifest';
import type { CodewhaleBundle } from '../../src/core/systems/codewhale/codewhaleBundle';
import { faultedBundle } from '../../src/core/systems/codewhale/bundleJob';
import { codewhaleItems, type CodewhaleItems, type CodewhaleScan } from '../../src/core/systems/codewhale/items';
import type { GateContext } from '../../src/core/decisions/gates';
import type { BundleStateView } from '../../src/core/decisions/trustView';
import { FILE_START, type Item } from '../../src/core/model';

/**
 * Placing loaded bundles into items (codewhale.md §2.6, decisions.md). A bundle keeps
 * its last items while nothing that decides them changes; whatever does change — the
 * trust state, Restricted Mode, a sibling that shadows it, its workspace — the items
 * equal those of bundles never placed before. And where each bundle's output sits.
 */
describe('Codewhale items: reuse across snapshots, layout and fallback anchors', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const head = (name: string) => `schema_version = 1\n[plugin]\nname = "${name}"\nversion = "1.0.0"\n`;
  const load = (rel: string, scope: 'user' | 'workspace', dir = f.path(rel)): CodewhaleBundle =>
    loadCodewhaleBundle(dir, resolveManifest(dir) ?? 'plugin.toml', {
      scope,
      canonicalDiscoveryRoot: path.dirname(dir),
      host: LINUX_HOST,
    });
  /** The same bundles read again: no memo of an earlier placement. */
  const fresh = (scans: readonly CodewhaleScan[]): CodewhaleScan[] =>
    scans.map((s) => ({ bundle: load('', s.bundle.scope, s.bundle.dir), workspace: s.workspace }));
  const store = (states: Map<string, BundleStateView>, workspaceTrusted = true): GateContext => ({
    trust: { available: true, lookup: (k) => states.get(k) },
    workspaceTrusted,
  });
  const output = (r: CodewhaleItems) => ({ items: r.items, diagnostics: r.diagnostics });
  const placedAgain = (scans: readonly CodewhaleScan[], ctx: GateContext) => {
    const reused = codewhaleItems(scans, ctx);
    assert.deepEqual(output(reused), output(codewhaleItems(fresh(scans), ctx)));
    return reused;
  };
  const top = (r: CodewhaleItems, name: string, scope = 'workspace') =>
    r.items.find((i) => i.parent === null && i.name === name && i.scope === scope) as Item;

  it('gives the items of a fresh placement after each change of trust, Restricted Mode, sibling and workspace', () => {
    f.write('ws/.codewhale/plugins/w/plugin.toml', `${head('w')}[skills]\npath = "skills"\n`);
    f.write('ws/.codewhale/plugins/w/skills/s/SKILL.md', '---\nname: s\n---\nbody\n');
    f.write('home/plugins/u/plugin.toml', head('u'));
    f.write('home/plugins/w/plugin.toml', head('w'));
    const w = load('ws/.codewhale/plugins/w', 'workspace');
    const u = load('home/plugins/u', 'user');
    const sibling = load('home/plugins/w', 'user');
    const ws = f.path('ws');
    const scans: CodewhaleScan[] = [
      { bundle: u, workspace: null },
      { bundle: w, workspace: ws },
    ];
    const states = new Map<string, BundleStateView>();
    const first = placedAgain(scans, store(states));
    const key = top(first, 'w').detail.bundleKey as string;
    const receipt = { contentHash: w.contentHash as string, capabilityHash: w.capabilityHash as string };
    const fate = (r: CodewhaleItems) => {
      const b = top(r, 'w');
      return [b.decision, b.reasons, r.items.find((i) => i.parent === b.id)?.reasons];
    };
    assert.deepEqual(fate(first), ['disabled', ['not_reviewed', 'not_enabled'], ['bundle_inactive']]);

    states.set(key, { enabled: false, trust: receipt });
    assert.deepEqual(fate(placedAgain(scans, store(states))), ['disabled', ['not_enabled'], ['bundle_inactive']]);
    states.set(key, { enabled: true, trust: receipt });
    assert.deepEqual(fate(placedAgain(scans, store(states))), ['registered', ['active'], ['component_active']]);
    assert.deepEqual(fate(placedAgain(scans, store(states, false))), [
      'disabled',
      ['workspace_untrusted'],
      ['bundle_inactive'],
    ]);
    assert.deepEqual(fate(placedAgain(scans, store(states))), ['registered', ['active'], ['component_active']]);

    const withSibling = [...scans, { bundle: sibling, workspace: null }];
    const shadowed = placedAgain(withSibling, store(states));
    assert.deepEqual(fate(shadowed), ['shadowed', ['name_conflict'], ['bundle_inactive']]);
    assert.equal(top(shadowed, 'w').shadowedBy, top(shadowed, 'w', 'user').id);
    assert.deepEqual(fate(placedAgain(scans, store(states))), ['registered', ['active'], ['component_active']]);

    const moved = placedAgain(
      [
        { bundle: u, workspace: null },
        { bundle: w, workspace: f.path('other') },
      ],
      store(states),
    );
    assert.deepEqual(
      moved.items.filter((i) => i.scope === 'workspace').map((i) => i.workspace),
      [f.path('other'), f.path('other')],
    );

    const unavailable: GateContext = { trust: { available: false, problem: 'broken' }, workspaceTrusted: true };
    assert.deepEqual(fate(placedAgain(scans, unavailable)), [
      'disabled',
      ['trust_store_unavailable'],
      ['bundle_inactive'],
    ]);
    assert.deepEqual(fate(placedAgain(scans, store(states))), ['registered', ['active'], ['component_active']]);
    states.clear();
    assert.deepEqual(fate(placedAgain(scans, store(states))), [
      'disabled',
      ['not_reviewed', 'not_enabled'],
      ['bundle_inactive'],
    ]);
  });

  it('reuses nothing of a bundle re-read after its manifest changed: the new object is placed afresh', () => {
    const dir = 'ws/.codewhale/plugins/w';
    f.write(`${dir}/plugin.toml`, head('w'));
    const ctx = store(new Map());
    const before = codewhaleItems([{ bundle: load(dir, 'workspace'), workspace: f.path('ws') }], ctx);
    f.write(`${dir}/plugin.toml`, `${head('w')}[lsp]\npath = "l"\n`);
    f.mkdir(`${dir}/l`);
    const after = placedAgain([{ bundle: load(dir, 'workspace'), workspace: f.path('ws') }], ctx);
    assert.deepEqual(
      [before.items.length, after.items.map((i) => [i.qualifiedName, i.decision])],
      [
        1,
        [
          ['w', 'display_only'],
          ['w:lsp', 'display_only'],
        ],
      ],
    );
  });

  it('places in precedence order whatever the input order, and lays out where each bundle output went', () => {
    f.write('home/plugins/a/skills/s/SKILL.md', '---\nname: s\n---\nbody\n');
    f.write('home/plugins/a/plugin.toml', `${head('a')}[skills]\npath = "skills"\n`);
    f.write('home/plugins/bad/plugin.toml', '{ not toml');
    f.write('ws/.codewhale/plugins/a/plugin.toml', head('a'));
    const userA = load('home/plugins/a', 'user');
    const bad = load('home/plugins/bad', 'user');
    const wsA = load('ws/.codewhale/plugins/a', 'workspace');
    // The user's directory again, as a workspace bundle: the same canonical root.
    const again = load('', 'workspace', f.path('home/plugins/a'));
    const ws = f.path('ws');
    const r = codewhaleItems(
      [
        { bundle: wsA, workspace: ws },
        { bundle: again, workspace: ws },
        { bundle: bad, workspace: null },
        { bundle: userA, workspace: null },
      ],
      store(new Map()),
    );
    assert.deepEqual(
      r.items.map((i) => [i.scope, i.qualifiedName, i.decision]),
      [
        ['user', 'a', 'disabled'],
        ['user', 'a:s', 'disabled'],
        ['user', 'bad', 'rejected'],
        ['workspace', 'a', 'shadowed'],
      ],
    );
    assert.deepEqual(
      r.diagnostics.map((d) => d.code),
      [...bad.diagnostics.map((d) => d.code), 'codewhale.duplicate-root', 'codewhale.name-conflict'],
    );
    const { layout } = r;
    assert.deepEqual(
      [userA, bad, again, wsA].map((b) => layout.positions.get(b)),
      [0, 1, 2, 3],
    );
    assert.deepEqual(layout.workspaces, [null, null, ws, ws]);
    assert.deepEqual(layout.itemCounts, [2, 1, 0, 1]);
    assert.deepEqual(layout.diagnosticCounts, [0, bad.diagnostics.length, 1, 1]);
    assert.equal(r.diagnostics.length, bad.diagnostics.length + 2);
    // Names count the valid bundles, roots every bundle (an invalid one too); the duplicate discovery counts.
    assert.deepEqual([...layout.names], [['a', 3]]);
    assert.deepEqual(
      [...layout.roots],
      [
        [userA.canonicalRoot, 2],
        [bad.canonicalRoot, 1],
        [wsA.canonicalRoot, 1],
      ],
    );
    assert.equal(r.diagnostics.find((d) => d.code === 'codewhale.duplicate-root')?.itemId, top(r, 'a', 'user').id);
  });

  it('falls back to the manifest start for a server or component without an anchor, and to the directory without a manifest', () => {
    const dir = 'ws/.codewhale/plugins/b';
    f.write(
      `${dir}/plugin.toml`,
      `${head('b')}[commands]\npath = "c"\n[mcp_servers.srv]\ncommand = "node"\nconnect_timeout = 0\n`,
    );
    f.mkdir(`${dir}/c`);
    const loaded = load(dir, 'workspace');
    const manifestStart = { file: f.path(`${dir}/plugin.toml`), range: FILE_START };
    // As the loader leaves a bundle whose manifest parsed but whose content was never walked: only its name placed.
    const unplaced: CodewhaleBundle = { ...loaded, anchors: { name: loaded.anchors['name'] as Item['location'] } };
    const r = codewhaleItems([{ bundle: unplaced, workspace: f.path('ws') }], store(new Map()));
    const srv = r.items.find((i) => i.kind === 'mcp-server') as Item;
    assert.deepEqual(
      [srv.location, srv.path, srv.decision, srv.reasons],
      [manifestStart, manifestStart.file, 'rejected', ['component_invalid']],
    );
    const commands = r.items.find((i) => i.kind === 'component') as Item;
    assert.deepEqual(commands.location, loaded.anchors['name']);
    const bare = codewhaleItems([{ bundle: { ...loaded, anchors: {} }, workspace: f.path('ws') }], store(new Map()));
    assert.deepEqual(
      bare.items.map((i) => i.location),
      [manifestStart, manifestStart, manifestStart],
    );

    const faulted = faultedBundle(
      { dir: f.path(dir), scope: 'workspace', canonicalDiscoveryRoot: f.path('ws/.codewhale/plugins') },
      undefined,
      new Error('boom'),
    );
    const alone = codewhaleItems([{ bundle: faulted, workspace: f.path('ws') }], store(new Map()));
    assert.deepEqual(
      alone.items.map((i) => [i.location, i.decision, i.reasons]),
      [[{ file: f.path(dir), range: FILE_START }, 'rejected', ['manifest_invalid', 'not_reviewed', 'not_enabled']]],
    );
    assert.deepEqual(
      alone.diagnostics.map((d) => [d.file, d.itemId]),
      [[f.path(dir), alone.items[0]?.id]],
    );
  });

  it('puts the conflict warning of a shadowed bundle without a name anchor at its manifest start', () => {
    f.write('home/plugins/d/plugin.toml', head('d'));
    f.write('ws/.codewhale/plugins/d/plugin.toml', `\n${head('d')}`);
    const user = load('home/plugins/d', 'user');
    const loser = load('ws/.codewhale/plugins/d', 'workspace');
    const r = codewhaleItems(
      [
        { bundle: user, workspace: null },
        { bundle: { ...loser, anchors: {} }, workspace: f.path('ws') },
      ],
      store(new Map()),
    );
    const d = r.diagnostics.find((x) => x.code === 'codewhale.name-conflict');
    assert.deepEqual([d?.file, d?.range], [f.path('ws/.codewhale/plugins/d/plugin.toml'), FILE_START]);
  });
});
