import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import type { Diagnostic } from '../../src/core/model';
import { applyFixAsEditor, assertFixBoundToEditorText } from './helpers/editorApply';
import { Fixture, index, writeW } from './helpers/fixture';

const SKILL = 'ws/.codewhale/plugins/example-plugin/skills/example/SKILL.md';

/**
 * A Codewhale skill whose front-matter name is not a safe command name is loaded under the
 * normalized name its warning names (codewhale.md §5.2), and a bundle with that warning never
 * becomes active (§5.3). Writing the normalized name changes nothing the agent loads; the
 * fixed SKILL.md is indexed again and has no `skill-invalid` warning.
 */
describe('quick fix for a Codewhale skill name Codewhale normalizes', () => {
  let f: Fixture;
  beforeEach(() => {
    f = new Fixture();
    writeW(f);
  });
  afterEach(() => f.remove());

  const warning = (): Diagnostic => {
    const d = index([f.path('ws')]).diagnostics.find((x) => x.code === 'codewhale.skill-invalid');
    assert.ok(d, 'a skill-invalid warning');
    return d;
  };

  for (const [written, fixed] of [
    [
      '---\nname: Search Docs\ndescription: finds docs\n---\nbody\n',
      '---\nname: search-docs\ndescription: finds docs\n---\nbody\n',
    ],
    ['---\r\nName:  "My_Skill"  \r\n---\r\nbody\r\n', '---\r\nName:  my-skill  \r\n---\r\nbody\r\n'],
    ['---\nname: first\nname: Last One\n---\nbody\n', '---\nname: first\nname: last-one\n---\nbody\n'],
    ['---\nname: ?!\n---\nbody\n', '---\nname: skill\n---\nbody\n'],
    // A line that reads `name:` inside the description's block is the description's, not the name.
    [
      '---\nname: Search Docs\ndescription: |\n  name: other\n---\nbody\n',
      '---\nname: search-docs\ndescription: |\n  name: other\n---\nbody\n',
    ],
  ] as const) {
    it(`writes the normalized name in ${JSON.stringify(written.split(/\r?\n/).slice(1, -3).join(' / '))}`, () => {
      f.write(SKILL, written);
      const d = warning();
      assert.ok(d.fix, 'a fix');
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
    // The name is the heading: rewriting the document's title is the author's call.
    '# Search Docs\n\nbody\n',
    // A block scalar's lines are the name; one line in its place would leave the others.
    '---\nname: >\n  Search\n  Docs\n---\nbody\n',
    // `a:b` stays `a:b`, which is still not a safe command name: the warning would stay.
    '---\nname: Repo:Triage\n---\nbody\n',
  ]) {
    it(`offers no fix for ${JSON.stringify(written)}`, () => {
      f.write(SKILL, written);
      assert.equal(warning().fix, undefined);
    });
  }
});
