import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { A0, EvaFixture } from './helpers/evaFixture';

/**
 * A skill's runner command is covered by its trust (eva.md §6.1). Reached through a
 * linked folder, its bytes would be read from wherever the link points — outside the
 * project too — and hashed as if they were the project's: a symbolic link anywhere in
 * the covered set refuses trust instead (trust.md "Hashing", eva.md §6.1).
 */
describe('Eva runner command through a linked folder (eva.md §6.1, trust.md "Hashing")', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  const RUNNER = A0.replace(
    '  entry: {type: codex_skill}\n',
    '  entry: {type: process}\n  runner: {command: scripts/run.sh}\n',
  );

  it('never reads a runner command through a folder linked out of the project: no hashes, eva.trust.symlink', () => {
    f.write('outside/run.sh', 'echo secret\n');
    f.symlink(f.path('outside'), 'ws/scripts');
    f.adapter(RUNNER);
    const r = f.index();
    const item = r.item('adapters/review.yaml');
    assert.deepEqual(
      [item.decision, item.reasons, item.contentHash, item.reviewToken, item.detail.files],
      ['registered', ['loaded_unreviewed', 'not_reviewed'], null, null, undefined],
    );
    assert.deepEqual(
      r.diagnostics('eva.trust.symlink').map((d) => d.itemId),
      [item.id],
    );
    assert.deepEqual(item.detail.notCovered, [
      'the runner command of this skill is, or lies under, a symbolic link; it cannot be reviewed',
    ]);
  });

  it('refuses a folder link inside the project as well, and covers the same command in a plain folder', () => {
    f.write('ws/tools/run.sh', 'echo one\n');
    f.symlink('tools', 'ws/scripts');
    f.adapter(RUNNER);
    assert.equal(f.index().item('adapters/review.yaml').contentHash, null);
    fs.rmSync(f.path('ws/scripts'));
    f.write('ws/scripts/run.sh', 'echo one\n');
    const plain = f.index().item('adapters/review.yaml');
    assert.deepEqual(
      plain.detail.files?.map((x) => x.path),
      ['scripts/run.sh'],
    );
  });
});
