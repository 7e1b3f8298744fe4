import { strict as assert } from 'node:assert';
import { Fixture } from './helpers/fixture';
import { fileStem, parseRivumiSkill, SAFE_NAME } from '../../src/core/systems/rivumi/skillFile';
import { loadRivumiProject } from '../../src/core/systems/rivumi/load';

const parse = (text: string, file = 'a.md') => parseRivumiSkill(text, file, fileStem(file));

/** Rivumi's skill file rules at their edges (rivumi.md §3.1, §3.4, §3.5), and where each error points. */
describe('Rivumi skill files: the name rule, the front-matter lines and the record limits', () => {
  describe('the name rule (§3.1)', () => {
    const cases: [string, boolean][] = [
      ['a', true],
      ['A9', true],
      ['9', true],
      ['a_b.c-d', true],
      ['a'.repeat(64), true],
      ['a'.repeat(65), false],
      ['', false],
      ['_a', false],
      ['-a', false],
      ['.a', false],
      ['a b', false],
      ['a/b', false],
      ['é', false],
      ['a\n', false],
    ];
    for (const [name, ok] of cases)
      it(`${ok ? 'accepts' : 'refuses'} ${JSON.stringify(name.length > 10 ? `${name.length} × a` : name)}`, () =>
        assert.equal(SAFE_NAME.test(name), ok));
  });

  describe('the file stem (Python Path.stem)', () => {
    for (const [file, stem] of [
      ['review.md', 'review'],
      ['a.b.md', 'a.b'],
      ['.h.md', '.h'],
      ['.hidden', '.hidden'],
      ['noext', 'noext'],
    ] as const)
      it(`${file} → ${stem}`, () => assert.equal(fileStem(file), stem));
  });

  describe('front-matter lines (§3.4 step 4)', () => {
    it('splits the block at every Python line boundary, not only \\n', () => {
      const r = parse('---\nname: x\x1cdescription: d\u2028\n---\nbody');
      assert.ok(r.ok);
      assert.deepEqual([r.name, r.description, r.nameFromFrontmatter], ['x', 'd', true]);
    });
    it('strips each line before splitting it, and skips blank lines', () => {
      const r = parse('---\n  name: x  \n \t \n\ndescription:   d d  \n---\nbody');
      assert.ok(r.ok);
      assert.deepEqual([r.name, r.description], ['x', 'd d']);
    });
    it('refuses a line without a colon, and a key in another case, pointing at its line', () => {
      for (const [text, line] of [
        ['---\nname: x\nname\n---\nbody', 2],
        ['---\n\nName: x\n---\nbody', 2],
        ['---\nname: x\n---x\n---\nbody', 2],
      ] as const) {
        const r = parse(text);
        assert.ok(!r.ok);
        assert.deepEqual(
          [r.code, r.message, r.line],
          ['rivumi.skill.frontmatter', "unsupported project skill frontmatter in 'a.md'", line],
        );
      }
    });
    it('quotes the file name as Python repr does in that message', () => {
      const r = parse('---\nx: 1\n---\nbody', "it's.md");
      assert.ok(!r.ok);
      assert.equal(r.message, `unsupported project skill frontmatter in "it's.md"`);
    });
    it('refuses NUL in a description value too, pointing at its line', () => {
      const r = parse('---\nname: x\ndescription: a\0b\n---\nbody');
      assert.ok(!r.ok);
      assert.deepEqual(
        [r.code, r.message, r.line],
        ['rivumi.skill.frontmatter-nul', 'project skill frontmatter contains NUL: a.md', 2],
      );
    });
    it('looks for the closing fence from offset 4: in ---\\n---\\n---\\n the block is the middle ---, which is refused', () => {
      const r = parse('---\n---\n---\nbody');
      assert.ok(!r.ok);
      assert.deepEqual([r.code, r.line], ['rivumi.skill.frontmatter', 1]);
    });
  });

  describe('names, bodies and record limits (§3.4 steps 5-9)', () => {
    it('points an invalid front-matter name at its line, and an invalid stem at the file start', () => {
      const fm = parse('---\ndescription: d\nname: bad name\n---\nbody');
      assert.ok(!fm.ok);
      assert.deepEqual(
        [fm.code, fm.message, fm.line],
        ['rivumi.skill.name', "invalid project skill name: 'bad name'", 2],
      );
      const stem = parse('body', 'bad name.md');
      assert.ok(!stem.ok);
      assert.equal(stem.line, 0);
    });
    it('checks the name before the body', () => {
      const r = parse('---\nname: bad name\n---\n  ');
      assert.ok(!r.ok);
      assert.equal(r.code, 'rivumi.skill.name');
    });
    it('refuses a body with NUL', () => {
      const r = parse('a\0b');
      assert.ok(!r.ok);
      assert.deepEqual(
        [r.code, r.message],
        ['rivumi.skill.body', 'project skill body cannot be blank or contain NUL: a.md'],
      );
    });
    it('accepts a description of 400 characters counted as code points, refuses 401, pointing at its line', () => {
      assert.ok(parse(`---\ndescription: ${'\u{1f600}'.repeat(400)}\n---\nbody`).ok);
      const r = parse(`---\nname: x\ndescription: ${'é'.repeat(401)}\n---\nbody`);
      assert.ok(!r.ok);
      assert.deepEqual(
        [r.code, r.line, r.name, r.nameFromFrontmatter],
        ['rivumi.skill.description-length', 2, 'x', true],
      );
      const stemmed = parse(`---\ndescription: ${'d'.repeat(401)}\n---\nbody`);
      assert.ok(!stemmed.ok);
      assert.deepEqual([stemmed.name, stemmed.nameFromFrontmatter], ['a', false]);
    });
  });

  describe("a plugin skill's combined name (§3.4 step 9)", () => {
    let f: Fixture;
    beforeEach(() => (f = new Fixture()));
    afterEach(() => f.remove());
    const combined = (plugin: string, skillFile: string, text: string) => {
      f.write(`ws/.rivumi/plugins/${skillFile}`, text);
      f.write('ws/.rivumi/plugins/pk.json', JSON.stringify({ name: plugin, skills: [{ path: skillFile }] }));
      return loadRivumiProject(f.path('ws')).plugins[0]?.skills[0];
    };
    it('accepts exactly 64 characters', () => {
      const s = combined('p'.repeat(31), 'a.md', `---\nname: ${'s'.repeat(32)}\n---\nbody`);
      assert.deepEqual([s?.state, s?.qualifiedName], ['valid', `${'p'.repeat(31)}.${'s'.repeat(32)}`]);
    });
    it('refuses 65, at the name line when the name comes from the front matter', () => {
      const s = combined('p'.repeat(31), 'a.md', `---\ndescription: d\nname: ${'s'.repeat(33)}\n---\nbody`);
      assert.deepEqual(
        [s?.state, s?.error?.code, s?.error?.message],
        [
          'invalid',
          'rivumi.skill.qualified-name-length',
          `plugin skill name exceeds 64 characters: ${'p'.repeat(31)}.${'s'.repeat(33)}`,
        ],
      );
      // Line 0 is `---`, line 1 the description: the name is on line 2.
      assert.equal(s?.error?.range.start.line, 2);
    });
    it('refuses 65 at the file start when the name is the stem', () => {
      const s = combined('p'.repeat(31), `${'s'.repeat(33)}.md`, 'body');
      assert.equal(s?.error?.code, 'rivumi.skill.qualified-name-length');
      assert.deepEqual(s?.error?.range.start, { line: 0, character: 0 });
    });
    it("names the combined name before a too-long description, as pydantic orders the record's fields", () => {
      // The record's fields are name, description, body, source (§3.1): pydantic reports its errors in that order.
      const long = `${'p'.repeat(40)}.${'s'.repeat(30)}`;
      combined('p'.repeat(40), 'a.md', `---\nname: ${'s'.repeat(30)}\ndescription: ${'d'.repeat(401)}\n---\nbody`);
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        [p.plugins[0]?.skills[0]?.error?.code, p.skillLoad?.message],
        ['rivumi.skill.qualified-name-length', `plugin skill name exceeds 64 characters: ${long}`],
      );
      assert.deepEqual(
        p.diagnostics.map((d) => d.code),
        ['rivumi.skill.qualified-name-length', 'rivumi.skill.description-length'],
      );
    });
    it('never applies to a project skill', () => {
      f.write(`ws/.rivumi/skills/${'s'.repeat(64)}.md`, 'body');
      assert.equal(loadRivumiProject(f.path('ws')).skills[0]?.state, 'valid');
    });
  });
  it('never evaluates a `---js` or `---javascript` fence: no front matter, the whole text is the body (rivumi.md §3.4 "Security")', () => {
    const g = globalThis as { rivumiPwned?: number };
    delete g.rivumiPwned;
    const f = new Fixture();
    try {
      const fences: [string, string][] = [
        ['js.md', '---js'],
        ['javascript.md', '---javascript'],
        ['coffee.md', '---coffee'],
      ];
      for (const [file, fence] of fences) {
        const text = `${fence}\nglobalThis.rivumiPwned = 1\n---\nbody\n`;
        f.write(`ws/.rivumi/skills/${file}`, text);
        const r = parse(text, file);
        assert.ok(r.ok);
        assert.deepEqual([r.name, r.body], [fileStem(file), text.trim()]);
      }
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        p.skills.map((s) => [s.name, s.state]),
        [
          ['coffee', 'valid'],
          ['javascript', 'valid'],
          ['js', 'valid'],
        ],
      );
      assert.equal(g.rivumiPwned, undefined);
    } finally {
      f.remove();
    }
  });
});
