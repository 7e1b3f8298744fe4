import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { Indexer, type IndexOptions } from '../../src/core/index/indexer';
import type { BundleStateView } from '../../src/core/decisions/trustView';
import type { Snapshot } from '../../src/core/index/snapshot';
import { mapTrustView } from './helpers/mapTrust';
import { Fixture, LINUX_HOST } from './helpers/fixture';

const SCHEMA = 'https://agent-plugins.org/schemas/plugin.json';
const BUNDLES = ['a', 'b', 'c', 'd'];

type Op =
  | { kind: 'edit'; bundle: number; text: string }
  | { kind: 'atomic-save'; bundle: number; version: number }
  | { kind: 'remove'; bundle: number }
  | { kind: 'create'; bundle: number; text: string }
  | { kind: 'replace'; bundle: number; text: string }
  | { kind: 'rename'; bundle: number; to: number }
  | { kind: 'link'; bundle: number; to: number }
  | { kind: 'node-modules'; bundle: number }
  | { kind: 'reclone'; text: string }
  | { kind: 'rivumi-skill'; text: string }
  | { kind: 'rivumi-swap'; text: string };

/**
 * A storm of file changes (a checkout, `rm -rf` and a clone again, a directory renamed
 * over another, an editor's atomic save, `npm install` in a bundle) reported in one
 * watcher batch, each change by the least a watcher reports for it: a file by its path,
 * a tree created or removed by its top directory only, a rename by both of its names.
 * The incremental snapshot after the batch equals a fresh full index of the same disk.
 */
