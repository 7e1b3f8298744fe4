import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import type { Diagnostic } from '../../src/core/model';
import { applyFixAsEditor, assertFixBoundToEditorText } from './helpers/editorApply';
import { Fixture, index } from './helpers/fixture';

const SKILL = 'ws/.rivumi/skills/review.md';

/**
 * Rivumi's front matter is no YAML: `name: "review"` names the skill `"review"`, quotes
 * included, which its name rule refuses (rivumi.md §3.4), and the whole skill load fails.
 * The name meant is the one inside the quotes; the fix writes it bare, and the fixed skill
 * is indexed again without the finding.
 */
describe('quick fix for a quoted Rivumi skill name', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const finding = (): Diagnostic | undefined =>
    index([f.path('ws')]).diagnostics.find((x) => x.code === 'rivumi.skill.name');

  for (const [written, fixed] of [
    ['---\nname: "review"\ndescription: d\n---\nbody\n', '---\nname: review\ndescription: d\n---\nbody\n'],
    ["---\r\n  name:   'code.review-2'  \r\n---\r\nbody\r\n", '---\r\n  name:   code.review-2  \r\n---\r\nbody\r\n'],
    ['---\nname: x\nname: "review"\n---\nbody\n', '---\nname: x\nname: review\n---\nbody\n'],
  ] as const) {
    it(`writes the name without its quotes in ${JSON.stringify(written)}`, () => {
      f.write(SKILL, written);
      const d = finding();
      assert.ok(d?.fix, 'a fix');
      assertFixBoundToEditorText(d.fix);
      applyFixAsEditor(d);
      assert.equal(fs.readFileSync(f.path(SKILL), 'utf8'), fixed);
      assert.deepEqual(
        index([f.path('ws')]).diagnostics.map((x) => x.code),
        [],
      );
    });
  }

  for (const written of [
    // Inside the quotes is no valid name either: which one is meant is the author's call.
    '---\nname: "code review"\n---\nbody\n',
    // Not a pair of quotes.
    '---\nname: "review\n---\nbody\n',
  ]) {
    it(`offers no fix for ${JSON.stringify(written)}`, () => {
      f.write(SKILL, written);
      const d = finding();
      assert.ok(d);
      assert.equal(d.fix, undefined);
    });
  }
});
