import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { Indexer } from '../../src/core/index/indexer';
import type { Snapshot } from '../../src/core/index/snapshot';
import { Fixture, writeW, writeD, byName, LINUX_HOST } from './helpers/fixture';

describe('incremental indexing', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const indexer = () => new Indexer({ workspaces: [f.path('ws')], codewhaleHome: f.path('home'), host: LINUX_HOST });

  it('re-reads only the bundle whose file changed', () => {
    writeW(f);
    writeD(f, '', 'ws/.codewhale/plugins/demo');
    const ix = indexer();
    const first = ix.indexAll();
    const demoBefore = byName(first, 'demo');
    f.write('ws/.codewhale/plugins/example-plugin/skills/example/SKILL.md', '---\nname: example\n---\nnew body\n');
    // Touch demo's manifest without telling the indexer: a refresh of the other bundle must not see it.
    f.write(
      'ws/.codewhale/plugins/demo/plugin.toml',
      'schema_version = 1\n[plugin]\nname = "demo"\nversion = "2.0.0"\n',
    );
    const next = ix.refresh([f.path('ws/.codewhale/plugins/example-plugin/skills/example/SKILL.md')]);
    assert.notEqual(byName(next, 'example-plugin').contentHash, byName(first, 'example-plugin').contentHash);
    assert.equal(byName(next, 'demo').contentHash, demoBefore.contentHash);
    assert.equal(byName(next, 'demo').detail.version, '1.0.0');
    assert.ok(next.generation > first.generation);
  });

  it('lists a root reached through a linked .codewhale again when a change is reported under its real path', () => {
    f.write('ws/.rivumi/plugins/p.json', '{"name": "p"}\n');
    f.symlink(f.path('ws/.rivumi'), 'ws/.codewhale');
    const ix = indexer();
    ix.indexAll();
    // Reported as Rivumi's file, as a watcher of `.rivumi` reports it; through the link it is in Codewhale's root too.
    f.symlink(f.path('ws/.rivumi/plugins/p.json'), 'ws/.rivumi/plugins/q.json');
    const refreshed = ix.refresh([f.path('ws/.rivumi/plugins/q.json')]);
    assert.deepEqual(JSON.stringify(refreshed.diagnostics), JSON.stringify(indexer().indexAll().diagnostics));
  });

  it('picks up an added and a removed bundle from a change to the root listing', () => {
    writeW(f);
    const ix = indexer();
    ix.indexAll();
    writeD(f, '', 'ws/.codewhale/plugins/demo');
    let s = ix.refresh([f.path('ws/.codewhale/plugins/demo')]);
    assert.deepEqual(
      s.items.filter((i) => i.parent === null).map((i) => i.name),
      ['demo', 'example-plugin'],
    );
    fs.rmSync(f.path('ws/.codewhale/plugins/example-plugin'), { recursive: true });
    s = ix.refresh([f.path('ws/.codewhale/plugins/example-plugin/plugin.toml')]);
    assert.deepEqual(
      s.items.filter((i) => i.parent === null).map((i) => i.name),
      ['demo'],
    );
  });

  it('re-reads a bundle whose directory name is not UTF-8 when the watcher names it with U+FFFD', () => {
    const dir = Buffer.concat([Buffer.from(f.path('ws/.codewhale/plugins/bad')), Buffer.from([0xff])]);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      Buffer.concat([dir, Buffer.from('/plugin.toml')]),
      'schema_version = 1\n[plugin]\nname = "demo"\nversion = "1.0.0"\n',
    );
    const ix = indexer();
    const first = ix.indexAll();
    fs.writeFileSync(
      Buffer.concat([dir, Buffer.from('/plugin.toml')]),
      'schema_version = 1\n[plugin]\nname = "demo"\nversion = "2.0.0"\n',
    );
    const next = ix.refresh([f.path('ws/.codewhale/plugins/bad\ufffd/plugin.toml')]);
    assert.equal(byName(first, 'demo').detail.version, '1.0.0');
    assert.equal(byName(next, 'demo').detail.version, '2.0.0');
    assert.deepEqual(next, {
      ...new Indexer({ workspaces: [f.path('ws')], codewhaleHome: f.path('home'), host: LINUX_HOST }).indexAll(),
      generation: next.generation,
    });
  });

  it('recomputes shadowing when a user bundle appears', () => {
    writeD(f, '', 'ws/.codewhale/plugins/demo');
    const ix = indexer();
    assert.equal(byName(ix.indexAll(), 'demo').decision, 'disabled');
    writeD(f);
    const s = ix.refresh([f.path('home/plugins/demo/plugin.toml')]);
    assert.deepEqual(
      s.items.filter((i) => i.parent === null).map((i) => [i.scope, i.decision]),
      [
        ['user', 'disabled'],
        ['workspace', 'shadowed'],
      ],
    );
  });

  it('reloads the Rivumi project when a skill or a hook script changes', () => {
    f.write('ws/.rivumi/skills/a.md', 'body');
    f.write('ws/.rivumi/hooks.json', '{"pre_compact":[{"command":["sh","scripts/check.sh"]}]}');
    f.write('ws/scripts/check.sh', 'exit 0\n');
    const ix = indexer();
    const first = ix.indexAll();
    f.write('ws/.rivumi/skills/b.md', 'body');
    assert.equal(ix.refresh([f.path('ws/.rivumi/skills/b.md')]).items.filter((i) => i.kind === 'skill').length, 2);
    f.write('ws/scripts/check.sh', 'exit 1\n');
    const after = ix.refresh([f.path('ws/scripts/check.sh')]);
    assert.notEqual(byName(after, 'hooks.json').contentHash, byName(first, 'hooks.json').contentHash);
    assert.ok(ix.watchedPaths().includes(f.path('ws/scripts/check.sh')));
  });

  it('reloads the Rivumi project when a directory above a hook script is swapped for a link, reported as the directory alone', () => {
    f.write('ws/.rivumi/hooks.json', '{"pre_compact":[{"command":["sh","scripts/check.sh"]}]}');
    f.write('ws/scripts/check.sh', 'exit 0\n');
    f.write('ws/elsewhere/check.sh', 'exit 1\n');
    const ix = indexer();
    const first = byName(ix.indexAll(), 'hooks.json');
    fs.rmSync(f.path('ws/scripts'), { recursive: true });
    f.symlink(f.path('ws/elsewhere'), 'ws/scripts');
    const after = ix.refresh([f.path('ws/scripts')]);
    assert.notEqual(byName(after, 'hooks.json').contentHash, first.contentHash);
    assert.ok(after.diagnostics.some((d) => d.code === 'rivumi.hook.argv-uncovered'));
    assert.deepEqual({ ...after, generation: 0 }, { ...indexer().indexAll(), generation: 0 });
  });

  it('re-derives decisions from a new trust view without reading any bundle', () => {
    writeW(f);
    let trusted = false;
    const ix = new Indexer({
      workspaces: [f.path('ws')],
      codewhaleHome: null,
      host: LINUX_HOST,
      trust: () => ({
        available: true,
        lookup: () =>
          trusted
            ? {
                enabled: true,
                trust: {
                  contentHash: 'b1a2eed2e26e16c7028c8f9801e41b3a8bd6b5850a24aa43e633fd2cc2ef0cc6',
                  capabilityHash: '2bab6e1754daaf6ae33b73d20434ee22dd8eba2557dfc55c0d32af4ae6a6c7e2',
                },
              }
            : undefined,
      }),
    });
    assert.equal(byName(ix.indexAll(), 'example-plugin').decision, 'disabled');
    trusted = true;
    const s = ix.snapshot();
    assert.deepEqual(
      [byName(s, 'example-plugin').decision, byName(s, 'example-plugin').reasons],
      ['registered', ['active']],
    );
    assert.deepEqual(byName(s, 'example-plugin:example').reasons, ['component_active']);
  });

  it('patches re-read bundles between other agents’ items as a full index would, and leaves earlier snapshots as they were', () => {
    // Rivumi's items come before Codewhale's; a user `demo` shadows the workspace's, `example-plugin` stands alone.
    f.write('ws/.rivumi/skills/a.md', 'body');
    writeW(f);
    writeD(f);
    writeD(f, '', 'ws/.codewhale/plugins/demo');
    f.write('ws/.codewhale/plugins/demo/mcp.json', '{"mcpServers": {"x": {"command": "/bin/sh"}}}');
    const ix = indexer();
    const kept: [Snapshot, string][] = [];
    const check = (s: Snapshot) => {
      assert.deepEqual({ ...s, generation: 0 }, { ...indexer().indexAll(), generation: 0 });
      kept.push([s, JSON.stringify(s)]);
    };
    check(ix.indexAll());
    const skill = 'ws/.codewhale/plugins/example-plugin/skills/example/SKILL.md';
    for (const [rel, text] of [
      // Patched in: alone under its name and root.
      [skill, '---\nname: example\ndescription: changed\n---\nbody\n'],
      // Shadowed by the user's `demo`: every bundle placed again.
      ['ws/.codewhale/plugins/demo/plugin.toml', 'schema_version = 1\n[plugin]\nname = "demo"\nversion = "2.0.0"\n'],
      // Patched again, now into the parts the full placement left; then a skill that fails validation.
      [skill, '---\nname: example\ndescription: again\n---\nbody\n'],
      [skill, '---\nname: Not A Safe Name\n---\nx\n'],
      ['home/plugins/demo/plugin.toml', 'schema_version = 1\n[plugin]\nname = "demo"\nversion = "3.0.0"\n'],
    ] as const) {
      f.write(rel, text);
      check(ix.refresh([f.path(rel)]));
    }
    for (const [s, json] of kept) assert.equal(JSON.stringify(s), json);
  });

  it('indexes asynchronously to the same snapshot, letting other work run between slices of bundles', async () => {
    for (let i = 0; i < 40; i++) {
      f.write(
        `ws/.codewhale/plugins/p${i}/plugin.json`,
        JSON.stringify({ $schema: 'https://agent-plugins.org/schemas/plugin.json', name: `p${i}`, version: '1.0.0' }),
      );
      f.write(`ws/.codewhale/plugins/p${i}/skills/s/SKILL.md`, `---\nname: s${i}\n---\nbody\n`);
    }
    f.write('ws/.codewhale/plugins/p7/mcp.json', '{"mcpServers": {"x": {"command": "/bin/sh"}}}');
    f.mkdir('ws/.codewhale/plugins/no-manifest');
    writeD(f);
    const sync = indexer().indexAll();
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const ix = indexer();
    const pending = ix.indexAllAsync();
    const async = await pending;
    clearInterval(timer);
    assert.deepEqual({ ...async, generation: 0 }, { ...sync, generation: 0 });
    assert.ok(ticks > 0, 'the event loop ran while bundles loaded');
    // The asynchronous result is a full index: a refresh after it is incremental as usual.
    f.write('ws/.codewhale/plugins/p3/skills/s/SKILL.md', '---\nname: s3\n---\nchanged\n');
    const next = ix.refresh([f.path('ws/.codewhale/plugins/p3/skills/s/SKILL.md')]);
    assert.notEqual(byName(next, 'p3').contentHash, byName(async, 'p3').contentHash);
    assert.equal(byName(next, 'p4').contentHash, byName(async, 'p4').contentHash);
  });
});
