import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { review } from '../../src/core/trust/reviewBundle';
import { reviewText } from '../../src/core/review/reviewText';
import { MAX_HASHED_BYTES, MAX_HASHED_FILES } from '../../src/core/hashing/bundleContent';
import type { ListedFile } from '../../src/core/model';
import { MISSING_COVERED } from '../../src/core/systems/eva/coveredListing';
import { A0, EvaFixture } from './helpers/evaFixture';
import { fsPatcher } from './helpers/fsPatch';
import { denyDirectory, failReadsOf } from './helpers/deniedDirectory';
import { trustWorkspace } from './helpers/trustWorkspace';

/**
 * The review of an Eva unit Skillgate cannot hash lists every file it covers that Skillgate can
 * name, whatever stops the hash (eva.md §6.1: a link, past the limits, unreadable, outside the
 * project and the home, outside the allowed roots): those it read with their size and hash, each
 * that stops it with why, in the words of `check` and the diagnostic. Only the text and the panel
 * list them; `review --json` keeps its `files` (eva.reviewUnhashable.test.ts). Denials are
 * injected: tests run as root in CI.
 */
describe('the Files of an Eva unit Skillgate cannot hash, whatever the cause', () => {
  const fsPatch = fsPatcher();
  const w = trustWorkspace({ fixture: () => new EvaFixture().p0() });
  const MANIFEST = 'config/adapters/review.yaml';
  const SKILL = 'config/skills/review/SKILL.md';
  const LIMIT = `skill content exceeds the review limit (${MAX_HASHED_FILES} files / ${MAX_HASHED_BYTES} bytes)`;
  const DENIED = 'Permission denied (os error 13)';
  const withSkillPath = (p: string) => A0.replace('  id: review\n', `  id: review\n  path: ${p}\n`);
  /** skill.path names a SKILL.md, so its whole folder is covered. */
  const reviewSkill = () => {
    w.f.adapter(withSkillPath(SKILL));
    w.f.write(`ws/${SKILL}`, '---\nname: review\n---\n');
  };
  /** The listed files in the review, hashed (`path`) or not (`path`, why), and its text. */
  const listed = () => {
    const item = w.snapshot({ evaHome: w.f.home }).items.find((i) => i.name === 'review-skill');
    assert.ok(item, 'no review-skill');
    assert.equal(item.reviewToken, null, 'Skillgate cannot hash it');
    const r = review(item, w.ctx);
    assert.ok(r.ok, r.ok ? '' : r.message);
    const files = (r.value.coveredFiles ?? []).map((f: ListedFile) =>
      'unhashed' in f ? [f.path, f.unhashed] : f.path,
    );
    return { files, text: reviewText(r.value, [w.f.ws], false, false, item) };
  };

  it('a skill folder it may list but not search: each entry, unreadable, with the error', () => {
    reviewSkill();
    w.f.write('ws/config/skills/review/notes.md', 'notes\n');
    denyDirectory(fsPatch, w.f.path('ws/config/skills/review'), 'mode600');
    assert.deepEqual(listed().files, [
      MANIFEST,
      [SKILL, `failed to read covered file ${SKILL}: ${DENIED}`],
      ['config/skills/review/notes.md', `failed to read covered file config/skills/review/notes.md: ${DENIED}`],
    ]);
  });

  it('a skill folder it may not list: the folder, with the error', () => {
    reviewSkill();
    denyDirectory(fsPatch, w.f.path('ws/config/skills/review'));
    assert.deepEqual(listed().files, [MANIFEST, ['config/skills/review', `failed to read skill directory: ${DENIED}`]]);
  });

  it('a file whose read fails once open (EIO): that file with the error, the others hashed', () => {
    reviewSkill();
    w.f.write('ws/config/skills/review/notes.md', 'notes\n');
    failReadsOf(fsPatch, w.f.path('ws/config/skills/review/notes.md'));
    assert.deepEqual(listed().files, [
      MANIFEST,
      SKILL,
      [
        'config/skills/review/notes.md',
        'failed to read covered file config/skills/review/notes.md: Input/output error (os error 5)',
      ],
    ]);
  });

  it('a SKILL.md not there beside a link: listed as the hash records it, missing; the link with why', () => {
    w.f.adapter(withSkillPath(SKILL));
    w.f.write('secret.txt', 'secret\n');
    w.f.symlink(w.f.path('secret.txt'), 'ws/config/skills/review/leak');
    assert.deepEqual(listed().files, [
      MANIFEST,
      [SKILL, MISSING_COVERED],
      ['config/skills/review/leak', 'a file covered by this skill is a symbolic link; it cannot be reviewed'],
    ]);
  });

  it('a skill folder outside the project and the home (~/.codex/skills leads elsewhere): each file by its absolute path', () => {
    w.f.write('data/skills/x/SKILL.md', 's\n');
    w.f.write('data/skills/x/notes.md', 'n\n');
    fs.mkdirSync(w.f.path('home/.codex'), { recursive: true });
    fs.symlinkSync(w.f.path('data/skills'), w.f.path('home/.codex/skills'));
    w.f.adapter(withSkillPath(w.f.path('data/skills/x/SKILL.md')));
    const outside = 'a covered file lies outside the project and the home directory';
    assert.deepEqual(listed().files, [
      [w.f.path('data/skills/x/SKILL.md'), outside],
      [w.f.path('data/skills/x/notes.md'), outside],
      MANIFEST,
    ]);
  });

  it('a path outside the allowed roots: named as Eva refuses it, never read', () => {
    w.f.write('out.md', 'secret\n');
    w.f.adapter(withSkillPath('../out.md'));
    const { files, text } = listed();
    assert.deepEqual(files, [
      [w.f.path('out.md'), `covered path is outside the allowed roots: ${w.f.path('out.md')}`],
      MANIFEST,
    ]);
    assert.ok(!text.includes('secret'), text);
  });

  it('more than 4096 files in its folder: the first 4096 found hashed, the next one past the limit, where the list ends', () => {
    reviewSkill();
    for (let i = 0; i < MAX_HASHED_FILES; i++) w.f.write(`ws/config/skills/review/refs/${i}.md`, '');
    const { files, text } = listed();
    assert.equal(files.length, MAX_HASHED_FILES + 2, 'the manifest, 4096 files, and where the list ends');
    assert.deepEqual(
      files.filter((f) => Array.isArray(f)).map((f) => f[1]),
      [LIMIT],
    );
    assert.ok(text.includes(`\nFiles (${MAX_HASHED_FILES + 2}, 1 not hashed):\n`), text.slice(0, 2000));
  });
});
