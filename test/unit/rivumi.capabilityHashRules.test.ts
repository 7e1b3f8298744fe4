import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { Fixture } from './helpers/fixture';
import { loadRivumiProject } from '../../src/core/systems/rivumi/load';
import { rivumiCapabilityHash } from '../../src/core/systems/rivumi/capabilityHash';

/**
 * The Rivumi capability hash decides whether a change needs a new review of what a unit
 * can do (trust.md "Hashes", "Status"): it is over the inventory only — skill count, hook
 * count, the sets of hook events, commands (argv[0]) and tool filters. So each of those
 * changes it, and nothing else does: not the order of entries, a timeout, later argv
 * elements, a tool repeated, a skill's path or the plugin's description. (The content
 * hash catches those.)
 */
describe('Rivumi capability hash: what changes it and what must not (trust.md)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  /** A plugin with the given skills (paths) and hooks, as the loader reads it; its two hashes. */
  const plugin = (manifest: { skills?: string[]; hooks?: unknown; description?: string }) => {
    f.remove();
    f = new Fixture();
    for (const s of manifest.skills ?? []) f.write(`ws/.rivumi/plugins/${s}`, `body of ${s}`);
    f.write(
      'ws/.rivumi/plugins/pk.json',
      JSON.stringify({
        ...(manifest.description === undefined ? {} : { description: manifest.description }),
        skills: (manifest.skills ?? []).map((path) => ({ path })),
        hooks: manifest.hooks ?? {},
      }),
    );
    const p = loadRivumiProject(f.path('ws')).plugins[0];
    assert.equal(p?.state, 'valid', p?.error?.message);
    return { capability: p.hashes?.capabilityHash, content: p.hashes?.contentHash };
  };

  const base = {
    skills: ['a.md', 'b.md'],
    hooks: {
      pre_tool_use: [
        { command: ['python', 'check.py'], tools: ['read_file', 'run_check'] },
        { command: ['sh', 'audit.sh'] },
      ],
      pre_compact: [{ command: ['sh', 'compact.sh'] }],
    },
  };

  it('stays the same when only the order, timeouts, later argv, repeated tools, skill paths or the description change', () => {
    const reference = plugin(base);
    const same: [string, Parameters<typeof plugin>[0]][] = [
      [
        'entries of an event reordered',
        {
          ...base,
          hooks: { ...base.hooks, pre_tool_use: [base.hooks.pre_tool_use[1], base.hooks.pre_tool_use[0]] },
        },
      ],
      [
        'events written in another order',
        { ...base, hooks: { pre_compact: base.hooks.pre_compact, pre_tool_use: base.hooks.pre_tool_use } },
      ],
      [
        'a timeout set',
        {
          ...base,
          hooks: { ...base.hooks, pre_compact: [{ command: ['sh', 'compact.sh'], timeout_seconds: 30 }] },
        },
      ],
      [
        'arguments after argv[0] changed',
        { ...base, hooks: { ...base.hooks, pre_compact: [{ command: ['sh', 'other.sh', '--fast'] }] } },
      ],
      [
        'tools reordered and repeated',
        {
          ...base,
          hooks: {
            ...base.hooks,
            pre_tool_use: [
              { command: ['python', 'check.py'], tools: ['run_check', 'read_file', 'run_check'] },
              base.hooks.pre_tool_use[1],
            ],
          },
        },
      ],
      ['skills renamed and reordered', { ...base, skills: ['z.md', 'c.md'] }],
      ['a description added', { ...base, description: 'now it says what it does' }],
    ];
    for (const [what, manifest] of same) {
      const now = plugin(manifest);
      assert.equal(now.capability, reference.capability, what);
      assert.notEqual(now.content, reference.content, `${what}: the content hash still notices`);
    }
  });

  it('changes with each part of the inventory', () => {
    const reference = plugin(base).capability;
    const changed: [string, Parameters<typeof plugin>[0]][] = [
      ['a third skill', { ...base, skills: [...base.skills, 'c.md'] }],
      [
        'the same command once more',
        { ...base, hooks: { ...base.hooks, pre_compact: [...base.hooks.pre_compact, ...base.hooks.pre_compact] } },
      ],
      [
        'a hook moved to another event',
        { ...base, hooks: { ...base.hooks, pre_compact: undefined, post_compact: base.hooks.pre_compact } },
      ],
      ['a new command', { ...base, hooks: { ...base.hooks, pre_compact: [{ command: ['bash', 'compact.sh'] }] } }],
      [
        'a tool filter added',
        { ...base, hooks: { ...base.hooks, pre_compact: [{ command: ['sh', 'compact.sh'], tools: ['git_diff'] }] } },
      ],
    ];
    for (const [what, manifest] of changed) assert.notEqual(plugin(manifest).capability, reference, what);
  });

  it('hashes a command by the bytes Rivumi runs, so two undecodable names never collide', () => {
    // `r\udcff` and `r\udcfe` stand for the bytes 72 ff and 72 fe; as UTF-8 both would be "r\ufffd".
    const pairs = (command: string) =>
      new Map([
        ['hook-commands', command],
        ['hook-events', 'pre_compact'],
        ['hooks', '1'],
        ['skills', '0'],
        ['tools', '*'],
      ]);
    const expected = (raw: number) =>
      createHash('sha256')
        .update('skillgate-rivumi-capabilities-v1\0hook-commands\0')
        .update(Buffer.from([0x72, raw]))
        .update('\0hook-events\0pre_compact\0hooks\x001\0skills\x000\0tools\0*\0')
        .digest('hex');
    assert.equal(rivumiCapabilityHash(pairs('r\udcff')), expected(0xff));
    assert.equal(rivumiCapabilityHash(pairs('r\udcfe')), expected(0xfe));
  });
});
