import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { Fixture, LINUX_HOST, index, top } from './helpers/fixture';
import { Indexer } from '../../src/core/index/indexer';
import { fsPatcher } from './helpers/fsPatch';
import { denyDirectory } from './helpers/deniedDirectory';
import type { Snapshot } from '../../src/core/index/snapshot';
import { unreadableBundle } from '../../src/core/systems/codewhale/unreadableBundle';

const SCHEMA = 'https://agent-plugins.org/schemas/plugin.json';

/**
 * A bundle directory this user may not search (codewhale.md §2.3 step 4, §2.4; upstream
 * discovery.rs `scan_root` and agent_plugin.rs `resolve_manifest_path`, whose `is_file` is
 * false when the lookup fails for any reason). Codewhale run as this user finds no manifest
 * and skips the bundle without a word; run as a user who may read it, it loads the bundle.
 * Before, the bundle vanished: no item, no diagnostic, `validate` exit 0.
 */
describe('Codewhale bundle directory this user may not search', () => {
  const fsPatch = fsPatcher();
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const manifest = (name: string) => JSON.stringify({ $schema: SCHEMA, name, version: '1.0.0' });
  const unreadable = (s: Snapshot) =>
    s.diagnostics.filter((d) => d.code === 'codewhale.bundle-unreadable').map((d) => [d.severity, d.message, d.file]);
  const said = (dir: string, what = `Plugin bundle directory ${dir}`) =>
    `${what} cannot be inspected: Permission denied (os error 13). Codewhale finds no manifest there and skips the bundle without a word, so run as this user it does not load it; run as a user who may read it, it loads the bundle, which Skillgate cannot show`;

  for (const mode of ['mode000', 'mode600'] as const)
    it(`says so at a workspace bundle it may not search (${mode}), and keeps the others`, () => {
      f.write('ws/.codewhale/plugins/hidden/plugin.json', manifest('hidden'));
      f.write('ws/.codewhale/plugins/open/plugin.json', manifest('open'));
      const dir = f.path('ws/.codewhale/plugins/hidden');
      denyDirectory(fsPatch, dir, mode);
      const s = index([f.path('ws')]);
      assert.deepEqual(unreadable(s), [['error', said(dir), dir]]);
      assert.deepEqual(
        top(s).map((i) => i.name),
        ['open'],
      );
    });

  it('says so once a refresh finds a bundle it read before out of reach, and once only', () => {
    f.write('ws/.codewhale/plugins/hidden/plugin.json', manifest('hidden'));
    const dir = f.path('ws/.codewhale/plugins/hidden');
    const ix = new Indexer({ workspaces: [f.path('ws')], codewhaleHome: null, host: LINUX_HOST });
    assert.deepEqual(
      top(ix.indexAll()).map((i) => i.name),
      ['hidden'],
    );
    denyDirectory(fsPatch, dir);
    // An edit reported inside it (the bundle alone is read again), then the directory's own change (its root is listed again).
    for (const changed of [`${dir}/plugin.json`, dir]) {
      const s = ix.refresh([changed]);
      assert.deepEqual(unreadable(s), [['error', said(dir), dir]], changed);
      assert.deepEqual(top(s), [], changed);
    }
  });

  it('says so at a user bundle under the Codewhale home', () => {
    f.write('home/plugins/mine/plugin.toml', 'schema_version = 1\n[plugin]\nname = "mine"\nversion = "1.0.0"\n');
    f.mkdir('ws');
    const dir = f.path('home/plugins/mine');
    denyDirectory(fsPatch, dir);
    const s = index([f.path('ws')], { codewhaleHome: f.path('home') });
    assert.deepEqual(unreadable(s), [['error', said(dir), dir]]);
    assert.deepEqual(top(s), []);
  });

  it('says so at a .claude-plugin it may not search, when no other manifest is there', () => {
    f.write('ws/.codewhale/plugins/claude/.claude-plugin/plugin.json', JSON.stringify({ name: 'claude' }));
    const dir = f.path('ws/.codewhale/plugins/claude');
    denyDirectory(fsPatch, f.path('ws/.codewhale/plugins/claude/.claude-plugin'));
    const s = index([f.path('ws')]);
    const claude = `${dir}/.claude-plugin`;
    assert.deepEqual(unreadable(s), [['error', said(dir, claude), claude]]);
  });

  it('says nothing when a manifest found first makes the denied .claude-plugin irrelevant', () => {
    f.write('ws/.codewhale/plugins/both/plugin.json', manifest('both'));
    f.write('ws/.codewhale/plugins/both/.claude-plugin/plugin.json', JSON.stringify({ name: 'both' }));
    denyDirectory(fsPatch, f.path('ws/.codewhale/plugins/both/.claude-plugin'));
    const s = index([f.path('ws')]);
    assert.deepEqual(unreadable(s), []);
    assert.deepEqual(
      top(s).map((i) => i.name),
      ['both'],
    );
  });

  it('says nothing of a directory whose manifest is there after all (the directory changed since its job)', () => {
    f.write('ws/.codewhale/plugins/both/plugin.json', manifest('both'));
    f.write('ws/.codewhale/plugins/both/.claude-plugin/plugin.json', JSON.stringify({ name: 'both' }));
    denyDirectory(fsPatch, f.path('ws/.codewhale/plugins/both/.claude-plugin'));
    assert.equal(unreadableBundle(f.path('ws/.codewhale/plugins/both')), undefined);
  });

  // `Path::is_file` is false for a manifest that is a link loop (ELOOP) whoever asks: no user loads the bundle.
  it('says nothing of a lookup that fails for every user alike, as a link loop does', () => {
    const dir = f.mkdir('ws/.codewhale/plugins/loop');
    fs.symlinkSync('plugin.json', `${dir}/plugin.json`);
    const s = index([f.path('ws')]);
    assert.deepEqual(unreadable(s), []);
    assert.deepEqual(top(s), []);
  });

  it('still says nothing of a directory without a manifest', () => {
    f.write('ws/.codewhale/plugins/notes/README.md', 'not a bundle');
    const s = index([f.path('ws')]);
    assert.deepEqual(unreadable(s), []);
    assert.deepEqual(top(s), []);
  });
});
