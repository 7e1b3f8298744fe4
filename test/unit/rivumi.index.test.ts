import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { createHash } from 'node:crypto';
import { Fixture } from './helpers/fixture';
import { RivumiIndex } from '../../src/core/systems/rivumi/rivumiIndex';
import { loadRivumiProject } from '../../src/core/systems/rivumi/load';
import { faultedRivumiItems, faultedRivumiProject } from '../../src/core/systems/rivumi/faults';
import { EMPTY_TRUST } from '../../src/core/decisions/trustView';
import type { RivumiProject } from '../../src/core/systems/rivumi/model';

const json = (v: unknown) => JSON.stringify(v, null, 2);
const CTX = { trust: EMPTY_TRUST, workspaceTrusted: true };

/**
 * One workspace's `.rivumi/` in the index: what a change re-reads, what is watched, the
 * opt-in as Rivumi reads it, and the fault boundary that fails closed (rivumi.md §4.5;
 * trust.md "Hook argv files, exactly").
 */
describe('Rivumi index: re-reads, watches, the opt-in and the fault boundary', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  /** An index over `ws` that counts the loads of each workspace. */
  const counted = (workspaces: string[], env?: string) => {
    const loads: string[] = [];
    const idx = new RivumiIndex({
      workspaces,
      rivumiHooksEnv: env,
      readers: {
        rivumiProject: (ws) => {
          loads.push(ws);
          return loadRivumiProject(ws);
        },
      },
    });
    idx.scan();
    loads.length = 0;
    return { idx, loads };
  };

  describe('refresh', () => {
    beforeEach(() => {
      f.write('ws/.rivumi/hooks.json', json({ pre_tool_use: [{ command: ['python', 'scripts/hook.py'] }] }));
      f.write('ws/scripts/hook.py', 'print(1)\n');
      f.mkdir('other');
    });

    it('re-reads a workspace when .rivumi, a file under it, or a folder above it changes', () => {
      for (const changed of [
        f.path('ws/.rivumi'),
        f.path('ws/.rivumi/skills/a.md'),
        f.path('ws'),
        f.path('ws/scripts/hook.py'),
      ]) {
        const { idx, loads } = counted([f.path('ws'), f.path('other')]);
        idx.refresh([changed]);
        assert.deepEqual(loads, [f.path('ws')], changed);
      }
    });

    it('re-reads every workspace below a changed folder', () => {
      const { idx, loads } = counted([f.path('ws'), f.path('other')]);
      idx.refresh([f.root]);
      assert.deepEqual(loads, [f.path('ws'), f.path('other')]);
    });

    it('does not re-read for an unrelated file, a sibling named like .rivumi, or another workspace', () => {
      for (const changed of [
        f.path('ws/src/app.py'),
        f.path('ws/.rivumi-old/x.md'),
        f.path('ws/.rivumirc'),
        f.path('ws/scripts/other.py'),
        f.path('other/.rivumi/hooks.json').replace('other', 'elsewhere'),
      ]) {
        const { idx, loads } = counted([f.path('ws'), f.path('other')]);
        idx.refresh([changed]);
        assert.deepEqual(loads, [], changed);
      }
    });

    it('re-reads each affected workspace once for many changes', () => {
      const { idx, loads } = counted([f.path('ws'), f.path('other')]);
      idx.refresh([f.path('ws/.rivumi/a'), f.path('ws/.rivumi/b'), f.path('other/.rivumi')]);
      assert.deepEqual(loads, [f.path('ws'), f.path('other')]);
    });

    it('shows the new state after a re-read', () => {
      const idx = new RivumiIndex({ workspaces: [f.path('ws')] });
      idx.scan();
      assert.equal(idx.compose(CTX).items.filter((i) => i.kind === 'skill').length, 0);
      f.write('ws/.rivumi/skills/a.md', 'body');
      idx.refresh([f.path('ws/.rivumi/skills/a.md')]);
      assert.equal(idx.compose(CTX).items.filter((i) => i.kind === 'skill').length, 1);
    });
  });

  describe('watched paths', () => {
    it("watches the paths hooks.json's and each plugin's hooks name, once each, and no tree", () => {
      f.write('ws/.rivumi/hooks.json', json({ pre_tool_use: [{ command: ['python', 'scripts/hook.py'] }] }));
      f.write(
        'ws/.rivumi/plugins/pk.json',
        json({ hooks: { pre_compact: [{ command: ['sh', 'scripts/hook.py', 'tools/run.sh'] }] } }),
      );
      f.write('ws/scripts/hook.py', 'print(1)\n');
      const idx = new RivumiIndex({ workspaces: [f.path('ws')] });
      idx.scan();
      // Missing names are watched too (argv[0] included): a file appearing there changes what is covered.
      assert.deepEqual(idx.watchedPaths().sort(), [
        f.path('ws/python'),
        f.path('ws/scripts/hook.py'),
        f.path('ws/sh'),
        f.path('ws/tools/run.sh'),
      ]);
      assert.deepEqual(idx.watchedTrees(), []);
    });
    it('watches what Rivumi reads where a linked .rivumi leads, never the whole target, and re-reads what is reported there', () => {
      // The editor's watchers follow no link inside a folder: `<ws>/.rivumi/**` never reports an
      // edit behind `.rivumi -> <target>`, inside the folder or outside it.
      f.write('shared/skills/a.md', '---\nname: a\ndescription: one\n---\nbody\n');
      f.write('shared/notes/big.txt', 'not read by Rivumi');
      f.symlink(f.path('shared'), 'ws/.rivumi');
      f.write('ws2/tools/rv/plugins/pk.json', json({ skills: [{ path: 'sub/s.md' }] }));
      f.write('ws2/tools/rv/plugins/sub/s.md', '---\nname: s\ndescription: one\n---\nbody\n');
      f.symlink('tools/rv', 'ws2/.rivumi');
      const { idx, loads } = counted([f.path('ws'), f.path('ws2')]);
      assert.deepEqual(idx.watchedTrees(), [
        { base: f.path('shared'), pattern: '{skills,plugins,hooks.json}' },
        { base: f.path('shared/skills'), pattern: '*' },
        { base: f.path('ws2/tools/rv'), pattern: '{skills,plugins,hooks.json}' },
        { base: f.path('ws2/tools/rv/plugins'), pattern: '**' },
      ]);
      const items = () => idx.compose(CTX).items;
      const described = (name: string) => items().find((i) => i.name === name)?.detail.description;
      const pluginHash = () => items().find((i) => i.kind === 'plugin')?.contentHash;

      // An edit to a skill behind the link, reported as the target's watcher spells it.
      f.write('shared/skills/a.md', '---\nname: a\ndescription: two\n---\nbody\n');
      idx.refresh([f.path('shared/skills/a.md')]);
      assert.deepEqual(loads, [f.path('ws')]);
      assert.equal(described('a'), 'two');

      // A plugin's skill file in a subdirectory of plugins/, inside the folder: its hash follows it.
      const before = pluginHash();
      assert.ok(before);
      f.write('ws2/tools/rv/plugins/sub/s.md', '---\nname: s\ndescription: two\n---\nbody\n');
      idx.refresh([f.path('ws2/tools/rv/plugins/sub/s.md')]);
      assert.deepEqual(loads, [f.path('ws'), f.path('ws2')]);
      assert.notEqual(pluginHash(), before);

      // plugins/ and hooks.json made behind the link after the first read: their appearing is reported.
      f.write('shared/plugins/late.json', json({}));
      idx.refresh([f.path('shared/plugins')]);
      assert.ok(items().some((i) => i.kind === 'plugin' && i.name === 'late'));
      assert.deepEqual(idx.watchedTrees().slice(0, 3), [
        { base: f.path('shared'), pattern: '{skills,plugins,hooks.json}' },
        { base: f.path('shared/skills'), pattern: '*' },
        { base: f.path('shared/plugins'), pattern: '**' },
      ]);
      f.write('shared/hooks.json', json({ pre_tool_use: [{ command: ['true'] }] }));
      idx.refresh([f.path('shared/hooks.json')]);
      assert.ok(items().some((i) => i.kind === 'hooks'));

      // What Rivumi does not read there re-reads nothing.
      loads.length = 0;
      idx.refresh([f.path('shared/notes/big.txt'), f.path('shared/skills-old'), f.path('ws2/tools/other.md')]);
      assert.deepEqual(loads, []);
    });

    it('watches no tree once .rivumi is a real directory again', () => {
      f.write('shared/skills/a.md', 'body');
      f.symlink(f.path('shared'), 'ws/.rivumi');
      const { idx } = counted([f.path('ws')]);
      assert.equal(idx.watchedTrees().length, 2);
      fs.unlinkSync(f.path('ws/.rivumi'));
      f.write('ws/.rivumi/skills/a.md', 'body');
      idx.refresh([f.path('ws/.rivumi')]);
      assert.deepEqual(idx.watchedTrees(), []);
    });

    it('watches nothing before a scan or without hooks', () => {
      f.write('ws/.rivumi/skills/a.md', 'body');
      const idx = new RivumiIndex({ workspaces: [f.path('ws')] });
      assert.deepEqual(idx.watchedPaths(), []);
      idx.scan();
      assert.deepEqual(idx.watchedPaths(), []);
    });
  });

  describe('the opt-in (§4.5)', () => {
    for (const [value, on] of [
      ['1', true],
      [undefined, false],
      ['', false],
      [' 1', false],
      ['1 ', false],
      ['true', false],
      ['01', false],
    ] as const) {
      it(`reads RIVUMI_ENABLE_PROJECT_HOOKS=${JSON.stringify(value)} as ${on ? 'on' : 'off'}`, () => {
        f.write('ws/.rivumi/hooks.json', json({ pre_compact: [{ command: ['true'] }] }));
        const idx = new RivumiIndex({ workspaces: [f.path('ws')], rivumiHooksEnv: value });
        idx.scan();
        const hooks = idx.compose(CTX).items.find((i) => i.name === 'hooks.json');
        assert.equal(hooks?.reasons.includes('hooks_not_opted_in'), !on);
      });
    }
  });

  describe('the fault boundary', () => {
    const faulted = (ws: string) => {
      const id = `rivumi:${createHash('sha256').update(ws).digest('hex').slice(0, 12)}:.rivumi`;
      return { id, dir: `${ws}/.rivumi` };
    };

    it('stands a thrown load for one rejected, unreviewed .rivumi item without an enable bit; other workspaces are unaffected', () => {
      f.write('good/.rivumi/skills/a.md', 'body');
      f.mkdir('bad');
      const idx = new RivumiIndex({
        workspaces: [f.path('bad'), f.path('good')],
        readers: {
          rivumiProject: (ws) => {
            if (ws === f.path('bad')) throw new Error('disk on fire');
            return loadRivumiProject(ws);
          },
        },
      });
      idx.scan();
      const { items, diagnostics } = idx.compose(CTX);
      const { id, dir } = faulted(f.path('bad'));
      const item = items.find((i) => i.workspace === f.path('bad'));
      assert.deepEqual(
        [item?.id, item?.name, item?.kind, item?.path, item?.decision, item?.reasons, item?.trust, item?.enabled],
        [id, '.rivumi', 'plugin', dir, 'rejected', ['manifest_invalid', 'not_reviewed'], 'not-reviewed', null],
      );
      assert.deepEqual(
        diagnostics.map((d) => [d.code, d.severity, d.file, d.itemId]),
        [['skillgate.internal', 'error', dir, id]],
      );
      assert.match(diagnostics[0]?.message ?? '', /disk on fire/);
      assert.ok(items.some((i) => i.workspace === f.path('good') && i.name === 'a'));
    });

    it('stands a fault while deciding for the same item', () => {
      f.mkdir('ws');
      const broken = (ws: string): RivumiProject => {
        const real = loadRivumiProject(ws);
        return { ...real, skills: null as unknown as RivumiProject['skills'] };
      };
      const idx = new RivumiIndex({ workspaces: [f.path('ws')], readers: { rivumiProject: broken } });
      idx.scan();
      const { items, diagnostics } = idx.compose(CTX);
      assert.deepEqual(
        items.map((i) => [i.id, i.decision]),
        [[faulted(f.path('ws')).id, 'rejected']],
      );
      assert.equal(diagnostics[0]?.file, faulted(f.path('ws')).dir);
    });

    it('keeps the fault of a faulted project with its own item', () => {
      const project = faultedRivumiProject(f.path('ws'), new Error('boom'));
      assert.deepEqual(
        [project.skills, project.plugins, project.skillLoad, project.hookLoad, project.diagnostics],
        [[], [], null, null, []],
      );
      assert.match(project.fault?.message ?? '', /^internal error while reading this workspace's \.rivumi: .*boom/);
      const out = faultedRivumiItems(f.path('ws'), project.fault as NonNullable<RivumiProject['fault']>, CTX);
      assert.deepEqual(out.diagnostics, [{ ...project.fault, itemId: faulted(f.path('ws')).id }]);
      assert.deepEqual(
        [out.items[0]?.system, out.items[0]?.scope, out.items[0]?.parent, out.items[0]?.qualifiedName],
        ['rivumi', 'workspace', null, '.rivumi'],
      );
    });
  });
});
