import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { Fixture, index, writeW, writeD, byName, codes, top } from './helpers/fixture';
import { Indexer } from '../../src/core/index/indexer';

describe('Codewhale discovery and shadowing (codewhale.md §2, §10.6)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  it('discovers user and workspace bundles disabled and untrusted, writing nothing', () => {
    writeD(f);
    writeW(f);
    const before = fs.readdirSync(f.root, { recursive: true }).length;
    const s = index([f.path('ws')], { codewhaleHome: f.path('home') });
    for (const item of top(s)) {
      assert.equal(item.trust, 'not-reviewed');
      assert.equal(item.enabled, false);
      assert.equal(item.decision, 'disabled');
    }
    assert.equal(fs.readdirSync(f.root, { recursive: true }).length, before);
  });

  it('lets a user bundle shadow a same-named workspace bundle, with one name-conflict warning', () => {
    writeD(f);
    writeD(f, '', 'ws/.codewhale/plugins/demo');
    const s = index([f.path('ws')], { codewhaleHome: f.path('home') });
    const [user, ws] = top(s);
    assert.equal(user?.scope, 'user');
    assert.equal(user?.decision, 'disabled');
    assert.equal(ws?.decision, 'shadowed');
    assert.deepEqual(ws?.reasons, ['name_conflict', 'not_reviewed', 'not_enabled']);
    assert.equal(ws?.shadowedBy, user?.id);
    assert.deepEqual(codes(s), ['codewhale.name-conflict']);
    assert.equal(s.diagnostics[0]?.related?.[0]?.file, user?.location.file);
  });

  it('between same-named workspace bundles keeps the one whose canonical root sorts first as UTF-8 bytes', () => {
    // U+FF01 is EF BC 81 in UTF-8 and FF01 in UTF-16; U+1F600 is F0 9F 98 80 and D83D DE00.
    writeD(f, '', 'ws/.codewhale/plugins/😀');
    writeD(f, '', 'ws/.codewhale/plugins/！');
    const s = index([f.path('ws')]);
    const kept = top(s).find((i) => i.decision !== 'shadowed');
    const dropped = top(s).find((i) => i.decision === 'shadowed');
    assert.equal(kept?.path, f.path('ws/.codewhale/plugins/！'));
    assert.equal(dropped?.path, f.path('ws/.codewhale/plugins/😀'));
    assert.equal(dropped?.shadowedBy, kept?.id);
    assert.deepEqual(codes(s), ['codewhale.name-conflict']);
    assert.equal(s.diagnostics[0]?.itemId, dropped?.id);
  });

  it('does not let an invalid user bundle shadow a valid workspace bundle', () => {
    writeD(f, 'bogus = 1\n');
    writeD(f, '', 'ws/.codewhale/plugins/demo');
    const s = index([f.path('ws')], { codewhaleHome: f.path('home') });
    const ws = top(s).find((i) => i.scope === 'workspace');
    assert.equal(ws?.decision, 'disabled');
  });

  it('sorts by name and keeps ids stable across discoveries', () => {
    writeD(f, '', 'ws/.codewhale/plugins/zeta');
    f.write(
      'ws/.codewhale/plugins/alpha/plugin.toml',
      'schema_version = 1\n[plugin]\nname = "alpha"\nversion = "1.0.0"\n',
    );
    const a = top(index([f.path('ws')]));
    const b = top(index([f.path('ws')]));
    assert.deepEqual(
      a.map((i) => i.name),
      ['alpha', 'demo'],
    );
    assert.deepEqual(
      a.map((i) => i.id),
      b.map((i) => i.id),
    );
    assert.match(a[0]?.id ?? '', /^workspace\/[0-9a-f]{12}\/alpha$/);
  });

  it('reports a symlinked workspace root and discovers nothing from it', () => {
    writeD(f, '', 'real/demo');
    f.mkdir('ws/.codewhale');
    f.symlink(f.path('real'), 'ws/.codewhale/plugins');
    const s = index([f.path('ws')]);
    assert.deepEqual(top(s), []);
    assert.deepEqual(codes(s), ['codewhale.root-symlink']);
  });

  it('discovers the bundles behind a symlinked .codewhale, as Codewhale does (it lstats only .codewhale/plugins)', () => {
    // Upstream's workspace root is `workspace.join(".codewhale").join("plugins")` and scan_root's
    // symlink_metadata looks at that last component only (discovery.rs): a repository whose
    // `.codewhale` links to `tools/cw` has its bundles loaded. Listing none of them would leave
    // them out of the lock, and `check --lock` would pass a bundle Codewhale discovers.
    writeD(f, '', 'ws/tools/cw/plugins/demo');
    f.symlink('tools/cw', 'ws/.codewhale');
    const s = index([f.path('ws')]);
    assert.deepEqual(
      top(s).map((i) => [i.scope, i.name, i.path, i.decision]),
      [['workspace', 'demo', f.path('ws/.codewhale/plugins/demo'), 'disabled']],
    );
    assert.deepEqual(codes(s), []);
    // The same behind a link out of the workspace: Codewhale follows it there too.
    writeD(f, '', 'real/plugins/other');
    f.mkdir('ws2');
    f.symlink(f.path('real'), 'ws2/.codewhale');
    const t = index([f.path('ws2')]);
    assert.deepEqual(
      top(t).map((i) => [i.path, i.detail.agentIdentity?.canonicalRoot]),
      [[f.path('ws2/.codewhale/plugins/other'), fs.realpathSync(f.path('real/plugins/other'))]],
    );
    assert.deepEqual(codes(t), []);
  });

  it('never scans .claude/plugins or .cursor/plugins', () => {
    writeD(f, '', 'ws/.claude/plugins/demo');
    writeD(f, '', 'ws/.cursor/plugins/demo');
    assert.deepEqual(index([f.path('ws')]).items, []);
  });

  it('hides a .staging-<32 hex> copy, which causes no name conflict', () => {
    writeD(f, '', 'ws/.codewhale/plugins/demo');
    writeD(f, '', `ws/.codewhale/plugins/.staging-${'0123456789abcdef'.repeat(2)}`);
    const s = index([f.path('ws')]);
    assert.equal(top(s).length, 1);
    assert.deepEqual(s.diagnostics, []);
  });

  it('hides .plugin-backup-<16 alnum> but shows .staging-not-a-uuid, .plugin-backup-short and demo.bak', () => {
    const names = ['.plugin-backup-ABCDEFGH12345678', '.staging-not-a-uuid', '.plugin-backup-short', 'demo.bak'];
    names.forEach((n, i) =>
      f.write(
        `ws/.codewhale/plugins/${n}/plugin.json`,
        JSON.stringify({ $schema: 's', name: `b${i}`, version: '1.0.0' }),
      ),
    );
    assert.equal(top(index([f.path('ws')])).length, 3);
  });

  it('keeps two workspaces apart', () => {
    writeD(f, '', 'one/.codewhale/plugins/demo');
    writeW(f, '', 'two/.codewhale/plugins/example-plugin');
    const s = index([f.path('one'), f.path('two')]);
    assert.deepEqual(
      top(s).map((i) => [i.name, i.workspace]),
      [
        ['demo', f.path('one')],
        ['example-plugin', f.path('two')],
      ],
    );
    assert.equal(byName(s, 'example-plugin:example').workspace, f.path('two'));
  });

  it('lists a bundle two workspaces reach through one linked .codewhale once: the later folder has a duplicate discovery', () => {
    // Both folders' roots canonicalize to `shared/plugins`: one directory, one plugin id (codewhale.md
    // §7.6), one trust record. Two items of one id would make selectors and the tree ambiguous.
    writeD(f, '', 'shared/plugins/demo');
    f.symlink(f.path('shared'), 'one/.codewhale');
    f.symlink(f.path('shared'), 'two/.codewhale');
    const s = index([f.path('one'), f.path('two')]);
    assert.deepEqual(
      top(s).map((i) => [i.name, i.workspace]),
      [['demo', f.path('one')]],
    );
    assert.deepEqual(
      s.diagnostics.map((d) => [d.code, d.file, d.itemId]),
      [['codewhale.duplicate-root', f.path('two/.codewhale/plugins/demo/plugin.toml'), top(s)[0]?.id]],
    );
  });

  it('lists an invalid bundle two workspaces reach through one linked .codewhale once, as a valid one: one id, one error', () => {
    // The same plugin id for both discoveries (§7.6: scope, canonical root, name): a second item of it
    // made a selector by that id "ambiguous; use one of these ids: X, X".
    f.write('shared/plugins/bad/plugin.toml', 'schema_version = 1\n[plugin]\nname = "Bad_Name"\nversion = "1.0.0"\n');
    f.symlink(f.path('shared'), 'one/.codewhale');
    f.symlink(f.path('shared'), 'two/.codewhale');
    const s = index([f.path('one'), f.path('two')]);
    assert.deepEqual(
      top(s).map((i) => [i.name, i.workspace, i.decision]),
      [['Bad_Name', f.path('one'), 'rejected']],
    );
    const id = top(s)[0]?.id;
    assert.deepEqual(
      s.diagnostics.map((d) => [d.code, d.file, d.itemId]),
      [
        ['codewhale.manifest.name', f.path('one/.codewhale/plugins/bad/plugin.toml'), id],
        ['codewhale.duplicate-root', f.path('two/.codewhale/plugins/bad/plugin.toml'), id],
      ],
    );
  });

  it('skips a bundle directory without a manifest silently, and reports a Claude bundle', () => {
    f.write('ws/.codewhale/plugins/empty/readme.txt', 'hi');
    f.write(
      'ws/.codewhale/plugins/claude/.claude-plugin/plugin.json',
      JSON.stringify({ name: 'claude', version: '0.1.0' }),
    );
    const s = index([f.path('ws')]);
    assert.deepEqual(
      top(s).map((i) => i.name),
      ['claude'],
    );
  });

  it('applies [when]: another OS or a missing binary makes the bundle not applicable', () => {
    const when = (name: string, table: string) =>
      f.write(
        `ws/.codewhale/plugins/${name}/plugin.toml`,
        `schema_version = 1\n[plugin]\nname = "${name}"\nversion = "1.0.0"\n[when]\n${table}`,
      );
    when('mac', 'os = ["macos"]\n');
    when('bin', 'binaries = ["definitely-missing-binary"]\n');
    when('never', 'os = []\n');
    const s = new Indexer({
      workspaces: [f.path('ws')],
      codewhaleHome: null,
      host: { os: 'linux', hasBinary: (b) => b !== 'definitely-missing-binary' },
    }).indexAll();
    for (const i of top(s)) assert.ok(i.reasons.includes('not_applicable'), `${i.path}: ${i.reasons.join(',')}`);
  });
});
