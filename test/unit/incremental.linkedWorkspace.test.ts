import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { Indexer, type IndexOptions } from '../../src/core/index/indexer';
import type { BundleStateView } from '../../src/core/decisions/trustView';
import type { Snapshot } from '../../src/core/index/snapshot';
import type { TrustStatus } from '../../src/core/model';
import { mapTrustView } from './helpers/mapTrust';
import { Fixture, LINUX_HOST, writeW } from './helpers/fixture';
import { A0, writeEvaProject } from './helpers/evaFixture';

/**
 * A workspace folder given through a symbolic link (`link -> repo`), as VS Code opens it:
 * items are spelled under `link` (4c0b42e, eva/givenFolder.ts), each agent decides under
 * `repo`, and the editor reports a change under the base of the watcher that saw it: the
 * folder as opened for its own watchers (`<folder>/.rivumi/**`, Eva's layer patterns, a hook
 * script's), the canonical path for the trees and files an agent names by where it reads them
 * (Eva's roots, covered skill folders and files: evaIndex.ts `watchedTrees`/`watchedPaths`),
 * and the first folder's spelling for a second folder opened at the same place (indexer.ts
 * `unaliased`). Whichever spelling a change arrives under, the long-lived index must re-read
 * what it touches: the snapshot then equals a fresh full index, and a trusted bundle whose
 * content changed says so.
 */

const HOOKS = JSON.stringify({ pre_tool_use: [{ command: ['sh', 'scripts/check.sh'] }] });
const PLUGIN = JSON.stringify({ name: 'p', skills: [{ path: 'p/s.md' }] });
/** A0 with a `skill.path` inside the project, outside `config/`: a skill folder Eva's trust unit covers whole. */
const ADAPTER = A0.replace('  id: review\n', '  id: review\n  path: skills/review/SKILL.md\n');

interface Edit {
  readonly name: string;
  /** The file written, relative to the repository. */
  readonly file: string;
  readonly text: string;
  /** The bundle whose trust the edit changes, and to what; undefined: no trust unit, the snapshot just changes. */
  readonly drops?: { readonly bundle: string; readonly to: TrustStatus };
}

const EDITS: readonly Edit[] = [
  // (a) Rivumi
  { name: 'a Rivumi skill', file: '.rivumi/skills/a.md', text: '---\nname: Not Safe\n---\nx\n' },
  {
    name: 'a Rivumi plugin skill',
    file: '.rivumi/plugins/p/s.md',
    text: '---\nname: ps\n---\nnew\n',
    drops: { bundle: 'p', to: 'content-changed' },
  },
  {
    name: 'a Rivumi plugin manifest',
    file: '.rivumi/plugins/p.json',
    text: JSON.stringify({ name: 'p', skills: [{ path: 'p/s.md' }], hooks: { pre_compact: [{ command: ['true'] }] } }),
    drops: { bundle: 'p', to: 'capabilities-changed' },
  },
  {
    name: 'hooks.json',
    file: '.rivumi/hooks.json',
    text: JSON.stringify({ pre_tool_use: [{ command: ['sh', 'scripts/check.sh', '-x'] }] }),
    drops: { bundle: 'hooks.json', to: 'content-changed' },
  },
  {
    name: 'a script a hook runs',
    file: 'scripts/check.sh',
    text: 'exit 1\n',
    drops: { bundle: 'hooks.json', to: 'content-changed' },
  },
  // (b) Codewhale
  {
    name: 'a Codewhale bundle skill',
    file: '.codewhale/plugins/example-plugin/skills/example/SKILL.md',
    text: '---\nname: example\ndescription: example\n---\nnew\n',
    drops: { bundle: 'example-plugin', to: 'content-changed' },
  },
  {
    name: 'a Codewhale bundle manifest',
    file: '.codewhale/plugins/example-plugin/plugin.toml',
    text: 'schema_version = 1\n[plugin]\nname = "example-plugin"\nversion = "1.2.4"\n[skills]\npath = "skills"\n',
    drops: { bundle: 'example-plugin', to: 'content-changed' },
  },
  // (c) Eva-CLI
  {
    name: 'an Eva adapter manifest',
    file: 'config/adapters/review.yaml',
    text: ADAPTER.replace('priority: 10', 'priority: 11'),
    drops: { bundle: 'review-skill', to: 'content-changed' },
  },
  {
    name: 'an Eva Lua skill script',
    file: 'config/skills/lint.lua',
    text: 'return { x = 1 }\n',
    drops: { bundle: 'lint-skill', to: 'content-changed' },
  },
  {
    name: "an Eva Lua skill's schema beside config/",
    file: 'schemas/lint.input.json',
    text: '{"type":"object","title":"x"}',
    drops: { bundle: 'lint-skill', to: 'content-changed' },
  },
  {
    name: 'the file an Eva skill.path names',
    file: 'skills/review/SKILL.md',
    text: '---\nname: review\ndescription: d\n---\nnew\n',
    drops: { bundle: 'review-skill', to: 'content-changed' },
  },
  {
    name: 'a file added to the folder an Eva skill.path names',
    file: 'skills/review/extra.md',
    text: 'x\n',
    drops: { bundle: 'review-skill', to: 'content-changed' },
  },
  { name: 'config/eva.yaml', file: 'config/eva.yaml', text: 'runtime: [' },
];

