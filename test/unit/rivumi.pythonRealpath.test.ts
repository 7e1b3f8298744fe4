import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { pythonRealpath } from '../../src/core/systems/rivumi/pythonRealpath';
import { Fixture } from './helpers/fixture';

/**
 * Python's non-strict `Path.resolve()` (`os.path.realpath`), which Rivumi uses to keep plugin
 * skills and install sources inside the repository (rivumi.md §5.3, §5.6). Expected values
 * are CPython 3.11's on the same trees.
 */
describe('Rivumi paths resolved as Python resolves them', function () {
  if (process.platform === 'win32') return;
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  it('follows a dangling link to its target, and a link before the `..` that follows it', () => {
    f.mkdir('repo/other/sub');
    fs.symlinkSync('../nowhere.md', f.path('repo/out.md'));
    fs.symlinkSync('other/sub', f.path('repo/lnk'));
    assert.equal(pythonRealpath(f.path('repo/out.md')), fs.realpathSync(f.path('.')) + '/nowhere.md');
    assert.equal(pythonRealpath(`${f.path('repo')}/lnk/../x.json`), fs.realpathSync(f.path('repo/other')) + '/x.json');
    // What does not exist is kept as spelled.
    assert.equal(pythonRealpath(f.path('repo/missing/a.md')), fs.realpathSync(f.path('repo')) + '/missing/a.md');
  });

  it('ends a loop, and a hostile chain of thousands of links, without exhausting the stack', () => {
    f.mkdir('repo');
    fs.symlinkSync('l.md', f.path('repo/l.md'));
    assert.equal(pythonRealpath(f.path('repo/l.md')), fs.realpathSync(f.path('repo')) + '/l.md');
    for (let i = 0; i < 3000; i++) fs.symlinkSync(`c${i + 1}`, f.path(`repo/c${i}`));
    // Python raises RecursionError; Skillgate ends the chain after 900 links, as a loop ends.
    assert.equal(pythonRealpath(f.path('repo/c0')), fs.realpathSync(f.path('repo')) + '/c900');
    // A chain Python follows to its end (it recurses once per link, up to its recursion limit).
    assert.equal(pythonRealpath(f.path('repo/c2500')), fs.realpathSync(f.path('repo')) + '/c3000');
  });
});
