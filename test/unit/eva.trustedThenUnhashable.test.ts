import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { review } from '../../src/core/trust/reviewBundle';
import { A0, EvaFixture } from './helpers/evaFixture';
import { trustWorkspace } from './helpers/trustWorkspace';

/**
 * An Eva adapter reviewed and trusted, that can no longer be hashed (its runner command
 * became a symbolic link; or an upgrade now refuses a link an older Skillgate left out):
 * it has a receipt, so its status is derived from it as trust.md says and as Rivumi's and
 * Codewhale's gate derive it — capabilities-changed, never "not reviewed" — and the index
 * (list, check, the tree) says what its review says.
 */
describe('Eva: a trusted adapter that can no longer be hashed keeps its receipt in its status', () => {
  const w = trustWorkspace({ fixture: () => new EvaFixture().p0() });
  // The Eva item's name carries its skill id; the trust key and a selector name the adapter id.
  const NAME = 'review-skill (skill review)';
  const PROCESS = A0.replace('  id: review\n', '  id: review\n  path: config/skills/review/SKILL.md\n').replace(
    'entry: {type: codex_skill}',
    'entry: {type: process}\n  runner: {command: scripts/run.sh}',
  );

  it('is capabilities-changed in the index and in its review, with the receipt kept', async () => {
    assert.notEqual(PROCESS, A0);
    w.f.write('ws/config/skills/review/SKILL.md', '---\nname: review\n---\n');
    w.f.write('ws/scripts/real.sh', 'echo one\n');
    w.f.write('ws/scripts/run.sh', 'echo one\n');
    w.f.adapter(PROCESS);
    await w.trustNow(NAME);
    assert.equal(w.item(NAME).trust, 'trusted');

    fs.rmSync(w.f.path('ws/scripts/run.sh'));
    w.f.symlink('real.sh', 'ws/scripts/run.sh');
    const item = w.item(NAME);
    assert.deepEqual([item.contentHash, item.reviewToken], [null, null]);
    const r = review(item, w.ctx);
    assert.ok(r.ok);
    assert.deepEqual(
      [item.trust, item.decision, item.reasons, r.value.status],
      ['capabilities-changed', 'registered', ['loaded_unreviewed', 'capabilities_changed'], 'capabilities-changed'],
    );
  });

  it('stays not-reviewed without a receipt', () => {
    w.f.write('ws/config/skills/review/SKILL.md', '---\nname: review\n---\n');
    w.f.write('ws/scripts/real.sh', 'echo one\n');
    w.f.symlink('real.sh', 'ws/scripts/run.sh');
    w.f.adapter(PROCESS);
    const item = w.item(NAME);
    assert.deepEqual([item.trust, item.reasons], ['not-reviewed', ['loaded_unreviewed', 'not_reviewed']]);
  });
});