describe('a workspace folder given through a symbolic link: a change reaches the re-index under either spelling', () => {
  let f: Fixture;
  let store: Map<string, BundleStateView>;
  beforeEach(() => {
    f = new Fixture();
    f.write('repo/.rivumi/skills/a.md', '---\nname: a\n---\nbody\n');
    f.write('repo/.rivumi/hooks.json', HOOKS);
    f.write('repo/.rivumi/plugins/p.json', PLUGIN);
    f.write('repo/.rivumi/plugins/p/s.md', '---\nname: ps\n---\nbody\n');
    f.write('repo/scripts/check.sh', 'exit 0\n');
    writeW(f, '', 'repo/.codewhale/plugins/example-plugin');
    writeEvaProject(f, 'repo', ADAPTER);
    f.write('repo/skills/review/SKILL.md', '---\nname: review\ndescription: d\n---\nbody\n');
    f.mkdir('home');
    f.symlink(f.path('repo'), 'link');
    store = new Map();
  });
  afterEach(() => f.remove());

  const options = (workspaces: string[]): IndexOptions => ({
    workspaces: workspaces.map((w) => f.path(w)),
    codewhaleHome: null,
    evaHome: f.path('home'),
    rivumiHooksEnv: '1',
    host: LINUX_HOST,
    trust: mapTrustView(store),
  });

  /** The long-lived index, read once, with every bundle it lists trusted as read. */
  const trustedIndex = (o: IndexOptions): { ix: Indexer; before: Snapshot } => {
    const ix = new Indexer(o);
    for (const i of ix.indexAll().items)
      if (i.detail.bundleKey && i.contentHash && i.capabilityHash)
        store.set(i.detail.bundleKey, {
          enabled: true,
          trust: { contentHash: i.contentHash, capabilityHash: i.capabilityHash },
        });
    const before = ix.snapshot();
    const trusted = before.items.filter((i) => i.trust === 'trusted').map((i) => i.name);
    assert.deepEqual(trusted.sort(), ['example-plugin', 'hooks.json', 'lint-skill', 'p', 'review-skill']);
    return { ix, before };
  };

  const strip = (s: Snapshot): unknown => ({ ...s, generation: 0 });

  /** `edit` written, the refresh given the path under `reported`; checked against a fresh full index of `o`. */
  const check = (o: IndexOptions, ix: Indexer, before: Snapshot, edit: Edit, reported: string): void => {
    f.write(path.join('repo', edit.file), edit.text);
    const after = ix.refresh([path.join(f.path(reported), edit.file)]);
    const where = `${edit.name}, reported under ${reported}/`;
    assert.notDeepEqual(strip(after), strip(before), `${where}: the snapshot changed`);
    assert.deepEqual(strip(after), strip(new Indexer(o).indexAll()), `${where}: as a full index reads it`);
    if (edit.drops) {
      const bundle = after.items.filter((i) => i.name === edit.drops?.bundle && i.trust !== null);
      assert.deepEqual(
        bundle.map((i) => i.trust),
        [edit.drops.to],
        where,
      );
    }
  };

  for (const edit of EDITS) {
    for (const reported of ['link', 'repo']) {
      it(`${edit.name}, folder opened as link/, change reported under ${reported}/`, () => {
        const o = options(['link']);
        const { ix, before } = trustedIndex(o);
        check(o, ix, before, edit, reported);
      });
    }
    it(`${edit.name}, folder opened as repo/ (no link): unchanged`, () => {
      const o = options(['repo']);
      const { ix, before } = trustedIndex(o);
      check(o, ix, before, edit, 'repo');
    });
    // The editor with both `link` and `repo` open: one folder, kept as `link`; `repo`'s watchers and
    // Eva's canonical ones report under `repo`, which the index respells as `link` (indexer.ts `unaliased`).
    it(`${edit.name}, folders opened as link/ and repo/, change reported under repo/`, () => {
      const o = options(['link', 'repo']);
      const { ix, before } = trustedIndex(o);
      check(o, ix, before, edit, 'repo');
    });
  }

  it("reads every change on the editor's re-check, a full read on the long-lived index, even one never reported", () => {
    const o = options(['link']);
    const { ix, before } = trustedIndex(o);
    // Each bundle's content edited, and nothing else (a broken eva.yaml or a new capability would hide that).
    const edits = EDITS.filter((e) => e.drops?.to === 'content-changed');
    for (const edit of edits) f.write(path.join('repo', edit.file), edit.text);
    assert.deepEqual(strip(ix.refresh([])), strip(before), 'nothing reported, nothing read');
    const rechecked = ix.indexAll();
    assert.deepEqual(strip(rechecked), strip(new Indexer(o).indexAll()));
    assert.deepEqual(
      rechecked.items.filter((i) => i.trust !== null).map((i) => [i.name, i.trust]),
      before.items.filter((i) => i.trust !== null).map((i) => [i.name, 'content-changed']),
    );
  });
});
