import { strict as assert } from 'node:assert';
import { scanRoot, workspacePluginRoot } from '../../src/core/systems/codewhale/discovery';
import { Fixture } from './helpers/fixture';
import { fsPatcher } from './helpers/fsPatch';
import { denyDirectory } from './helpers/deniedDirectory';

/**
 * A discovery root this user may not read (codewhale.md §2.2; upstream discovery.rs `scan_root`).
 * Codewhale run as the same user cannot read it either, but one run as another user can: the
 * root must never read as absent (list empty, check passing) without a word.
 */
describe('Codewhale discovery root this user may not read', () => {
  const fsPatch = fsPatcher();
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());
  const diags = (s: ReturnType<typeof scanRoot>) => s.diagnostics.map((d) => [d.code, d.severity, d.message, d.file]);
  const workspace = () => {
    f.write('.codewhale/plugins/demo/plugin.toml', '[plugin]\nname = "demo"\n');
    return workspacePluginRoot(f.root);
  };

  it('says so at a root inside a .codewhale it may not search (mode 000), which upstream skips silently', () => {
    const root = workspace();
    denyDirectory(fsPatch, f.path('.codewhale'));
    const s = scanRoot(root, 'workspace');
    assert.deepEqual(s.candidates, []);
    assert.deepEqual(diags(s), [
      [
        'codewhale.root-unreadable',
        'error',
        `Plugin discovery root ${root} cannot be inspected: Permission denied (os error 13). Codewhale skips it without a word, so run as this user it loads no bundle from it; run as a user who may read it, it loads the bundles there, which Skillgate cannot show`,
        root,
      ],
    ]);
  });

  it('reports a root it may not list in Rust’s words, as upstream’s root-read-failed', () => {
    const root = workspace();
    denyDirectory(fsPatch, root);
    const s = scanRoot(root, 'workspace');
    assert.deepEqual(s.candidates, []);
    assert.deepEqual(diags(s), [
      [
        'codewhale.root-read-failed',
        'error',
        `Failed to read plugin root ${root}: Permission denied (os error 13)`,
        root,
      ],
    ]);
  });

  it('still says nothing of a root under a file (ENOTDIR): no user finds bundles there', () => {
    const home = f.write('home', 'a file');
    const s = scanRoot(`${home}/plugins`, 'user');
    assert.deepEqual(diags(s), []);
  });
});
