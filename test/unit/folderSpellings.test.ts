import { strict as assert } from 'node:assert';
import { bothSpellings } from '../../src/core/fs/folderSpellings';

/** A changed path under a workspace folder opened through a link (`/w/link -> /w/repo`), under both its spellings. */
describe('bothSpellings', () => {
  const given = '/w/link';
  const real = '/w/repo';

  it('adds the real spelling of a path under the folder as given, and the given one of a path under the real path', () => {
    assert.deepEqual(bothSpellings('/w/link/config/eva.yaml', given, real), [
      '/w/link/config/eva.yaml',
      '/w/repo/config/eva.yaml',
    ]);
    assert.deepEqual(bothSpellings('/w/repo/skills/review/SKILL.md', given, real), [
      '/w/repo/skills/review/SKILL.md',
      '/w/link/skills/review/SKILL.md',
    ]);
  });

  it('respells the folder itself, and a name inside it that starts with two dots', () => {
    assert.deepEqual(bothSpellings('/w/repo', given, real), ['/w/repo', '/w/link']);
    assert.deepEqual(bothSpellings('/w/link/..x/y', given, real), ['/w/link/..x/y', '/w/repo/..x/y']);
  });

  it('leaves a path under neither, or beside the folder under a longer name, as it is', () => {
    assert.deepEqual(bothSpellings('/w/repo2/config/eva.yaml', given, real), ['/w/repo2/config/eva.yaml']);
    assert.deepEqual(bothSpellings('/w/linked/x', given, real), ['/w/linked/x']);
    assert.deepEqual(bothSpellings('/w', given, real), ['/w']);
  });

  it('is the path alone when the folder was not opened through a link', () => {
    assert.deepEqual(bothSpellings('/w/repo/config/eva.yaml', real, real), ['/w/repo/config/eva.yaml']);
  });
});
