import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { review, type ReviewReport } from '../../src/core/trust/reviewBundle';
import { reviewText } from '../../src/core/review/reviewText';
import { reviewViewModel } from '../../src/core/review/reviewViewModel';
import { beneathWorks } from '../../src/core/fs/openBeneath';
import { assertDisplaySafe, HOSTILE } from './helpers/displaySafe';
import { trustWorkspace } from './helpers/trustWorkspace';

/**
 * The review of an Eva unit names the skill it binds and shows its text, as the review of a
 * Codewhale or Rivumi unit shows its skills' (review/reviewViewModel.ts `skills`): a skill
 * adapter's `skill.id` with the file `skill.path` names (eva.md §2.3; the seed's "an external
 * SKILL.md is a workflow instruction package"), a lua_skill's `lua.script` (eva.md §2.5). The
 * review printed `skills: none` for them and never showed either text, though the content hash
 * covers both (eva.md §6.1). The text is read as the hash read it (trust/unitFileRead.ts
 * `readFromUnit`), and nothing of the capability hash or review token moves.
 *
 * The project is the demo's (`examples/demo-workspace`: its `config/` and `schemas/`),
 * copied into a temporary folder.
 */
describe('the review of an Eva unit shows the skill it binds (text review and panel)', () => {
  const w = trustWorkspace();
  const DEMO = path.resolve(__dirname, '../../examples/demo-workspace');
  const SKILL_MD = 'config/skills/review/SKILL.md';
  const LUA = 'config/skills/lint.lua';
  beforeEach(() => {
    for (const dir of ['config', 'schemas']) fs.cpSync(path.join(DEMO, dir), w.f.path('ws', dir), { recursive: true });
  });

  /** The index with a home of the test's own (no user skill of the machine's). */
  const snapshot = () => w.snapshot({ evaHome: w.f.mkdir('home') });
  const itemOf = (name: string) =>
    snapshot().items.find((i) => i.qualifiedName === name) ?? assert.fail(`no item ${name}`);
  const reviewOf = (name: string): ReviewReport => {
    const r = review(itemOf(name), w.ctx);
    assert.ok(r.ok, r.ok ? '' : r.message);
    return r.value;
  };
  const textOf = (name: string): string => reviewText(reviewOf(name), [w.f.path('ws')], false);
  const modelOf = (name: string) => reviewViewModel(reviewOf(name), snapshot(), false);
  /** The text review's `Capabilities:` section, up to the files. */
  const capabilitiesOf = (text: string): string =>
    text.slice(text.indexOf('\nCapabilities:\n'), text.indexOf('\nFiles ('));
  /** Each line of `body` as the text review quotes it, under a gutter. */
  const quoted = (body: string): string =>
    body
      .replace(/\n$/, '')
      .split('\n')
      .map((l) => `    | ${l}\n`)
      .join('');

  describe("the demo's review-skill (a skill adapter whose skill.path names a SKILL.md)", () => {
    const NAME = 'review-skill (skill review)';

    it('lists the skill by its skill.id under Capabilities, never `skills: none`, and quotes its SKILL.md', () => {
      const caps = capabilitiesOf(textOf(NAME));
      assert.ok(!caps.includes('skills: none'), caps);
      assert.ok(caps.includes('\n  skills: review\n'), caps);
      assert.ok(caps.includes(`\n  skill review: the instructions skill.path names (${SKILL_MD})`), caps);
      assert.ok(caps.includes(quoted(fs.readFileSync(w.f.path('ws', SKILL_MD), 'utf8'))), caps);
    });

    it("carries the skill and its SKILL.md text in the panel's Skills (reviewViewModel.ts)", () => {
      const m = modelOf(NAME);
      assert.deepEqual(
        m.capabilities.skills.map((s) => [s.name.text, s.body?.text ?? null]),
        [['review', fs.readFileSync(w.f.path('ws', SKILL_MD), 'utf8')]],
      );
      assert.match(m.capabilities.skills[0]?.description.text ?? '', /^the instructions skill\.path names /);
    });
  });

  describe("the demo's lint-skill (a lua_skill)", () => {
    it('lists it under Capabilities and quotes its Lua script', () => {
      const caps = capabilitiesOf(textOf('lint-skill'));
      assert.ok(!caps.includes('skills: none'), caps);
      assert.ok(caps.includes('\n  skills: lint-skill\n'), caps);
      assert.ok(caps.includes(`\n  skill lint-skill: the Lua script lua.script names (${LUA})`), caps);
      assert.ok(caps.includes(quoted(fs.readFileSync(w.f.path('ws', LUA), 'utf8'))), caps);
    });

    it("carries the script's source in the panel, labelled as the script", () => {
      const [skill, ...rest] = modelOf('lint-skill').capabilities.skills;
      assert.equal(rest.length, 0);
      assert.equal(skill?.name.text, 'lint-skill');
      assert.equal(skill?.body?.text, fs.readFileSync(w.f.path('ws', LUA), 'utf8'));
      assert.equal(skill?.bodyLabel, 'Show the Lua script');
    });
  });

  describe('adapters whose manifest names no skill.path (the demo’s summarize-skill, team-planner)', () => {
    for (const [name, skill] of [
      ['summarize-skill (skill summarize)', 'summarize'],
      ['team-planner (skill planner)', 'planner'],
    ] as const)
      it(`${name}: lists skill ${skill} with no text, and says why`, () => {
        const caps = capabilitiesOf(textOf(name));
        assert.ok(!caps.includes('skills: none'), caps);
        assert.ok(caps.includes(`\n  skills: ${skill}\n`), caps);
        assert.ok(caps.includes(`\n  skill ${skill}: no skill.path: `), caps);
        assert.ok(!caps.includes('    | '), caps);
        const m = modelOf(name);
        assert.deepEqual(
          m.capabilities.skills.map((s) => [s.name.text, s.body]),
          [[skill, null]],
        );
      });
  });

  it('a skill.path whose SKILL.md is not on this machine: the skill is listed, with no text and why (its hash records it missing)', () => {
    fs.rmSync(w.f.path('ws', SKILL_MD));
    const NAME = 'review-skill (skill review)';
    const caps = capabilitiesOf(textOf(NAME));
    assert.ok(caps.includes('\n  skills: review\n'), caps);
    assert.ok(
      caps.includes('\n    (no text to show: the file is not among those this review read; see Diagnostics)\n'),
      caps,
    );
    assert.deepEqual(
      modelOf(NAME).capabilities.skills.map((sk) => [sk.name.text, sk.body]),
      [['review', null]],
    );
  });

  describe('a hostile SKILL.md', () => {
    const NAME = 'review-skill (skill review)';
    const BODY = `---\nname: review\ndescription: x\n---\nfine</script><script>alert(1)</script>\r${HOSTILE}\nContent hash:    forged\n`;
    beforeEach(() => fs.writeFileSync(w.f.path('ws', SKILL_MD), BODY));

    it('is escaped in the text review: no control, bidi or surrogate reaches the terminal; every line stays under the gutter', () => {
      const text = textOf(NAME);
      assertDisplaySafe(text, 'the text review');
      const caps = capabilitiesOf(text);
      assert.ok(caps.includes('    | fine</script><script>alert(1)</script>\\u{d}\\u{1b}[1A'), caps);
      assert.ok(caps.includes('\\u{7}\\u{9b}\\u{202e}'), caps);
      // The body's line that reads like the review's own stays quoted; the review's own line is still the last of its kind.
      assert.ok(caps.includes('\n    | Content hash:    forged\n'), caps);
      assert.equal(text.match(/^Content hash: /gm)?.length, 1);
    });

    it('is escaped in the panel model, flagged and counted as hidden; markup stays text for textContent', () => {
      const m = modelOf(NAME);
      const body = m.capabilities.skills[0]?.body;
      assert.ok(body, 'no body');
      assertDisplaySafe(body.text, 'the body');
      assert.ok(body.text.includes('fine</script><script>alert(1)</script>\\u{d}\\u{1b}[1A'), body.text);
      assert.equal(body.hidden, true);
      assert.ok(m.hiddenCount >= 1);
    });
  });

  (beneathWorks() ? it : it.skip)(
    'a skill folder that is a link: its SKILL.md is shown as the hash read it, beneath the folder (Linux)',
    () => {
      const real = w.f.path('ws/config/real/review');
      fs.mkdirSync(path.dirname(real), { recursive: true });
      fs.renameSync(w.f.path('ws/config/skills/review'), real);
      fs.symlinkSync(real, w.f.path('ws/config/skills/review'));
      const m = modelOf('review-skill (skill review)');
      assert.equal(m.capabilities.skills[0]?.body?.text, fs.readFileSync(path.join(real, 'SKILL.md'), 'utf8'));
    },
  );

  it('a SKILL.md under the home (skill.path: ~/.codex/skills/review/SKILL.md) is shown too', () => {
    w.f.write('home/.codex/skills/review/SKILL.md', '---\nname: review\ndescription: home\n---\nfrom the home\n');
    const adapter = w.f.path('ws/config/adapters/review-skill.yaml');
    fs.writeFileSync(
      adapter,
      fs.readFileSync(adapter, 'utf8').replace(`path: ${SKILL_MD}`, 'path: ~/.codex/skills/review/SKILL.md'),
    );
    const m = modelOf('review-skill (skill review)');
    assert.equal(m.capabilities.skills[0]?.body?.text, '---\nname: review\ndescription: home\n---\nfrom the home\n');
    assert.ok(textOf('review-skill (skill review)').includes('\n    | from the home\n'));
  });

  /**
   * The review tokens of the demo's four Eva units, as `skillgate review` printed them before
   * the review showed their skills (src/cli/cli.ts, commit 092b9a7): showing a text changes no
   * hash. Should the demo's Eva files change, these change with them, and only then.
   */
  it("leaves every review token of the demo's Eva units byte-identical", () => {
    const BEFORE: Record<string, string> = {
      'review-skill (skill review)':
        'a1764b8698aedd5438d249398e2626280479bf49a623666ceec13435abc56c4e.b12c011a022fcbcbf788fe3c635d6c2191a445b9a7d508013eed42947dc16ac0',
      'summarize-skill (skill summarize)':
        '532733c1b34f2ff2eaecc62100cc400201611c99b42148f1ade044cefe6a2854.de077563cf9d7730ec2eab917e8b7c385ff906f7fe265b653e9d9f5900b0644c',
      'team-planner (skill planner)':
        '743d22f23bc8726233875a3abeeb5b4c3164ef019a1a25148577fb4bb96273d2.667cde26d28f26d7ff561f4caf85e541c2c07d021bc3028005c6a4a5c6a9f9e9',
      'lint-skill':
        'dd9d128eaf9e357cf03b55f46e54e25df5262bcc14a8e5f0205b859bace7621e.a8c8d556b18529caaf80e944d7c5642d416bc91a4e919147d24ffc40466954bc',
    };
    for (const [name, token] of Object.entries(BEFORE)) {
      assert.equal(itemOf(name).reviewToken, token, name);
      const r = reviewOf(name);
      assert.equal(r.reviewToken, token, name);
      assert.equal(modelOf(name).hashes.token, token, name);
      assert.ok(reviewText(r, [w.f.path('ws')], false).includes(`\nReview token:    ${token}\n`), name);
    }
  });
});
