import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import fc from 'fast-check';
import { Indexer, type IndexOptions } from '../../src/core/index/indexer';
import { mapTrustView } from './helpers/mapTrust';
import type { BundleStateView } from '../../src/core/decisions/trustView';
import type { Snapshot } from '../../src/core/index/snapshot';
import { SnapshotReceiver, SnapshotSender } from '../../src/extension/flows/snapshotTransfer';
import { Fixture, LINUX_HOST } from './helpers/fixture';
import { A0, L0, writeEvaProject } from './helpers/evaFixture';

/**
 * The same property as incremental.snapshots.test.ts, for Rivumi and Eva: after any
 * sequence of edits, each reported as a file watcher would (the file, or for a directory
 * removed, renamed or swapped for a link, the directory alone), a refreshed snapshot equals
 * a fresh full index of the same disk and trust store. Rivumi's hook scripts live outside
 * `.rivumi/`; Eva's project reads `config/`, a schema folder beside it and the user's skill
 * folders in the home, so each agent's own reach outside its root is exercised.
 */
const HOOKS = JSON.stringify({
  pre_tool_use: [{ command: ['sh', 'scripts/check.sh'] }, { command: ['bash', '-c', '. ./lib/env.sh'] }],
  post_tool_use: [{ command: ['sh', 'scripts/later.sh'] }],
});
const PLUGIN = JSON.stringify({
  name: 'p',
  skills: [{ path: 'p/s.md' }],
  hooks: { pre_compact: [{ command: ['sh', 'tools/run.sh'] }] },
});

/** One change on disk; returns the paths a watcher reports for it (relative to the fixture). */
type Edit = { readonly name: string; readonly apply: (f: Fixture) => string[] };

const write =
  (rel: string, text: string): Edit['apply'] =>
  (f) => {
    f.write(rel, text);
    return [rel];
  };

/** A directory gone, reported as the directory only (a `rm -rf` or a rename). */
const removeDir =
  (rel: string): Edit['apply'] =>
  (f) => {
    fs.rmSync(f.path(rel), { recursive: true, force: true });
    return [rel];
  };

/** A directory swapped for a link to another directory of the workspace, reported as the directory only. */
const linkDir =
  (rel: string, to: string): Edit['apply'] =>
  (f) => {
    fs.rmSync(f.path(rel), { recursive: true, force: true });
    f.mkdir(to);
    f.symlink(f.path(to), rel);
    return [rel];
  };

/** A directory renamed away and made again with other files, reported as the directory only. */
const remakeDir =
  (rel: string, file: string, text: string): Edit['apply'] =>
  (f) => {
    fs.rmSync(f.path(rel), { recursive: true, force: true });
    f.write(`${rel}/${file}`, text);
    return [rel];
  };

const EDITS: readonly Edit[] = [
  // Rivumi, in `r/`.
  { name: 'rivumi skill body', apply: write('r/.rivumi/skills/a.md', '---\nname: a\n---\nchanged\n') },
  { name: 'rivumi skill added', apply: write('r/.rivumi/skills/b.md', 'body\n') },
  { name: 'rivumi skill broken', apply: write('r/.rivumi/skills/a.md', '---\nname: Not Safe\n---\nx\n') },
  { name: 'rivumi skills removed', apply: removeDir('r/.rivumi/skills') },
  { name: 'rivumi hook script edited', apply: write('r/scripts/check.sh', 'exit 1\n') },
  { name: 'rivumi inline script edited', apply: write('r/lib/env.sh', 'export X=2\n') },
  { name: 'rivumi missing script created', apply: write('r/scripts/later.sh', 'exit 0\n') },
  { name: 'rivumi scripts dir removed', apply: removeDir('r/scripts') },
  { name: 'rivumi scripts dir remade', apply: remakeDir('r/scripts', 'check.sh', 'exit 2\n') },
  { name: 'rivumi scripts dir linked', apply: linkDir('r/scripts', 'r/elsewhere') },
  { name: 'rivumi lib dir linked', apply: linkDir('r/lib', 'r/elsewhere') },
  { name: 'rivumi hooks.json broken', apply: write('r/.rivumi/hooks.json', '{"pre_tool_use": [') },
  { name: 'rivumi hooks.json restored', apply: write('r/.rivumi/hooks.json', HOOKS) },
  { name: 'rivumi plugin skill edited', apply: write('r/.rivumi/plugins/p/s.md', '---\nname: ps\n---\nnew\n') },
  { name: 'rivumi plugin script edited', apply: write('r/tools/run.sh', 'exit 3\n') },
  { name: 'rivumi plugin tools dir linked', apply: linkDir('r/tools', 'r/elsewhere') },
  { name: 'rivumi plugin renamed', apply: write('r/.rivumi/plugins/p.json', PLUGIN.replace('"p"', '"q"')) },
  // Eva, in `e/`, with user skills in `home/`.
  { name: 'eva lua script edited', apply: write('e/config/skills/lint.lua', 'return { x = 1 }\n') },
  { name: 'eva schema beside config edited', apply: write('e/schemas/lint.input.json', '{"type":"string"}') },
  { name: 'eva schemas dir removed', apply: removeDir('e/schemas') },
  {
    name: 'eva adapter edited',
    apply: write('e/config/adapters/review.yaml', A0.replace('priority: 10', 'priority: 11')),
  },
  { name: 'eva capability broken', apply: write('e/config/capabilities/lint.yaml', 'id: [') },
  { name: 'eva capability restored', apply: write('e/config/capabilities/lint.yaml', L0) },
  { name: 'eva capabilities dir removed', apply: removeDir('e/config/capabilities') },
  { name: 'eva.yaml broken', apply: write('e/config/eva.yaml', 'runtime: [') },
  { name: 'eva skills dir linked', apply: linkDir('e/config/skills', 'e/elsewhere') },
  {
    name: 'eva user skill added',
    apply: write('home/.codex/skills/u/SKILL.md', '---\nname: u\ndescription: d\n---\nb\n'),
  },
  {
    name: 'eva user skill edited',
    apply: write('home/.codex/skills/review/SKILL.md', '---\nname: review\ndescription: x\n---\nz\n'),
  },
  { name: 'eva user skills removed', apply: removeDir('home/.codex/skills') },
];

