import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { currentDirectory } from '../../src/cli/currentDirectory';
import { Fixture } from './helpers/fixture';

/**
 * The CLI's current directory (src/cli/currentDirectory.ts): the default workspace. One
 * that Node cannot name must stop the CLI with a usage error, never index an empty
 * folder and let `check` pass over a repository's plugins.
 */
describe('the CLI current directory', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  it('is the directory as Node names it, when that name is exact', () => {
    const dir = f.mkdir('ws');
    const real = fs.realpathSync.native(dir, { encoding: 'buffer' });
    assert.deepEqual(
      currentDirectory(
        () => real.toString('utf8'),
        () => real,
      ),
      { ok: true, cwd: real.toString('utf8') },
    );
    // A directory really named with U+FFFD is named exactly.
    const replacement = fs.realpathSync.native(f.mkdir('a\ufffdb'), { encoding: 'buffer' });
    assert.deepEqual(
      currentDirectory(
        () => replacement.toString('utf8'),
        () => replacement,
      ),
      { ok: true, cwd: replacement.toString('utf8') },
    );
  });

  it('refuses a path that is not valid UTF-8: as Node reads it, it names no directory', () => {
    const raw = Buffer.concat([Buffer.from(fs.realpathSync.native(f.root)), Buffer.from('/x\xffy', 'latin1')]);
    fs.mkdirSync(raw);
    const real = fs.realpathSync.native(raw, { encoding: 'buffer' });
    // What process.cwd() returns there: the bytes decoded with U+FFFD for the one that is not UTF-8.
    const lossy = real.toString('utf8');
    assert.equal(fs.existsSync(lossy), false, 'the lossy string names no directory');
    const r = currentDirectory(
      () => lossy,
      () => real,
    );
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.problem : '', /not valid UTF-8/);
  });

  it('refuses a directory that was removed (process.cwd() throws ENOENT)', () => {
    const r = currentDirectory(() => {
      throw Object.assign(new Error('ENOENT: no such file or directory, uv_cwd'), { code: 'ENOENT' });
    });
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.problem : '', /cannot be read/);
  });
});
