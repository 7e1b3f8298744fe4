import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { bundleKey } from '../../src/core/hashing/identity';
import type { Item } from '../../src/core/model';
import { MAX_PLUGINS } from '../../src/core/systems/rivumi/limits';
import { Fixture, index } from './helpers/fixture';

/**
 * A Rivumi trust unit's key is its canonical path (trust.md "Bundle identity"), whichever
 * spelling of the workspace folder opened it. A manifest whose own path does not resolve
 * (a link to itself, a dangling link) and a plugin past Rivumi's cap, whose manifest is never
 * read, were keyed by the path as spelled: through `--workspace link` (`link -> repo`) their
 * key was another one than through `--workspace repo`, so the receipt the folder's
 * spelling found (and the trust status shown) depended on how the folder was opened.
 * Found by the fuzz harness's `link-equivalence` (seed `link-eq-1`, input 2712:
 * `.rivumi/plugins/test-pack.json -> test-pack.json`).
 */
describe('Rivumi trust units of a workspace folder given through a symbolic link', () => {
  let f: Fixture;
  let repo: string;
  let link: string;
  beforeEach(() => {
    f = new Fixture();
    repo = f.mkdir('repo');
    link = f.symlink(repo, 'link');
  });
  afterEach(() => f.remove());

  const unit = (workspace: string, rel: string): Item => {
    const found = index([workspace], { codewhaleHome: null }).items.find(
      (i) => i.workspace === workspace && i.path === path.join(workspace, rel),
    );
    assert.ok(found, `no item at ${rel}`);
    return found;
  };
  const keys = (rel: string) => [repo, link].map((w) => unit(w, rel).detail.bundleKey);

  it('keys a plugin manifest that is a link to itself by its canonical path, through the link as directly', () => {
    f.symlink('test-pack.json', 'repo/.rivumi/plugins/test-pack.json');
    assert.deepEqual(keys('.rivumi/plugins/test-pack.json'), [
      bundleKey('rivumi', 'workspace', path.join(repo, '.rivumi/plugins/test-pack.json'), 'test-pack'),
      bundleKey('rivumi', 'workspace', path.join(repo, '.rivumi/plugins/test-pack.json'), 'test-pack'),
    ]);
  });

  it('keys a dangling plugin manifest link by its canonical path, through the link as directly', () => {
    f.symlink(f.path('nowhere/x.json'), 'repo/.rivumi/plugins/dangling.json');
    const expected = bundleKey('rivumi', 'workspace', path.join(repo, '.rivumi/plugins/dangling.json'), 'dangling');
    assert.deepEqual(keys('.rivumi/plugins/dangling.json'), [expected, expected]);
  });

  it('keys a plugin past the cap by its canonical path, as it was keyed within the cap', () => {
    const manifest = (name: string) =>
      f.write(`repo/.rivumi/plugins/${name}.json`, JSON.stringify({ name, description: 'd', skills: [] }));
    for (let i = 0; i < MAX_PLUGINS; i++) manifest(`p${String(i).padStart(2, '0')}`);
    manifest('zz-last');
    const last = '.rivumi/plugins/zz-last.json';
    assert.deepEqual(
      [repo, link].map((w) => unit(w, last).reasons),
      [
        ['plugin_limit_exceeded', 'not_reviewed'],
        ['plugin_limit_exceeded', 'not_reviewed'],
      ],
    );
    const expected = bundleKey('rivumi', 'workspace', path.join(repo, last), 'zz-last');
    assert.deepEqual(keys(last), [expected, expected]);
  });
});
