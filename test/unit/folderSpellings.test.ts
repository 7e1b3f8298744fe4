import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import fc from 'fast-check';
import { bothSpellings, respelled } from '../../src/core/fs/folderSpellings';
import { isAncestor } from '../../src/core/fs/portablePath';
import { unaliased } from '../../src/core/index/indexer';

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

/**
 * The one respelling of a path from one spelling of a folder to another, which bothSpellings,
 * eva/givenFolder.ts, the indexer's `unaliased` and Codewhale's refresh all use.
 */
describe('respelled', () => {
  it('spells the folder itself and a path inside it under the other spelling', () => {
    assert.equal(respelled('/w/repo', '/w/repo', '/w/link'), '/w/link');
    assert.equal(respelled('/w/repo/.codewhale/plugins/a', '/w/repo', '/w/link'), '/w/link/.codewhale/plugins/a');
    // A name that starts with two dots is inside the folder; a `..` segment leads out of it.
    assert.equal(respelled('/w/repo/..x/y', '/w/repo', '/w/link'), '/w/link/..x/y');
    assert.equal(respelled('/w/repo/../other/y', '/w/repo', '/w/link'), undefined);
  });

  it('leaves a sibling whose name begins with the folder name, and a parent, unrespelled', () => {
    assert.equal(respelled('/w/ws-link/x', '/w/ws', '/w/real'), undefined);
    assert.equal(respelled('/w/ws', '/w/ws-link', '/w/real'), undefined);
    assert.equal(respelled('/w', '/w/ws', '/w/real'), undefined);
  });

  it('respells from and to the filesystem root', () => {
    assert.equal(respelled('/etc/x', '/', '/w/rootlink'), '/w/rootlink/etc/x');
    assert.equal(respelled('/w/rootlink/etc/x', '/w/rootlink', '/'), '/etc/x');
    assert.equal(respelled('/w/rootlink', '/w/rootlink', '/'), '/');
  });

  it('is what path.relative says, for paths spelled any way (the fast suffix only where it agrees)', () => {
    const segment = fc.constantFrom('a', 'b', 'ab', '.', '..', '', '..x', 'a b', 'é');
    const absolute = fc.array(segment, { maxLength: 4 }).map((s) => '/' + s.join('/'));
    fc.assert(
      fc.property(absolute, fc.array(segment, { maxLength: 4 }), fc.boolean(), (from, tail, under) => {
        const p = under ? [from, ...tail].join('/') : '/' + tail.join('/');
        const expected =
          p === from ? '/to' : isAncestor(from, p) ? path.join('/to', path.relative(from, p)) : undefined;
        assert.equal(respelled(p, from, '/to'), expected, `${p} from ${from}`);
      }),
      { numRuns: 5000 },
    );
  });
});

/** The indexer's second folder at the same canonical path as the first: a change under it, under the kept one. */
describe('unaliased (indexer.ts)', () => {
  it('respells a path under a dropped spelling, the first one that holds it, and nothing else', () => {
    const aliases = new Map([
      ['/w/link', '/w/repo'],
      ['/w/link/nested', '/w/other'],
    ]);
    assert.equal(unaliased('/w/link', aliases), '/w/repo');
    assert.equal(unaliased('/w/link/nested/x', aliases), '/w/repo/nested/x');
    assert.equal(unaliased('/w/link/..x', aliases), '/w/repo/..x');
    assert.equal(unaliased('/w/link-2/x', aliases), '/w/link-2/x');
    assert.equal(unaliased('/w', aliases), '/w');
  });

  it('respells a folder opened at the filesystem root, and one that is an alias of it', () => {
    // `/` given after a link to it: every change the second folder's watcher reports lies under `/`.
    assert.equal(unaliased('/etc/x', new Map([['/', '/w/rootlink']])), '/w/rootlink/etc/x');
    // `/` given first: a change under the link is under `/`, spelled with one slash as path.resolve spells it.
    assert.equal(unaliased('/w/rootlink/etc/x', new Map([['/w/rootlink', '/']])), '/etc/x');
  });

  it('leaves a path already under the kept folder when that folder lies inside the dropped one', () => {
    // `a/self -> .` opened first, then `a`: a change the kept folder's own watcher reports is spelled as kept,
    // and respelling it under `a` again named `a/self/self/…`, a path no agent reads under.
    const aliases = new Map([['/w/a', '/w/a/self']]);
    assert.equal(unaliased('/w/a/self/.codewhale/plugins/b/x', aliases), '/w/a/self/.codewhale/plugins/b/x');
    assert.equal(unaliased('/w/a/self', aliases), '/w/a/self');
    assert.equal(unaliased('/w/a/.codewhale/plugins/b/x', aliases), '/w/a/self/.codewhale/plugins/b/x');
    assert.equal(unaliased('/w/a/selfish/x', aliases), '/w/a/self/selfish/x');
    // A link to `/` opened before `/` itself.
    assert.equal(unaliased('/w/rootlink/etc/x', new Map([['/', '/w/rootlink']])), '/w/rootlink/etc/x');
  });
});
