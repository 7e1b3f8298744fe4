import { strict as assert } from 'node:assert';
import { hashTarget } from '../../src/core/index/hashTarget';
import { Fixture, byName, index } from './helpers/fixture';

/**
 * `skillgate hash <manifest>` hashes the bundle the manifest belongs to. The Claude form's
 * manifest sits one directory down (`<bundle>/.claude-plugin/plugin.json`, codewhale.md
 * §2.4: "bundle root = parent of `.claude-plugin`"), so its bundle is the directory above.
 */
describe('skillgate hash of a Codewhale manifest file', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  it('hashes a Claude-form bundle from its .claude-plugin/plugin.json, as from its directory and as the index does', () => {
    const dir = 'ws/.codewhale/plugins/cl';
    f.write(`${dir}/.claude-plugin/plugin.json`, JSON.stringify({ name: 'cl' }));
    f.write(`${dir}/skills/s/SKILL.md`, '---\nname: s\n---\nbody\n');
    const item = byName(index([f.path('ws')]), 'cl');
    assert.ok(item.reviewToken);
    const fromDir = hashTarget(f.path(dir));
    assert.ok(fromDir.ok, fromDir.ok ? '' : fromDir.message);
    assert.equal(fromDir.reviewToken, item.reviewToken);
    const fromManifest = hashTarget(f.path(`${dir}/.claude-plugin/plugin.json`));
    assert.ok(fromManifest.ok, fromManifest.ok ? '' : fromManifest.message);
    assert.deepEqual([fromManifest.name, fromManifest.reviewToken], ['cl', item.reviewToken]);
  });

  it('keeps a plugin.json that wins its own directory (a bundle directory named .claude-plugin under another)', () => {
    // The bundle above holds plugin.toml, which wins over .claude-plugin/plugin.json: the file is its own bundle's.
    f.write('b/plugin.toml', 'schema_version = 1\n[plugin]\nname = "outer"\nversion = "1.0.0"\n');
    f.write(
      'b/.claude-plugin/plugin.json',
      JSON.stringify({ $schema: 'https://agent-plugins.org/schemas/plugin.json', name: 'inner', version: '1.0.0' }),
    );
    const r = hashTarget(f.path('b/.claude-plugin/plugin.json'));
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.equal(r.name, 'inner');
  });
});
