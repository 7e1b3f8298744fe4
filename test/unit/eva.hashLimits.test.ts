import * as assert from 'node:assert/strict';
import { Fixture } from './helpers/fixture';
import { coverDirectory, evaContentHash, type CoveredFile } from '../../src/core/systems/eva/hashes';
import { MAX_HASHED_BYTES, MAX_HASHED_FILES } from '../../src/core/hashing/bundleContent';

/**
 * eva.md §6.1–§6.2 limits of what an Eva bundle's content hash covers: at most 4096
 * covered files (present or missing, each counted once), and a covered path that is not a
 * regular file refuses the hash with the reason, never as a link.
 */

describe('Eva content hash limits (eva.md §6.1)', () => {
  let f: Fixture;
  beforeEach(() => {
    f = new Fixture();
  });
  afterEach(() => f.remove());

  const missing = (n: number): CoveredFile[] =>
    Array.from({ length: n }, (_, i) => ({ abs: f.path(`none/${i}`), domain: 'eva-project-file', rel: `none/${i}` }));

  it('hashes 4096 covered files, missing ones included, and refuses 4097; a file named twice counts once', () => {
    const at = evaContentHash('lua-skill', Buffer.from('m'), missing(MAX_HASHED_FILES));
    assert.equal(at.ok, true);
    assert.deepEqual(evaContentHash('lua-skill', Buffer.from('m'), missing(MAX_HASHED_FILES + 1)), {
      ok: false,
      cause: 'limit',
      message: `skill content exceeds the review limit (${MAX_HASHED_FILES} files / ${MAX_HASHED_BYTES} bytes)`,
    });
    const twice = [...missing(MAX_HASHED_FILES), ...missing(1)];
    assert.equal(evaContentHash('lua-skill', Buffer.from('m'), twice).ok, true);
  });

  it('refuses a covered path that is a directory, naming it, not as a link', () => {
    const dir = f.mkdir('ws/dir.lua');
    assert.deepEqual(
      evaContentHash('lua-skill', Buffer.from('m'), [{ abs: dir, domain: 'eva-project-file', rel: 'dir.lua' }]),
      { ok: false, cause: 'unreadable', message: 'failed to read covered file dir.lua: not-file' },
    );
  });

  it('refuses a skill folder that cannot be listed, not as a link', () => {
    const file = f.write('ws/file', 'x');
    const r = coverDirectory(file, f.path('ws'), null);
    assert.deepEqual([r.ok, !r.ok && r.cause], [false, 'unreadable']);
  });
});
