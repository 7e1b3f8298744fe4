import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { linkWay, reachesWayEntry, wayEntries } from '../../src/core/fs/linkWay';
import { Fixture } from './helpers/fixture';

/**
 * The way to a directory as the kernel walks it (src/core/fs/linkWay.ts, path_resolution(7)): where it
 * ends, the first missing entry when it leads nowhere, and the entries it turns at (each link followed,
 * each directory a `..` leaves), which the indexes watch by name.
 */
describe('linkWay: the way to a directory, walked as the kernel walks it', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  it('ends where realpath ends, turning at each link of a chain, spelled under the real folder that holds it', () => {
    f.mkdir('ws');
    f.mkdir('links/b');
    f.symlink('b', 'links/a');
    f.symlink('../links/a', 'ws/.codewhale');
    const way = linkWay(f.path('ws'), '.codewhale');
    assert.equal(way.resolved, fs.realpathSync(f.path('ws/.codewhale')));
    assert.equal(way.awaited, undefined);
    assert.deepEqual(way.turns, [f.path('ws/.codewhale'), f.path('links/a')]);
  });

  it('takes a `..` after a link in where the link leads, not folded in the text, and turns at the directory it leaves', () => {
    f.mkdir('ws');
    f.mkdir('d/a0');
    f.mkdir('links/b');
    f.symlink('../d/a0', 'links/x');
    f.symlink('../links/x/../b', 'ws/.codewhale');
    // Folded in the text, `links/x/../b` would be `links/b`, which is there.
    assert.deepEqual(linkWay(f.path('ws'), '.codewhale'), {
      resolved: undefined,
      awaited: f.path('d/b'),
      turns: [f.path('ws/.codewhale'), f.path('links/x'), f.path('d/a0')],
    });
    f.mkdir('d/b');
    assert.equal(linkWay(f.path('ws'), '.codewhale').resolved, f.path('d/b'));
  });

  it("does not turn at a link's own folder that its text leaves by `..`: that goes with the link", () => {
    f.mkdir('ws2/.codewhale');
    f.symlink('../ws2/.codewhale', 'ws3/.codewhale');
    assert.deepEqual(linkWay(f.path('ws3'), '.codewhale').turns, [f.path('ws3/.codewhale')]);
  });

  it('awaits the first missing entry, or a file where the way needs a directory, through links that lead nowhere yet', () => {
    f.mkdir('ws');
    f.symlink('../data/cw', 'links/a');
    f.symlink('../links/a', 'ws/.codewhale');
    assert.deepEqual(wayEntries(linkWay(f.path('ws'), '.codewhale')), [
      f.path('ws/.codewhale'),
      f.path('links/a'),
      f.path('data'),
    ]);
    f.write('data', 'not a directory');
    assert.equal(linkWay(f.path('ws'), '.codewhale').awaited, f.path('data'));
  });

  it('walks from the deepest folder above that resolves when the folder given does not', () => {
    f.mkdir('home');
    assert.deepEqual(linkWay(f.path('home/missing/deeper'), '.codex'), {
      resolved: undefined,
      awaited: f.path('home/missing'),
      turns: [],
    });
  });

  it('leads nowhere on a loop, and turns at each link on it, once each', () => {
    f.symlink('b', 'a');
    f.symlink('a', 'b');
    f.symlink('a', 'cw');
    assert.deepEqual(linkWay(f.root, 'cw'), {
      resolved: undefined,
      awaited: undefined,
      turns: [f.path('cw'), f.path('a'), f.path('b')],
    });
  });

  it('counts a change at an entry, above it or below it as reaching it, and none beside it', () => {
    assert.ok(reachesWayEntry('/r/links/a', '/r/links/a'));
    assert.ok(reachesWayEntry('/r/links/a', '/r/links'));
    assert.ok(reachesWayEntry('/r/links/a', '/r/links/a/x'));
    assert.ok(!reachesWayEntry('/r/links/a', '/r/links/ab'));
    assert.ok(!reachesWayEntry('/r/links/a', '/r/links/b'));
  });
});