describe('incremental snapshots equal a full index: Rivumi and Eva', () => {
  it('after any sequence of edits, directory removals, links and trust changes, each reported as a watcher would', () => {
    const step = fc.oneof(
      fc.record({ edit: fc.nat(EDITS.length - 1) }),
      fc.record({ trust: fc.nat(20) }),
      fc.constant({ untrustAll: true as const }),
    );
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 8 }), (steps) => {
        const f = new Fixture();
        try {
          f.write('r/.rivumi/skills/a.md', '---\nname: a\n---\nbody\n');
          f.write('r/.rivumi/hooks.json', HOOKS);
          f.write('r/.rivumi/plugins/p.json', PLUGIN);
          f.write('r/.rivumi/plugins/p/s.md', '---\nname: ps\n---\nbody\n');
          f.write('r/scripts/check.sh', 'exit 0\n');
          f.write('r/lib/env.sh', 'export X=1\n');
          f.write('r/tools/run.sh', 'exit 0\n');
          f.write('r/elsewhere/check.sh', 'exit 9\n');
          writeEvaProject(f, 'e');
          f.write('home/.codex/skills/review/SKILL.md', '---\nname: review\ndescription: d\n---\nbody\n');
          const store = new Map<string, BundleStateView>();
          const trust = mapTrustView(store);
          const options: IndexOptions = {
            workspaces: [f.path('r'), f.path('e')],
            codewhaleHome: null,
            evaHome: f.path('home'),
            rivumiHooksEnv: '1',
            host: LINUX_HOST,
            trust,
          };
          const ix = new Indexer(options);
          let snap = ix.indexAll();
          const sender = new SnapshotSender();
          const receiver = new SnapshotReceiver();
          const shown = (s: Snapshot): Snapshot => {
            for (const part of sender.parts({ snapshot: s, watched: { paths: [], trees: [] } }, 7)) receiver.add(part);
            return receiver.finish().snapshot;
          };
          shown(snap);
          const done: string[] = [];
          for (const s of steps) {
            if ('edit' in s) {
              const edit = EDITS[s.edit] as Edit;
              done.push(edit.name);
              snap = ix.refresh(edit.apply(f).map((rel) => f.path(rel)));
            } else {
              if ('trust' in s) {
                const bundles = snap.items.filter((i) => i.trust !== null && i.contentHash && i.capabilityHash);
                const item = bundles[s.trust % Math.max(bundles.length, 1)];
                const key = item?.detail.bundleKey as string | undefined;
                if (item && key)
                  store.set(key, {
                    enabled: true,
                    trust: { contentHash: item.contentHash as string, capabilityHash: item.capabilityHash as string },
                  });
                done.push(`trust ${item?.name ?? 'nothing'}`);
              } else {
                store.clear();
                done.push('untrust all');
              }
              snap = ix.snapshot();
            }
            const full = strip(new Indexer(options).indexAll());
            assert.deepEqual(strip(snap), full, done.join(' → '));
            assert.deepEqual(strip(shown(snap)), full, `shown: ${done.join(' → ')}`);
          }
        } finally {
          f.remove();
        }
      }),
      { numRuns: 40 },
    );
  });
});

function strip(s: Snapshot): unknown {
  return { ...s, items: s.items, diagnostics: s.diagnostics, generation: 0 };
}
