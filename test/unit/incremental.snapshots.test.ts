import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { Indexer, type IndexOptions } from '../../src/core/index/indexer';
import { mapTrustView } from './helpers/mapTrust';
import type { BundleStateView } from '../../src/core/decisions/trustView';
import type { Snapshot } from '../../src/core/index/snapshot';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { osPath, wellFormed } from '../../src/core/fs/rawNames';
import { Fixture, LINUX_HOST } from './helpers/fixture';

const SCHEMA = 'https://agent-plugins.org/schemas/plugin.json';
const NAMES = ['alpha', 'beta', 'gamma', 'delta'];

type Edit =
  | { kind: 'body'; bundle: number; text: string; viaLink: boolean }
  | { kind: 'twin-skill'; bundle: number }
  | { kind: 'rename'; bundle: number; name: number }
  | { kind: 'break'; bundle: number }
  | { kind: 'bad-skill'; bundle: number }
  | { kind: 'trust'; bundle: number }
  | { kind: 'untrust-all' };

/**
 * A snapshot after incremental refreshes must equal a fresh full index of the same
 * disk and trust store: item for item, diagnostic for diagnostic. Random edit
 * sequences over bundles that shadow each other, break, rename and gain diagnostics,
 * one of them in a directory whose name is not UTF-8 (reported by the watcher with
 * U+FFFD), in a workspace folder also passed through a symbolic link.
 */
describe('incremental snapshots equal a full index', () => {
  it('after any sequence of edits, renames, breakages and trust changes', () => {
    const edit = fc.oneof(
      fc.record({
        kind: fc.constant('body' as const),
        bundle: fc.nat(5),
        text: fc.string({ maxLength: 8 }),
        viaLink: fc.boolean(),
      }),
      fc.record({ kind: fc.constant('twin-skill' as const), bundle: fc.nat(5) }),
      fc.record({ kind: fc.constant('rename' as const), bundle: fc.nat(5), name: fc.nat(NAMES.length - 1) }),
      fc.record({ kind: fc.constant('break' as const), bundle: fc.nat(5) }),
      fc.record({ kind: fc.constant('bad-skill' as const), bundle: fc.nat(5) }),
      fc.record({ kind: fc.constant('trust' as const), bundle: fc.nat(5) }),
      fc.record({ kind: fc.constant('untrust-all' as const) }),
    );
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 8 }), (edits: Edit[]) => {
        const f = new Fixture();
        try {
          // Bundles 0-3 in the workspace, 4-5 user bundles; "alpha" starts out in both scopes.
          const dirs = [0, 1, 2]
            .map((i) => `ws/.codewhale/plugins/b${i}`)
            .concat(['ws/.codewhale/plugins/b3\udcff', 'home/plugins/u4', 'home/plugins/u5']);
          // Writes by exact bytes (the directory of bundle 3 is `b3` + 0xFF); returns the path as a watcher reports it.
          const write = (rel: string, content: string, root = f.root): string => {
            const p = path.join(root, rel);
            fs.mkdirSync(osPath(path.dirname(p)), { recursive: true });
            fs.writeFileSync(osPath(p), content);
            return wellFormed(p);
          };
          f.symlink(f.path('ws'), 'link');
          const names = ['alpha', 'beta', 'gamma', 'delta', 'alpha', 'epsilon'];
          dirs.forEach((dir, i) => {
            write(`${dir}/plugin.json`, JSON.stringify({ $schema: SCHEMA, name: names[i], version: '1.0.0' }));
            write(`${dir}/skills/s/SKILL.md`, `---\nname: s${i}\n---\nbody\n`);
          });
          const store = new Map<string, BundleStateView>();
          const trust = mapTrustView(store);
          const options: IndexOptions = {
            workspaces: [f.path('ws'), f.path('link')],
            codewhaleHome: f.path('home'),
            host: LINUX_HOST,
            trust,
          };
          const ix = new Indexer(options);
          let snap = ix.indexAll();
          for (const e of edits) {
            const dir = 'bundle' in e ? (dirs[e.bundle] as string) : '';
            let changed: string | undefined;
            if (e.kind === 'body') {
              // Written, and reported, through the workspace folder's other spelling.
              const where = e.viaLink ? dir.replace(/^ws\//, 'link/') : dir;
              changed = write(`${where}/skills/s/SKILL.md`, `---\nname: s${e.bundle}\n---\n${e.text}\n`);
            } else if (e.kind === 'rename')
              changed = write(
                `${dir}/plugin.json`,
                JSON.stringify({ $schema: SCHEMA, name: NAMES[e.name], version: '1.0.0' }),
              );
            else if (e.kind === 'break') changed = write(`${dir}/plugin.json`, '{ "name": ');
            else if (e.kind === 'bad-skill')
              changed = write(`${dir}/skills/t/SKILL.md`, '---\nname: Not A Safe Name\n---\nx\n');
            // A second skill whose name normalises to the first one's: a fatal duplicate, two ids by path.
            else if (e.kind === 'twin-skill')
              changed = write(`${dir}/skills/u/SKILL.md`, `---\nname: S${e.bundle}\n---\nx\n`);
            else if (e.kind === 'trust') {
              const item = snap.items.find((i) => i.parent === null && i.path === f.path(dir));
              if (!item) throw new Error(`no item at ${dir}`);
              const key = item?.detail.bundleKey as string | undefined;
              if (item && key && item.contentHash && item.capabilityHash)
                store.set(key, {
                  enabled: true,
                  trust: { contentHash: item.contentHash, capabilityHash: item.capabilityHash },
                });
            } else store.clear();
            snap = changed ? ix.refresh([changed]) : ix.snapshot();
            const full = new Indexer(options).indexAll();
            assert.deepEqual(strip(snap), strip(full), JSON.stringify(e));
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
  return { ...s, generation: 0 };
}
