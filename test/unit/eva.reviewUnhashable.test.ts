import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { review, type ReviewReport } from '../../src/core/trust/reviewBundle';
import { reviewText } from '../../src/core/review/reviewText';
import { CAPABILITIES_UNKNOWN, reviewViewModel } from '../../src/core/review/reviewViewModel';
import { MAX_HASHED_BYTES } from '../../src/core/hashing/treeRead';
import { trustWorkspace } from './helpers/trustWorkspace';
import { runCli } from './helpers/runCli';
import { assertDisplaySafe } from './helpers/displaySafe';

/**
 * The review of an Eva unit whose manifest loads but whose content Skillgate cannot hash (a
 * symbolic link in its skill folder, a file past the hash's size cap): Eva-CLI still registers
 * it (eva.md §6.1: "the bundle has no hashes and cannot be trusted (Eva still registers it:
 * `registered`, `loaded_unreviewed`, `not_reviewed`, with the diagnostic saying why it cannot
 * be trusted)"). Its review said "The manifest does not load" and hashes "not computable (the
 * manifest does not load)", which is untrue: the manifest loads, Eva-CLI loads the skill, and
 * what fails is Skillgate's own hash. Every face now says that, with the failure in the words
 * of the diagnostic (`eva.trust.symlink`) or of `check` (the item's `notCovered`).
 *
 * The project is the demo's (`examples/demo-workspace`: its `config/` and `schemas/`),
 * copied into a temporary folder.
 */
