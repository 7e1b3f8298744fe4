import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { Indexer } from '../../src/core/index/indexer';
import type { Snapshot } from '../../src/core/index/snapshot';
import { Fixture, writeW, LINUX_HOST } from './helpers/fixture';

/**
 * A watcher reports a directory replaced in one step (a rename over it, `rm -rf` and a
 * clone again) as the directory alone: the files inside it were never seen changing. A
 * kept bundle of that name is another directory now, and must be read again, or it keeps
 * the old bytes' hashes, and their trust.
 */
describe('incremental indexing of replaced directories', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const SKILL = 'ws/.codewhale/plugins/example-plugin/skills/example/SKILL.md';
  const bundle = (body: string) => {
    writeW(f);
    f.write(SKILL, `---\nname: example\n---\n${body}\n`);
  };
  /** Every bundle's scope and content hash. */
  const hashes = (s: Snapshot) => s.items.filter((i) => i.parent === null).map((i) => `${i.scope} ${i.contentHash}`);

  it('re-reads a bundle directory replaced by another of the same name, reported as the directory alone', () => {
    bundle('old');
    const indexer = () => new Indexer({ workspaces: [f.path('ws')], codewhaleHome: null, host: LINUX_HOST });
    const ix = indexer();
    const first = ix.indexAll();
    fs.renameSync(f.path('ws/.codewhale/plugins/example-plugin'), f.path('ws/previous'));
    bundle('new');
    const next = ix.refresh([f.path('ws/.codewhale/plugins/example-plugin')]);
    assert.notDeepEqual(hashes(next), hashes(first));
    assert.deepEqual(hashes(next), hashes(indexer().indexAll()));
  });

  it('re-reads every bundle when the folder above the root is replaced, reported as that folder alone', () => {
    bundle('old');
    const indexer = () => new Indexer({ workspaces: [f.path('ws')], codewhaleHome: null, host: LINUX_HOST });
    const ix = indexer();
    const first = ix.indexAll();
    fs.rmSync(f.path('ws/.codewhale'), { recursive: true });
    bundle('cloned again');
    const next = ix.refresh([f.path('ws/.codewhale')]);
    assert.notDeepEqual(hashes(next), hashes(first));
    assert.deepEqual(hashes(next), hashes(indexer().indexAll()));
  });

  it('re-reads a bundle of a root reached through a link when a change is reported under its real path', () => {
    bundle('old');
    f.symlink(f.path('ws/.codewhale'), 'home/.codewhale');
    const indexer = () =>
      new Indexer({ workspaces: [f.path('ws')], codewhaleHome: f.path('home/.codewhale'), host: LINUX_HOST });
    const ix = indexer();
    const first = ix.indexAll();
    f.write(SKILL, '---\nname: example\n---\nnew\n');
    const next = ix.refresh([f.path(SKILL)]);
    assert.notDeepEqual(hashes(next), hashes(first));
    assert.deepEqual(hashes(next), hashes(indexer().indexAll()));
  });

  it('re-reads every bundle of a root reached through a link when its real path is replaced, reported as that path alone', () => {
    const USER_SKILL = 'dotfiles/codewhale/plugins/example-plugin/skills/example/SKILL.md';
    const userBundle = (body: string) => {
      writeW(f, '', 'dotfiles/codewhale/plugins/example-plugin');
      f.write(USER_SKILL, `---\nname: example\n---\n${body}\n`);
    };
    userBundle('old');
    f.symlink(f.path('dotfiles/codewhale'), 'home/.codewhale');
    const indexer = () => new Indexer({ workspaces: [], codewhaleHome: f.path('home/.codewhale'), host: LINUX_HOST });
    const ix = indexer();
    const first = ix.indexAll();
    fs.rmSync(f.path('dotfiles/codewhale/plugins'), { recursive: true });
    userBundle('cloned again');
    const next = ix.refresh([f.path('dotfiles/codewhale/plugins')]);
    assert.notDeepEqual(hashes(next), hashes(first));
    assert.deepEqual(hashes(next), hashes(indexer().indexAll()));
  });

  it('re-reads a bundle edited under the root as spelled when the root leads back to the workspace folder', () => {
    // `plugins/.codewhale -> ..`: the root `plugins/.codewhale/plugins` is the workspace folder
    // itself, so the root as spelled lies inside its own real path; a change the workspace's
    // watcher reports under the root's spelling is that spelling already, and respelling it
    // again named `.codewhale/plugins/.codewhale/plugins/…`, a bundle that is none.
    const ws = 'x/plugins';
    writeW(f, '', `${ws}/example-plugin`);
    f.symlink('..', `${ws}/.codewhale`);
    const indexer = () => new Indexer({ workspaces: [f.path(ws)], codewhaleHome: null, host: LINUX_HOST });
    const ix = indexer();
    const first = ix.indexAll();
    assert.equal(hashes(first).length, 1, 'the bundle is found through the link');
    const skill = `${ws}/.codewhale/plugins/example-plugin/skills/example/SKILL.md`;
    f.write(skill, '---\nname: example\ndescription: example\n---\nedited\n');
    const next = ix.refresh([f.path(skill)]);
    assert.notDeepEqual(hashes(next), hashes(first));
    assert.deepEqual(hashes(next), hashes(indexer().indexAll()));
  });

  it("lists the root when the directory a workspace's linked .codewhale leads to is replaced, reported as it alone", () => {
    // No `plugins` there at the first read, so no real path of the root to compare the change with.
    f.mkdir('shared');
    f.mkdir('ws');
    f.symlink(f.path('shared'), 'ws/.codewhale');
    const indexer = () => new Indexer({ workspaces: [f.path('ws')], codewhaleHome: null, host: LINUX_HOST });
    const ix = indexer();
    const first = ix.indexAll();
    fs.rmSync(f.path('shared'), { recursive: true });
    writeW(f, '', 'shared/plugins/example-plugin');
    const next = ix.refresh([f.path('shared')]);
    assert.notDeepEqual(hashes(next), hashes(first));
    assert.deepEqual(hashes(next), hashes(indexer().indexAll()));
  });
});