describe('incremental snapshots after a storm of changes equal a full index', () => {
  it('after any batch of edits, removals, renames over, links, re-clones and atomic saves', () => {
    const bundle = fc.nat(BUNDLES.length - 1);
    const text = fc.string({ maxLength: 6 });
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('edit' as const), bundle, text }),
      fc.record({ kind: fc.constant('atomic-save' as const), bundle, version: fc.nat(3) }),
      fc.record({ kind: fc.constant('remove' as const), bundle }),
      fc.record({ kind: fc.constant('create' as const), bundle, text }),
      fc.record({ kind: fc.constant('replace' as const), bundle, text }),
      fc.record({ kind: fc.constant('rename' as const), bundle, to: bundle }),
      fc.record({ kind: fc.constant('link' as const), bundle, to: bundle }),
      fc.record({ kind: fc.constant('node-modules' as const), bundle }),
      fc.record({ kind: fc.constant('reclone' as const), text }),
      fc.record({ kind: fc.constant('rivumi-skill' as const), text }),
      fc.record({ kind: fc.constant('rivumi-swap' as const), text }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.array(op, { minLength: 1, maxLength: 10 }), { minLength: 1, maxLength: 3 }),
        (storms: Op[][]) => {
          const f = new Fixture();
          let spare = 0;
          try {
            const plugins = f.path('ws/.codewhale/plugins');
            const dirOf = (i: number) => path.join(plugins, BUNDLES[i] as string);
            /** Writes a whole bundle at `dir`: its manifest and one skill. */
            const writeBundle = (dir: string, name: string, body: string, version = 0) => {
              fs.mkdirSync(path.join(dir, 'skills/s'), { recursive: true });
              fs.writeFileSync(
                path.join(dir, 'plugin.json'),
                JSON.stringify({ $schema: SCHEMA, name, version: `1.0.${version}` }),
              );
              fs.writeFileSync(path.join(dir, 'skills/s/SKILL.md'), `---\nname: s\n---\n${body}\n`);
            };
            /** The top directory `mkdir -p` makes for `p`: what a watcher reports of a tree created in one burst. */
            const topCreated = (p: string): string => {
              let top = p;
              while (!fs.existsSync(path.dirname(top))) top = path.dirname(top);
              return top;
            };
            const exists = (p: string) => {
              try {
                fs.lstatSync(p);
                return true;
              } catch {
                return false;
              }
            };
            BUNDLES.forEach((name, i) => writeBundle(dirOf(i), name, 'first'));
            f.write('ws/.rivumi/skills/r.md', 'first');
            const store = new Map<string, BundleStateView>();
            const options: IndexOptions = {
              workspaces: [f.path('ws')],
              codewhaleHome: null,
              host: LINUX_HOST,
              trust: mapTrustView(store),
            };
            const ix = new Indexer(options);
            let snap = ix.indexAll();
            // Every bundle trusted as first read: a bundle kept stale would still show trusted.
            const trustAll = (s: Snapshot) => {
              for (const item of s.items) {
                const key = item.detail.bundleKey as string | undefined;
                if (item.parent === null && key && item.contentHash && item.capabilityHash)
                  store.set(key, {
                    enabled: true,
                    trust: { contentHash: item.contentHash, capabilityHash: item.capabilityHash },
                  });
              }
            };
            trustAll(snap);
            snap = ix.snapshot();
            for (const storm of storms) {
              const reported = new Set<string>();
              for (const o of storm) {
                const dir = 'bundle' in o ? dirOf(o.bundle) : '';
                const isDir = 'bundle' in o && fs.existsSync(dir) && fs.lstatSync(dir).isDirectory();
                if (o.kind === 'edit' && isDir) {
                  const p = path.join(dir, 'skills/s/SKILL.md');
                  fs.mkdirSync(path.dirname(p), { recursive: true });
                  // A build tool rewrites it many times: one report.
                  for (let n = 0; n < 3; n++) fs.writeFileSync(p, `---\nname: s\n---\n${o.text}${n}\n`);
                  reported.add(p);
                } else if (o.kind === 'atomic-save' && isDir) {
                  const tmp = path.join(dir, 'plugin.json.tmp');
                  const name = path.basename(dir);
                  fs.writeFileSync(tmp, JSON.stringify({ $schema: SCHEMA, name, version: `2.0.${o.version}` }));
                  fs.renameSync(tmp, path.join(dir, 'plugin.json'));
                  reported.add(tmp).add(path.join(dir, 'plugin.json'));
                } else if (o.kind === 'remove' && exists(dir)) {
                  fs.rmSync(dir, { recursive: true, force: true });
                  reported.add(dir);
                } else if (o.kind === 'create' && !exists(dir)) {
                  const top = topCreated(dir);
                  writeBundle(dir, path.basename(dir), o.text);
                  reported.add(top);
                } else if (o.kind === 'replace' && exists(dir)) {
                  // Built beside, then renamed over the old one, which goes to a trash outside the root.
                  const next = f.path(`ws/next-${spare++}`);
                  writeBundle(next, path.basename(dir), o.text);
                  fs.renameSync(dir, f.path(`ws/trash-${spare++}`));
                  fs.renameSync(next, dir);
                  reported.add(dir);
                } else if (o.kind === 'rename' && exists(dir) && !exists(dirOf(o.to))) {
                  fs.renameSync(dir, dirOf(o.to));
                  reported.add(dir).add(dirOf(o.to));
                } else if (o.kind === 'link' && exists(dir) && o.to !== o.bundle) {
                  fs.rmSync(dir, { recursive: true, force: true });
                  fs.symlinkSync(dirOf(o.to), dir);
                  reported.add(dir);
                } else if (o.kind === 'node-modules' && isDir) {
                  const p = path.join(dir, 'server/node_modules/pkg/index.js');
                  const top = topCreated(p);
                  fs.mkdirSync(path.dirname(p), { recursive: true });
                  fs.writeFileSync(p, 'module.exports = 1;\n');
                  reported.add(top);
                } else if (o.kind === 'reclone') {
                  fs.rmSync(f.path('ws/.codewhale'), { recursive: true, force: true });
                  BUNDLES.slice(0, 3).forEach((name, i) => writeBundle(dirOf(i), name, o.text));
                  reported.add(f.path('ws/.codewhale'));
                } else if (o.kind === 'rivumi-skill') {
                  reported.add(f.write('ws/.rivumi/skills/r.md', o.text));
                } else if (o.kind === 'rivumi-swap') {
                  const next = f.path(`ws/rivumi-${spare++}`);
                  fs.mkdirSync(path.join(next, 'skills'), { recursive: true });
                  fs.writeFileSync(path.join(next, 'skills/r.md'), o.text);
                  fs.rmSync(f.path('ws/.rivumi'), { recursive: true, force: true });
                  fs.renameSync(next, f.path('ws/.rivumi'));
                  reported.add(f.path('ws/.rivumi'));
                }
              }
              snap = ix.refresh([...reported]);
              const full = new Indexer(options).indexAll();
              assert.deepEqual(strip(snap), strip(full), JSON.stringify(storm));
            }
          } finally {
            f.remove();
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

function strip(s: Snapshot): unknown {
  return { ...s, generation: 0 };
}