describe('the review of an Eva unit Skillgate cannot hash says so, never that its manifest does not load', () => {
  const w = trustWorkspace();
  const DEMO = path.resolve(__dirname, '../../examples/demo-workspace');
  const NAME = 'review-skill (skill review)';
  const SKILL_DIR = 'config/skills/review';
  const LINK = 'a file covered by this skill is a symbolic link; it cannot be reviewed';
  const LIMIT = 'skill content exceeds the review limit (4096 files / 67108864 bytes)';
  /** The top-level fields of `review --json` (the review report as the CLI prints it). */
  const REVIEW_JSON_KEYS = [
    'ok',
    'message',
    'item',
    'reviewToken',
    'contentHash',
    'capabilityHash',
    'capabilities',
    'files',
    'root',
    'parts',
    'status',
    'enabled',
    'receipt',
    'diff',
    'codewhaleTrustLine',
    'notCovered',
    'trustable',
    'trustRefusal',
    'diagnostics',
    'storeProblem',
  ];
  beforeEach(() => {
    for (const dir of ['config', 'schemas']) fs.cpSync(path.join(DEMO, dir), w.f.path('ws', dir), { recursive: true });
  });

  /** The index with a home of the test's own (no user skill of the machine's). */
  const snapshot = () => w.snapshot({ evaHome: w.f.mkdir('home') });
  const itemOf = () => snapshot().items.find((i) => i.qualifiedName === NAME) ?? assert.fail(`no item ${NAME}`);
  const reviewOf = (): ReviewReport => {
    const r = review(itemOf(), w.ctx);
    assert.ok(r.ok, r.ok ? '' : r.message);
    return r.value;
  };
  const refusal = (why: string) =>
    `Skillgate cannot hash Eva skill adapter \`review-skill\` (${why}), so it cannot be trusted until that is fixed and it is reviewed again. Eva-CLI loads it all the same (registered), whatever Skillgate says.`;
  const capabilities = (why: string) =>
    `Skillgate cannot hash this unit (${why}), so what it can do has no capability hash and cannot be compared with your review.`;
  const addLink = () => {
    w.f.write('outside.txt', 'secret\n');
    w.f.symlink(w.f.path('outside.txt'), `ws/${SKILL_DIR}/leak`);
  };

  for (const [what, make, why] of [
    ['a symbolic link in its skill folder', addLink, LINK],
    // Sparse: past the cap without writing 64 MiB; the hash refuses it by its size, unread.
    [
      'a file in its skill folder past the hash size cap',
      () => fs.truncateSync(w.f.write(`ws/${SKILL_DIR}/big.bin`, ''), MAX_HASHED_BYTES + 1),
      LIMIT,
    ],
  ] as const)
    describe(what, () => {
      beforeEach(() => make());

      it('is registered by Eva-CLI as the index says (the decision the review must not contradict)', () => {
        const item = itemOf();
        assert.deepEqual(
          [item.decision, item.reasons, item.contentHash, item.reviewToken, item.detail.notCovered],
          ['registered', ['loaded_unreviewed', 'not_reviewed'], null, null, [why]],
        );
      });

      it('the text review says Skillgate cannot hash it, why, and that Eva-CLI loads it all the same', () => {
        const r = reviewOf();
        assert.equal(r.trustRefusal, refusal(why));
        const text = reviewText(r, [w.f.path('ws')], false, false, itemOf());
        assert.ok(!text.includes('does not load'), text);
        assert.ok(text.includes(`\n  not trustable: ${refusal(why)}\n`), text);
        assert.ok(text.includes(`\nCapabilities:\n  ${capabilities(why)}\n`), text);
        for (const hash of ['Content hash:    ', 'Capability hash: ', 'Review token:    '])
          assert.ok(text.includes(`\n${hash}not computable (Skillgate cannot hash this unit)\n`), text);
        // Eva-CLI has no Skillgate enable switch (eva.md §4.6): only trust is refused, and enable is never offered.
        assert.ok(text.includes(`\nTrust is refused: ${refusal(why)}\n`), text);
        assert.ok(!/enable are refused|and enable/i.test(text), text);
      });

      it('the panel says the same (reviewViewModel.ts)', () => {
        const m = reviewViewModel(reviewOf(), snapshot(), false);
        assert.equal(m.capabilitiesUnknown?.text, capabilities(why));
        assert.equal(m.hashes.notComputable, 'Skillgate cannot hash this unit');
        assert.equal(m.actions.trust.why?.text, refusal(why));
        assert.equal(m.actions.notices[0]?.text, refusal(why));
      });
    });

  /**
   * The Files section of such a unit: every file it covers that Skillgate can name, the ones it
   * read with their size and hash, the one that stops the hash with why (eva.md §6.1). It listed
   * the manifest alone, though the reviewer most needs to see which file is the cause.
   */
  describe('its Files list every covered file, the cause marked with why it was not hashed', () => {
    const record = (rel: string) => {
      const bytes = fs.readFileSync(w.f.path(`ws/${rel}`));
      return { path: rel, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
    };
    const hashedLine = (rel: string) => {
      const f = record(rel);
      return `  - ${String(f.size).padStart(9)}  ${f.sha256.slice(0, 12)}  ${rel}`;
    };
    const MANIFEST = 'config/adapters/review-skill.yaml';
    const SKILL = `${SKILL_DIR}/SKILL.md`;

    for (const [what, make, cause, why] of [
      ['a symbolic link', addLink, `${SKILL_DIR}/leak`, LINK],
      [
        'a file past the hash size cap',
        () => fs.truncateSync(w.f.write(`ws/${SKILL_DIR}/big.bin`, ''), MAX_HASHED_BYTES + 1),
        `${SKILL_DIR}/big.bin`,
        LIMIT,
      ],
    ] as const)
      describe(what, () => {
        beforeEach(() => make());

        it('the text review lists the manifest, the skill and the cause, in byte order', () => {
          const text = reviewText(reviewOf(), [w.f.path('ws')], false, false, itemOf());
          const files = [
            'Files (3, 1 not hashed):',
            hashedLine(MANIFEST),
            hashedLine(SKILL),
            `  ! ${'?'.padStart(9)}  not hashed    ${cause}  (${why})`,
          ].join('\n');
          assert.ok(text.includes(`\n${files}\n\n`), text);
        });

        it('the panel lists the same; the cause has no link to open, the others do', () => {
          const m = reviewViewModel(reviewOf(), snapshot(), false);
          assert.deepEqual(
            m.files.map((f) =>
              'unhashed' in f
                ? [f.path.text, f.unhashed.text]
                : [f.path.text, f.size, f.sha256, f.file === w.f.path(`ws/${f.path.text}`)],
            ),
            [
              ...[MANIFEST, SKILL].map((rel) => {
                const r = record(rel);
                return [rel, r.size, r.sha256, true];
              }),
              [cause, why],
            ],
          );
        });

        it('`review --json` keeps its files (cli.md: path, size, sha256, executable) and its null hashes as they were', async () => {
          const cli = await runCli(
            ['review', 'review-skill', '--json', '--eva-home', w.f.mkdir('home'), '--no-user'],
            { SKILLGATE_STATE_DIR: w.f.path('state') },
            w.f.path('ws'),
          );
          assert.equal(cli.code, 0, cli.err);
          const json = JSON.parse(cli.out) as Record<string, unknown>;
          assert.deepEqual(json['files'], [{ ...record(MANIFEST), executable: false }]);
          assert.deepEqual([json['contentHash'], json['capabilityHash'], json['reviewToken']], [null, null, null]);
          assert.deepEqual(
            Object.keys(json).filter((k) => !REVIEW_JSON_KEYS.includes(k)),
            [],
            'no field beyond those it had',
          );
        });
      });

    it('a hostile link name reaches the text and the panel escaped', () => {
      w.f.write('outside.txt', 'secret\n');
      w.f.symlink(w.f.path('outside.txt'), `ws/${SKILL_DIR}/leak\x1b[2J\u202e.md`);
      const text = reviewText(reviewOf(), [w.f.path('ws')], false, false, itemOf());
      assertDisplaySafe(text, 'the text review');
      assert.ok(text.includes(`  not hashed    ${SKILL_DIR}/leak\\u{1b}[2J\\u{202e}.md  (${LINK})\n`), text);
      const cause = reviewViewModel(reviewOf(), snapshot(), false).files.find((f) => 'unhashed' in f);
      assert.deepEqual([cause?.path.text, cause?.path.hidden], [`${SKILL_DIR}/leak\\u{1b}[2J\\u{202e}.md`, true]);
    });

    it('a link beside another in a subfolder: the walk goes on past the first, and lists both, never what they lead to', () => {
      addLink();
      w.f.write(`ws/${SKILL_DIR}/refs/notes.md`, 'notes\n');
      w.f.symlink('/etc', `ws/${SKILL_DIR}/refs/etc`);
      const text = reviewText(reviewOf(), [w.f.path('ws')], false, false, itemOf());
      const files = [
        'Files (5, 2 not hashed):',
        hashedLine(MANIFEST),
        hashedLine(SKILL),
        `  ! ${'?'.padStart(9)}  not hashed    ${SKILL_DIR}/leak  (${LINK})`,
        `  ! ${'?'.padStart(9)}  not hashed    ${SKILL_DIR}/refs/etc  (${LINK})`,
        hashedLine(`${SKILL_DIR}/refs/notes.md`),
      ].join('\n');
      assert.ok(text.includes(`\n${files}\n\n`), text);
      assert.ok(!text.includes('secret') && !text.includes('/etc/'), text);
    });
  });

  it('a lua_skill Eva-CLI rejects for a script outside its roots (eva.md §7 case 42): the review says both, truly', () => {
    w.f.write('outside.lua', 'return {}\n');
    const manifest = w.f.path('ws/config/capabilities/lint-skill.yaml');
    fs.writeFileSync(
      manifest,
      fs.readFileSync(manifest, 'utf8').replace('script: config/skills/lint.lua', 'script: ../outside.lua'),
    );
    const item = snapshot().items.find((i) => i.name === 'lint-skill') ?? assert.fail('no lint-skill');
    assert.deepEqual([item.decision, item.reasons], ['rejected', ['path_not_allowed', 'not_reviewed']]);
    const why = item.detail.notCovered?.join('; ') ?? assert.fail('no notCovered');
    const r = review(item, w.ctx);
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.equal(
      r.value.trustRefusal,
      `Skillgate cannot hash Eva lua_skill \`lint-skill\` (${why}), so it cannot be trusted until that is fixed and it is reviewed again. Eva-CLI does not load it now either (rejected; see its reasons).`,
    );
    const text = reviewText(r.value, [w.f.path('ws')], false, false, item);
    assert.ok(text.includes(`\nCapabilities:\n  ${capabilities(why)}\n`), text);
    assert.ok(text.includes('\nReview token:    not computable (Skillgate cannot hash this unit)\n'), text);
  });

  it('reviewed, then a link added: what changed says Skillgate cannot hash it now, not that the manifest does not load', async () => {
    await w.trustNow(NAME);
    addLink();
    const r = reviewOf();
    assert.equal(r.status, 'capabilities-changed');
    const text = reviewText(r, [w.f.path('ws')], false, false, itemOf());
    assert.ok(!text.includes('does not load'), text);
    assert.ok(text.includes(`\n  Capabilities:\n    (${capabilities(LINK)})\n`), text);
    const m = reviewViewModel(r, snapshot(), false);
    assert.ok(m.changes, 'the panel shows what changed');
    assert.equal(m.capabilitiesUnknown?.text, capabilities(LINK));
  });

  it('a Codewhale bundle with a link keeps "the manifest does not load": Codewhale itself rejects it (codewhale.md §4.8)', () => {
    w.f.write(
      'ws/.codewhale/plugins/tools/plugin.toml',
      'schema_version = 1\n\n[plugin]\nname = "tools"\nversion = "1.0.0"\n',
    );
    w.f.write('ws/outside.txt', 'x\n');
    w.f.symlink(w.f.path('ws/outside.txt'), 'ws/.codewhale/plugins/tools/leak');
    const item = snapshot().items.find((i) => i.name === 'tools') ?? assert.fail('no tools');
    assert.deepEqual(item.reasons, ['manifest_invalid', 'not_reviewed', 'not_enabled']);
    const r = review(item, w.ctx);
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.match(
      r.value.trustRefusal ?? '',
      /component trees may not contain symbolic link leak.*Codewhale does not load it/,
    );
    const text = reviewText(r.value, [w.f.path('ws')], false);
    assert.ok(text.includes(`\nCapabilities:\n  ${CAPABILITIES_UNKNOWN}\n`), text);
    assert.ok(text.includes('\nReview token:    not computable (the manifest does not load)\n'), text);
    // Codewhale has an enable switch (trust.md "Status"): both stay refused.
    assert.ok(text.includes(`\nTrust and enable are refused: ${r.value.trustRefusal ?? ''}\n`), text);
    assert.equal(reviewViewModel(r.value, snapshot(), false).hashes.notComputable, 'the manifest does not load');
  });
});
