import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { cacheFolderHolding } from '../../src/core/cache/cacheInWorkspace';
import { folderHolding, realPlace } from '../../src/core/fs/folderHolding';
import { Fixture } from './helpers/fixture';

/** Which workspace folder holds a state or cache directory, as spelled and after links (folderHolding.ts). */
describe('the workspace folder that holds a state or cache directory', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  it('finds the folder itself and anything under it, existing or not; never a sibling that shares a prefix', () => {
    f.mkdir('ws/sub');
    f.mkdir('ws2');
    const folders = [f.path('other'), f.path('ws')];
    assert.equal(folderHolding(f.path('ws'), folders), f.path('ws'));
    assert.equal(folderHolding(f.path('ws/sub'), folders), f.path('ws'));
    assert.equal(folderHolding(f.path('ws/not/yet/made'), folders), f.path('ws'));
    assert.equal(folderHolding(f.path('ws2/state'), folders), undefined);
    assert.equal(folderHolding(f.path('state'), folders), undefined);
    assert.equal(folderHolding(f.path('ws/sub'), []), undefined);
  });

  it('follows links: a directory reached through a link into the folder, and a folder given through a link', () => {
    f.mkdir('ws');
    f.symlink(f.path('ws'), 'outside/link');
    assert.equal(folderHolding(f.path('outside/link/.sg'), [f.path('ws')]), f.path('ws'));
    assert.equal(folderHolding(f.path('ws/.sg'), [f.path('outside/link')]), f.path('outside/link'));
    // A link inside the folder that leads out is refused too, as spelled: the safe side.
    f.mkdir('beside');
    f.symlink(f.path('beside'), 'ws/out');
    assert.equal(folderHolding(f.path('ws/out/c'), [f.path('ws')]), f.path('ws'));
  });

  it('resolves the nearest existing ancestor and keeps the rest of the path', () => {
    f.mkdir('real');
    f.symlink(f.path('real'), 'alias');
    assert.equal(realPlace(f.path('alias/a/b')), f.path('real/a/b'));
    // A dangling link is not followed: its parent decides.
    f.symlink(f.path('nowhere'), 'dangling');
    assert.equal(realPlace(f.path('dangling/x')), f.path('dangling/x'));
    fs.writeFileSync(f.path('file'), '');
    assert.equal(realPlace(f.path('file/x')), f.path('file/x'));
  });

  it('folds case where the file system usually ignores it', () => {
    assert.equal(folderHolding('/Repo/.cache', ['/repo'], 'darwin'), '/repo');
    assert.equal(folderHolding('/Repo/.cache', ['/repo'], 'linux'), undefined);
  });

  it('a cache directory is held also when the folder is its code cache directory', () => {
    f.mkdir('cache/code');
    assert.equal(cacheFolderHolding(f.path('cache'), [f.path('cache/code')]), f.path('cache/code'));
    assert.equal(cacheFolderHolding(f.path('cache'), [f.path('elsewhere')]), undefined);
  });
});
