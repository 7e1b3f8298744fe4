import { strict as assert } from 'node:assert';
import { Findings } from '../../src/core/diagnostics/findings';
import { readPluginJson } from '../../src/core/systems/codewhale/formats/pluginJson';
import { readKimiJson } from '../../src/core/systems/codewhale/formats/kimiJson';
import { walkedTree } from '../../src/core/systems/codewhale/bundleTree';
import { Fixture } from './helpers/fixture';

/**
 * Names the content walk did not hold, as on a case-insensitive file system (macOS, Windows):
 * the walk lists `MCP.json` and `Skills/` byte for byte, while Codewhale opens `mcp.json`
 * and asks `skills.is_dir()` through the file system, which finds them. The loader's
 * questions about a name the walk did not hold go to the disk (bundleTree.ts), in every
 * manifest format alike; otherwise Skillgate shows no MCP server and no skill where
 * Codewhale starts and loads them, and its capability hash is not Codewhale's.
 */
describe('Codewhale defaults and sidecars the walk did not hold (bundleTree.ts)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  /**
   * The walk of a bundle on a case-insensitive file system: it listed `MCP.json`, `Skills/`
   * and `Skill.md` (spelled as created), while the disk below answers `mcp.json`, `skills`
   * and `SKILL.md` as that file system does.
   */
  const walkOf = (manifest: string) => {
    const mcp = Buffer.from(JSON.stringify({ mcpServers: { local: { command: 'node', args: ['server.js'] } } }));
    const file = (p: string, size = 0) => ({ path: p, size, sha256: '0'.repeat(64), executable: false });
    const tree = walkedTree({
      ok: true,
      contentHash: '0'.repeat(64),
      files: [file(manifest), file('MCP.json', mcp.length), file('Skills/hello/SKILL.md'), file('Skill.md')],
      directories: ['', 'Skills', 'Skills/hello'],
      retained: new Map([['MCP.json', mcp]]),
    });
    return tree as typeof tree & { beyondWalk: boolean };
  };
  const SCHEMA = 'https://agent-plugins.org/schemas/plugin.json';

  it('plugin.json: the default skills/ directory and the sibling mcp.json are asked of the disk', () => {
    const root = f.mkdir('b');
    f.write('b/skills/hello/SKILL.md', '---\nname: hello\n---\nbody\n');
    f.write('b/mcp.json', JSON.stringify({ mcpServers: { local: { command: 'node', args: ['server.js'] } } }));
    f.write('b/server.js', '');
    const tree = walkOf('plugin.json');
    const findings = new Findings();
    const m = readPluginJson(
      f.path('b/plugin.json'),
      JSON.stringify({ $schema: SCHEMA, name: 'cased' }),
      root,
      findings,
      tree,
    );
    assert.deepEqual(
      findings.diagnostics.map((d) => d.message),
      [],
    );
    assert.deepEqual(
      m?.mcpServers.map((s) => s.id),
      ['local'],
      'Codewhale starts the server mcp.json declares',
    );
    assert.deepEqual(
      m?.components.skills?.paths.map((p) => p.value),
      ['skills'],
      'Codewhale loads skills/ by default',
    );
    assert.equal(tree.beyondWalk, true, 'what the disk answered is not the content hash’s, so not for the parse cache');
  });

  it('plugin.json: a name the disk does not have either is absent, and leaves the walk alone', () => {
    const root = f.mkdir('b');
    const tree = walkOf('plugin.json');
    const findings = new Findings();
    const m = readPluginJson(
      f.path('b/plugin.json'),
      JSON.stringify({ $schema: SCHEMA, name: 'plain' }),
      root,
      findings,
      tree,
    );
    assert.deepEqual(m?.components, {});
    assert.deepEqual(m?.mcpServers, []);
    assert.equal(tree.beyondWalk, false);
  });

  it('kimi.plugin.json asks the disk the same way for its default SKILL.md (the rule the others follow)', () => {
    const root = f.mkdir('b');
    f.write('b/SKILL.md', '---\nname: k\n---\nbody\n');
    const tree = walkOf('kimi.plugin.json');
    const m = readKimiJson(
      f.path('b/kimi.plugin.json'),
      JSON.stringify({ name: 'k', keywords: [] }),
      root,
      new Findings(),
      'kimi.plugin.json',
      tree,
    );
    assert.deepEqual(
      m?.components.skills?.paths.map((p) => p.value),
      ['.'],
    );
    assert.equal(tree.beyondWalk, true);
  });
});
