import { strict as assert } from 'node:assert';
import { Fixture } from './helpers/fixture';
import { loadRivumiProject } from '../../src/core/systems/rivumi/load';
import { hooksFileCapabilities, pluginCapabilities } from '../../src/core/systems/rivumi/capabilities';

/**
 * What the review lists a Rivumi unit can do (trust.md "review": a new hook command is a
 * capability change): each hook by its event and exact argv, so an added or removed
 * command is named — a command listed twice is two entries — and, for a plugin, its
 * skills; beside the pairs its capability hash is computed from.
 */
describe('Rivumi capability inventory as the review lists it', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  it("lists a plugin's skills and hooks, with the pairs its capability hash covers", () => {
    f.write('ws/.rivumi/plugins/a.md', '---\nname: a\ndescription: d\n---\nbody\n');
    f.write(
      'ws/.rivumi/plugins/pk.json',
      JSON.stringify({
        skills: [{ path: 'a.md' }],
        hooks: { pre_compact: [{ command: ['sh', 'x'], timeout_seconds: 2 }] },
      }),
    );
    const p = loadRivumiProject(f.path('ws')).plugins[0];
    assert.ok(p?.hashes);
    const caps = pluginCapabilities(p);
    assert.deepEqual(
      [caps.system, caps.kind, caps.skills, caps.pairs],
      ['rivumi', 'plugin', [{ name: 'pk.a', path: '.rivumi/plugins/a.md' }], p.hashes.capabilities],
    );
    assert.deepEqual(
      { ...caps.hooks },
      { 'pre_compact: ["sh","x"]': { event: 'pre_compact', argv: ['sh', 'x'], timeoutSeconds: 2, tools: ['*'] } },
    );
  });

  it('keeps a command listed three times as three entries', () => {
    const entry = { command: ['sh', 'x'] };
    f.write('ws/.rivumi/hooks.json', JSON.stringify({ pre_tool_use: [entry, entry, entry], post_compact: [entry] }));
    const hf = loadRivumiProject(f.path('ws')).hooksFile;
    assert.ok(hf?.hashes);
    const caps = hooksFileCapabilities(hf);
    assert.deepEqual(Object.keys(caps.hooks ?? {}), [
      'pre_tool_use: ["sh","x"]',
      'pre_tool_use: ["sh","x"] (#2)',
      'pre_tool_use: ["sh","x"] (#3)',
      'post_compact: ["sh","x"]',
    ]);
    assert.deepEqual([caps.system, caps.kind, caps.pairs], ['rivumi', 'hooks', hf.hashes.capabilities]);
  });

  it('has no pairs for a unit that could not be hashed', () => {
    // Over the 65,536-byte caps: never read, so never hashed.
    f.write('ws/.rivumi/plugins/pk.json', `{"description": "${'x'.repeat(65536)}"}`);
    f.write('ws/.rivumi/hooks.json', `{"pre_tool_use": [], "x": "${'x'.repeat(65536)}"}`);
    const project = loadRivumiProject(f.path('ws'));
    const p = project.plugins[0];
    assert.ok(p && project.hooksFile);
    assert.deepEqual([p.hashes, project.hooksFile.hashes], [undefined, undefined]);
    assert.deepEqual(pluginCapabilities(p).pairs, {});
    assert.deepEqual(hooksFileCapabilities(project.hooksFile).pairs, {});
  });
});
