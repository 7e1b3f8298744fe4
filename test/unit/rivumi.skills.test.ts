import { strict as assert } from 'node:assert';
import { Fixture, index, byName, messages, codes, top } from './helpers/fixture';
import { parseRivumiSkill } from '../../src/core/systems/rivumi/skillFile';
import { loadRivumiProject } from '../../src/core/systems/rivumi/load';
import { severityOf } from '../../src/core/diagnostics/diagnosticCodes';
import { boundedText, renderSkillSection, selectSkills } from '../../src/core/systems/rivumi/promptSection';

const parse = (text: string, file = 'a.md') => parseRivumiSkill(text, file, file.replace(/\.md$/, ''));

describe('Rivumi skills (rivumi.md §3, §9)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  describe('upstream tests', () => {
    it('loads review.md as the skill reviewer with its description, and renders it', () => {
      f.write(
        'ws/.rivumi/skills/review.md',
        '---\nname: reviewer\ndescription: Review patch risks.\n---\n# Review\n\nCheck regression risk before final output.\n',
      );
      const p = loadRivumiProject(f.path('ws'));
      assert.equal(p.skills.length, 1);
      const s = p.skills[0];
      assert.deepEqual(
        [s?.name, s?.description, s?.source],
        ['reviewer', 'Review patch risks.', '.rivumi/skills/review.md'],
      );
      const text = renderSkillSection(p.skills);
      assert.ok(text.includes('Project skills from .rivumi/skills'));
      assert.ok(text.includes('Check regression risk'));
      const item = byName(index([f.path('ws')]), 'reviewer');
      assert.deepEqual([item.decision, item.reasons], ['registered', ['guidance']]);
    });

    it('rejects a symlinked skill, then an unsupported front matter key', () => {
      f.write('ws/.rivumi/outside.md', 'x');
      f.symlink('../outside.md', 'ws/.rivumi/skills/linked.md');
      assert.ok(messages(index([f.path('ws')])).some((m) => m.includes('regular markdown file')));
      f.remove();
      f = new Fixture();
      f.write('ws/.rivumi/skills/bad.md', '---\nunsupported: value\n---\nbody');
      assert.ok(messages(index([f.path('ws')])).some((m) => m.includes('unsupported')));
    });

    it('selects skills by name, and refuses an unknown one', () => {
      f.write('ws/.rivumi/skills/review.md', '---\nname: reviewer\n---\nReview.');
      f.write('ws/.rivumi/skills/test.md', '---\nname: test-writer\n---\nTest.');
      const p = loadRivumiProject(f.path('ws'));
      const chosen = selectSkills(p.skills, ['test-writer']);
      assert.deepEqual(chosen.ok && chosen.skills.map((s) => s.name), ['test-writer']);
      const missing = selectSkills(p.skills, ['missing']);
      assert.ok(!missing.ok && missing.message.includes('unknown enabled skill'));
    });
  });

  describe('front matter grammar (§3.4, §9.2)', () => {
    const ok = (text: string, file = 'a.md') => {
      const r = parse(text, file);
      assert.ok(r.ok, r.ok ? '' : r.message);
      return r;
    };
    const fails = (text: string, message: string, file = 'a.md') => {
      const r = parse(text, file);
      assert.ok(!r.ok);
      assert.equal(r.message, message);
    };
    it('takes the stem as name for a file with only a body', () => {
      const r = ok('Just body', 'one-skill.md');
      assert.deepEqual([r.name, r.description, r.body], ['one-skill', '', 'Just body']);
    });
    it('never sees front matter after a BOM', () => {
      const r = ok('\ufeff---\nname: x\n---\nbody');
      assert.equal(r.name, 'a');
      assert.ok(r.body.startsWith('\ufeff') && r.body.includes('---'));
    });
    it('parses CRLF and lone CR line endings like LF', () => {
      const r = ok('---\r\nname: x\r\ndescription: d\r\n---\r\nbody\r\n');
      assert.deepEqual([r.name, r.description, r.body], ['x', 'd', 'body']);
      const cr = ok('---\rname: y\rdescription: d\r---\rbody\r');
      assert.deepEqual([cr.name, cr.description, cr.body], ['y', 'd', 'body']);
    });
    it('does not treat ---\\n---\\nbody as empty front matter, but does ---\\n\\n---\\nbody', () => {
      const a = ok('---\n---\nbody');
      assert.deepEqual([a.name, a.body], ['a', '---\n---\nbody']);
      assert.deepEqual([ok('---\n\n---\nbody').name, ok('---\n\n---\nbody').body], ['a', 'body']);
    });
    it('keeps the key unstripped: "name : x" is unsupported', () =>
      fails('---\nname : x\n---\nb', "unsupported project skill frontmatter in 'a.md'"));
    it('does no quote handling: name "x" is invalid', () =>
      fails('---\nname: "x"\n---\nb', `invalid project skill name: '"x"'`));
    it('lets the last duplicate key win', () => assert.equal(ok('---\nname: x\nname: y\n---\nb').name, 'y'));
    it('uses the stem for empty name and description', () =>
      assert.deepEqual(
        [ok('---\nname:\ndescription:\n---\nb').name, ok('---\nname:\ndescription:\n---\nb').description],
        ['a', ''],
      ));
    for (const [name, text] of [
      ['no closing ---', '---\nname: x\nbody'],
      ['a closing "--- "', '---\nname: x\n--- \nbody'],
      ['a closing --- at end of file', '---\nname: x\n---'],
    ] as const) {
      it(`treats the whole text as body with ${name}`, () => {
        const r = ok(text);
        assert.deepEqual([r.name, r.description, r.body], ['a', '', text]);
      });
    }
    it('refuses a blank body', () =>
      fails('---\nname: x\n---\n   \n', 'project skill body cannot be blank or contain NUL: a.md'));
    it('keeps colons in values', () => assert.equal(ok('---\ndescription: a: b\n---\nbody').description, 'a: b'));
    it('reads no YAML types: a number, null or true is the literal text, a quoted name keeps its quotes', () => {
      assert.deepEqual(
        ['123', 'null', 'true'].map((v) => ok(`---\nname: ${v}\ndescription: ${v}\n---\nb`)).map((r) => r.name),
        ['123', 'null', 'true'],
      );
      fails("---\nname: 'x'\n---\nb", `invalid project skill name: "'x'"`);
      fails('---\n- name: x\n---\nb', "unsupported project skill frontmatter in 'a.md'");
    });
    it('refuses a # comment line', () =>
      fails('---\n# comment\nname: x\n---\nb', "unsupported project skill frontmatter in 'a.md'"));
    it('refuses a stem with a space', () => fails('body', "invalid project skill name: 'two words'", 'two words.md'));
    it('refuses a dot-file stem', () => fails('body', "invalid project skill name: '.h'", '.h.md'));
    it('refuses NUL in front matter', () =>
      fails('---\nname: x\u0000\n---\nb', 'project skill frontmatter contains NUL: a.md'));
    it('refuses a description over 400 characters', () =>
      fails(`---\ndescription: ${'d'.repeat(401)}\n---\nb`, 'project skill description exceeds 400 characters: a.md'));
  });

  describe('files on disk (§3.2, §3.3)', () => {
    it('rejects a directory named dir.md', () => {
      f.mkdir('ws/.rivumi/skills/dir.md');
      assert.deepEqual(messages(index([f.path('ws')])), ['project skill must be a regular markdown file: dir.md']);
    });
    it('does not list A.MD on Linux', () => {
      f.write('ws/.rivumi/skills/A.MD', 'body');
      assert.deepEqual(index([f.path('ws')]).items, []);
    });
    it('keeps a BOM read from disk: the front matter after it is body, the name the stem', () => {
      f.write('ws/.rivumi/skills/a.md', '\ufeff---\nname: x\n---\nbody\n');
      const s = loadRivumiProject(f.path('ws')).skills[0];
      assert.deepEqual([s?.state, s?.name, s?.body], ['valid', 'a', '\ufeff---\nname: x\n---\nbody']);
    });
    it('rejects bytes FF FE as not UTF-8', () => {
      f.write('ws/.rivumi/skills/a.md', Buffer.from([0xff, 0xfe, 0x41]));
      assert.deepEqual(messages(index([f.path('ws')])), ['project skill is not valid UTF-8: a.md']);
    });
    it('accepts 32768 bytes and rejects 32769', () => {
      f.write('ws/.rivumi/skills/a.md', 'x'.repeat(32768));
      f.write('ws/.rivumi/skills/b.md', 'x'.repeat(32769));
      const s = index([f.path('ws')]);
      assert.deepEqual(
        messages(s).filter((m) => !m.startsWith('Rivumi aborts')),
        ['project skill exceeds 32768 bytes: b.md'],
      );
      assert.deepEqual(byName(s, 'a').reasons, ['load_aborted']);
    });
    it('loads the first 16 of 17 by name and never reads a malformed 17th', () => {
      for (let i = 0; i < 16; i++) f.write(`ws/.rivumi/skills/s${String(i).padStart(2, '0')}.md`, `skill ${i}`);
      f.write('ws/.rivumi/skills/zz.md', '---\nbad key: 1\n---\nbody');
      const s = index([f.path('ws')]);
      assert.equal(s.items.filter((i) => i.decision === 'registered').length, 16);
      const last = byName(s, 'zz');
      assert.deepEqual([last.decision, last.reasons], ['display_only', ['skill_limit_exceeded']]);
      assert.deepEqual(codes(s), ['rivumi.skill.not-loaded']);
    });
    it('sorts by code point: .h.md < B.md < a.md', () => {
      for (const n of ['a.md', 'B.md', '.h.md']) f.write(`ws/.rivumi/skills/${n}`, 'body');
      const p = loadRivumiProject(f.path('ws'));
      assert.deepEqual(
        p.skills.map((s) => s.source),
        ['.rivumi/skills/.h.md', '.rivumi/skills/B.md', '.rivumi/skills/a.md'],
      );
    });
    it('rejects a symlinked skills directory even when it points inside the repository', () => {
      f.write('ws/docs/x.md', 'body');
      f.mkdir('ws/.rivumi');
      f.symlink('../docs', 'ws/.rivumi/skills');
      assert.deepEqual(messages(index([f.path('ws')])), ['project skills path must be a directory']);
    });
    it('treats a dangling skills link as absent', () => {
      f.mkdir('ws/.rivumi');
      f.symlink('../nowhere', 'ws/.rivumi/skills');
      assert.deepEqual(index([f.path('ws')]).diagnostics, []);
    });
    it('aborts the whole skill load on one bad file and names it on every other skill', () => {
      f.write('ws/.rivumi/skills/good.md', 'body');
      f.write('ws/.rivumi/skills/bad.md', '---\nwhat: 1\n---\nbody');
      const s = index([f.path('ws')]);
      assert.deepEqual(byName(s, 'bad').reasons, ['skill_invalid']);
      const good = byName(s, 'good');
      assert.deepEqual([good.decision, good.reasons], ['rejected', ['load_aborted']]);
      const d = s.diagnostics.find((x) => x.code === 'rivumi.load-aborted');
      assert.match(d?.message ?? '', /because of \.rivumi\/skills\/bad\.md/);
      assert.equal(d?.related?.[0]?.file, f.path('ws/.rivumi/skills/bad.md'));
      // A warning, as the code's table (diagnostics.md, SARIF's default level) says it is.
      assert.equal(d?.severity, 'warning');
      assert.equal(severityOf('rivumi.load-aborted'), 'warning');
    });
    it('warns on duplicate names: both stay registered', () => {
      f.write('ws/.rivumi/skills/a.md', '---\nname: same\n---\nA');
      f.write('ws/.rivumi/skills/b.md', '---\nname: same\n---\nB');
      const s = index([f.path('ws')]);
      assert.deepEqual(
        top(s).map((i) => i.decision),
        ['registered', 'registered'],
      );
      assert.deepEqual(codes(s), ['rivumi.skill.duplicate-name']);
    });
    it('warns when the rendered section is cut in the middle', () => {
      for (let i = 0; i < 4; i++) f.write(`ws/.rivumi/skills/s${i}.md`, 'é'.repeat(3000));
      const s = index([f.path('ws')]);
      assert.deepEqual(codes(s), ['rivumi.skills.context-truncated']);
    });
  });

  describe('prompt section and selection', () => {
    it('truncates four bodies of 3000 é to 16000 bytes (8139 characters) with the spec marker', () => {
      // The spec leaves the names open: these reproduce its 24240 bytes, and where its cuts fall, its 8139 characters.
      const skills = ['qa', 'lint', 'ci', 'security'].map((qualifiedName) => ({
        qualifiedName,
        description: '',
        body: 'é'.repeat(3000),
      }));
      const full = renderSkillSection(skills, Number.MAX_SAFE_INTEGER);
      assert.equal(Buffer.byteLength(full), 24240);
      const bounded = renderSkillSection(skills);
      assert.deepEqual([Buffer.byteLength(bounded), [...bounded].length], [16000, 8139]);
      assert.ok(bounded.includes('\n... output truncated (8240 bytes omitted) ...\n'));
    });
    it('returns short text unchanged', () => assert.equal(boundedText('abc', 10), 'abc'));
    const loaded = ['s0', 's1', 's3'].map((qualifiedName) => ({ qualifiedName }));
    it('lists every missing name in request order', () => {
      assert.deepEqual(selectSkills(loaded, ['zz', 's1', 'yy']), {
        ok: false,
        message: 'unknown enabled skill: zz, yy',
      });
    });
    it('drops blanks and keeps request order', () => {
      const r = selectSkills(loaded, ['s3', '', 's0']);
      assert.deepEqual(r.ok && r.skills.map((s) => s.qualifiedName), ['s3', 's0']);
    });
    it('refuses duplicates after stripping', () =>
      assert.deepEqual(selectSkills(loaded, ['s0', ' s0 ']), {
        ok: false,
        message: 'enabled_skills cannot contain duplicates',
      }));
  });
});
