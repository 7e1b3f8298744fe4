import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { run } from '../../src/cli/main';
import { Indexer } from '../../src/core/index/indexer';
import { MAX_HASHED_BYTES, MAX_HASHED_FILES } from '../../src/core/hashing/bundleContent';
import type { Snapshot } from '../../src/core/index/snapshot';
import type { Diagnostic } from '../../src/core/model';
import { A0, EvaFixture, L0 } from './helpers/evaFixture';
import { fsPatcher } from './helpers/fsPatch';
import { denyDirectory, failReadsOf } from './helpers/deniedDirectory';
import { loadWithVscode, vscodeStandIn } from './helpers/vscodeStandIn';

/**
 * An Eva unit Skillgate cannot hash says why in a diagnostic, whatever the cause (eva.md §6.1:
 * "the bundle has no hashes and cannot be trusted (Eva still registers it …, with the diagnostic
 * saying why it cannot be trusted)"): a link (`eva.trust.symlink`), content past the review limit
 * (`eva.trust.limit`), a covered file or folder this user cannot read (`eva.trust.unreadable`), a
 * covered file that lies outside the project and the home (`eva.trust.outside`), a path outside
 * the allowed roots (`eva.path.not-allowed`, Eva's own refusal). Each says it in the words of the
 * unit's `notCovered` (what `check` and the review say), at the manifest's first line, and
 * changes nothing Eva decides. Denials are injected: tests run as root in CI.
 */
describe('Eva units Skillgate cannot hash: the diagnostic that says why', () => {
  const fsPatch = fsPatcher();
  let f: EvaFixture;
  beforeEach(() => (f = new EvaFixture().p0()));
  afterEach(() => f.remove());

  const LIMIT = `skill content exceeds the review limit (${MAX_HASHED_FILES} files / ${MAX_HASHED_BYTES} bytes)`;
  const DENIED = 'Permission denied (os error 13)';
  const TRUST_CODES = ['eva.trust.symlink', 'eva.trust.limit', 'eva.trust.unreadable', 'eva.trust.outside'];
  const withSkillPath = (p: string) => A0.replace('  id: review\n', `  id: review\n  path: ${p}\n`);
  /** The adapter of the helper's reproduction: skill.path names a SKILL.md, so its whole folder is covered. */
  const reviewSkill = () => {
    f.adapter(withSkillPath('config/skills/review/SKILL.md'));
    f.write('ws/config/skills/review/SKILL.md', '---\nname: review\n---\n');
  };
  /** Every trust diagnostic, with where it is, and the unit's state: what Eva decides, no hashes, and why. */
  const said = (r: ReturnType<EvaFixture['index']>, rel: string) => {
    const item = r.item(rel);
    return {
      diagnostics: r
        .diagnostics()
        .filter((d) => TRUST_CODES.includes(d.code))
        .map((d) => [d.code, d.severity, d.message, r.rel(d.file), d.range.start.line, d.place]),
      unit: [item.decision, item.reasons, item.contentHash, item.detail.notCovered ?? []],
    };
  };
  const manifest = 'config/adapters/review.yaml';
  const registered = ['registered', ['loaded_unreviewed', 'not_reviewed'], null] as const;

  it('a skill folder holding a file past 64 MiB: eva.trust.limit in check’s words; Eva still registers it', () => {
    reviewSkill();
    const big = f.write('ws/config/skills/review/big.bin', '');
    fs.truncateSync(big, 70_000_000);
    assert.deepEqual(said(f.index(), 'adapters/review.yaml'), {
      diagnostics: [['eva.trust.limit', 'error', `${LIMIT}; it cannot be reviewed`, manifest, 0, undefined]],
      unit: [...registered, [LIMIT]],
    });
  });

  it('a skill folder of more than 4096 files: eva.trust.limit, the same sentence', () => {
    reviewSkill();
    for (let i = 0; i < MAX_HASHED_FILES; i++) f.write(`ws/config/skills/review/refs/${i}.md`, '');
    assert.deepEqual(said(f.index(), 'adapters/review.yaml'), {
      diagnostics: [['eva.trust.limit', 'error', `${LIMIT}; it cannot be reviewed`, manifest, 0, undefined]],
      unit: [...registered, [LIMIT]],
    });
  });

  it('a Lua script past the limit: eva.trust.limit on the capability manifest', () => {
    f.l0(L0);
    fs.truncateSync(f.path('ws/config/skills/lint.lua'), MAX_HASHED_BYTES + 1);
    assert.deepEqual(said(f.index(), 'capabilities/lint.yaml'), {
      diagnostics: [
        ['eva.trust.limit', 'error', `${LIMIT}; it cannot be reviewed`, 'config/capabilities/lint.yaml', 0, undefined],
      ],
      unit: [...registered, [LIMIT]],
    });
  });

  it('a covered file this user may not read (a skill folder it may list, not search): eva.trust.unreadable, in Rust’s words', () => {
    reviewSkill();
    denyDirectory(fsPatch, f.path('ws/config/skills/review'), 'mode600');
    const why = `failed to read covered file config/skills/review/SKILL.md: ${DENIED}`;
    assert.deepEqual(said(f.index(), 'adapters/review.yaml'), {
      diagnostics: [['eva.trust.unreadable', 'error', `${why}; it cannot be reviewed`, manifest, 0, undefined]],
      unit: [...registered, [why]],
    });
  });

  it('a covered file whose read fails once open (EIO): eva.trust.unreadable', () => {
    reviewSkill();
    f.write('ws/config/skills/review/notes.md', 'notes\n');
    failReadsOf(fsPatch, f.path('ws/config/skills/review/notes.md'));
    const why = 'failed to read covered file config/skills/review/notes.md: Input/output error (os error 5)';
    assert.deepEqual(said(f.index(), 'adapters/review.yaml'), {
      diagnostics: [['eva.trust.unreadable', 'error', `${why}; it cannot be reviewed`, manifest, 0, undefined]],
      unit: [...registered, [why]],
    });
  });

  it('a skill folder it may not list: eva.trust.unreadable', () => {
    reviewSkill();
    denyDirectory(fsPatch, f.path('ws/config/skills/review'));
    const why = `failed to read skill directory: ${DENIED}`;
    assert.deepEqual(said(f.index(), 'adapters/review.yaml'), {
      diagnostics: [['eva.trust.unreadable', 'error', `${why}; it cannot be reviewed`, manifest, 0, undefined]],
      unit: [...registered, [why]],
    });
  });

  it('a Lua script in a folder it may not search: eva.trust.unreadable, and still no script-missing', () => {
    f.l0(L0);
    denyDirectory(fsPatch, f.path('ws/config/skills'));
    const r = f.index();
    const why = `failed to read covered file config/skills/lint.lua: ${DENIED}`;
    assert.deepEqual(said(r, 'capabilities/lint.yaml'), {
      diagnostics: [
        [
          'eva.trust.unreadable',
          'error',
          `${why}; it cannot be reviewed`,
          'config/capabilities/lint.yaml',
          0,
          undefined,
        ],
      ],
      unit: [...registered, [why]],
    });
    assert.deepEqual(r.diagnostics('eva.lua.script-missing'), []);
  });

  describe('a covered file outside the project and the home (~/.codex/skills leads elsewhere)', () => {
    /** `~/.codex/skills` a link to a folder outside both: Eva allows a path under its real path (eva.md §3.5). */
    const linkedUserSkills = () => {
      f.write('data/skills/x/SKILL.md', 's\n');
      f.write('data/skills/x/notes.md', 'n\n');
      fs.mkdirSync(f.path('home/.codex'), { recursive: true });
      fs.symlinkSync(f.path('data/skills'), f.path('home/.codex/skills'));
    };
    const OUTSIDE = 'a covered file lies outside the project and the home directory';

    it('a skill folder there: eva.trust.outside', () => {
      linkedUserSkills();
      f.adapter(withSkillPath(f.path('data/skills/x/SKILL.md')));
      assert.deepEqual(said(f.index(), 'adapters/review.yaml'), {
        diagnostics: [['eva.trust.outside', 'error', `${OUTSIDE}; it cannot be reviewed`, manifest, 0, undefined]],
        unit: [...registered, [OUTSIDE]],
      });
    });

    it('a single file there is not left out of the content hash: no hashes, eva.trust.outside', () => {
      linkedUserSkills();
      f.adapter(withSkillPath(f.path('data/skills/x/notes.md')));
      const r = f.index();
      assert.deepEqual(r.item('adapters/review.yaml').reasons, ['loaded_unreviewed', 'not_reviewed']);
      assert.deepEqual(said(r, 'adapters/review.yaml'), {
        diagnostics: [['eva.trust.outside', 'error', `${OUTSIDE}; it cannot be reviewed`, manifest, 0, undefined]],
        unit: [...registered, [OUTSIDE]],
      });
    });
  });

  it('a path outside the allowed roots is said once, by Eva’s own eva.path.not-allowed, with no trust diagnostic', () => {
    f.adapter(withSkillPath('../out.md'));
    const r = f.index();
    assert.deepEqual(said(r, 'adapters/review.yaml'), {
      diagnostics: [],
      unit: [
        'rejected',
        ['path_not_allowed', 'not_reviewed'],
        null,
        [`covered path is outside the allowed roots: ${f.path('out.md')}`],
      ],
    });
    assert.deepEqual(
      r.diagnostics('eva.path.not-allowed').map((d) => d.message),
      [`path is outside the allowed roots: ${f.path('out.md')}`],
    );
  });

  it('a link in the skill folder is still eva.trust.symlink alone', () => {
    reviewSkill();
    fs.symlinkSync(f.path('ws/config/eva.yaml'), f.path('ws/config/skills/review/linked.yaml'));
    const link = 'a file covered by this skill is a symbolic link; it cannot be reviewed';
    assert.deepEqual(said(f.index(), 'adapters/review.yaml'), {
      diagnostics: [['eva.trust.symlink', 'error', link, manifest, 0, undefined]],
      unit: [...registered, [link]],
    });
  });

  describe('through the CLI and the Problems panel', () => {
    const cli = async (...args: string[]) => {
      let out = '';
      const code = await run([...args, '--eva-home', f.home, '--codewhale-home', f.mkdir('cw')], {
        out: (t) => (out += t),
        err: () => undefined,
        env: { SKILLGATE_STATE_DIR: f.path('state') },
        cwd: f.ws,
      });
      return { code, out };
    };
    const pastTheLimit = () => {
      reviewSkill();
      fs.truncateSync(f.write('ws/config/skills/review/big.bin', ''), 70_000_000);
    };

    it('validate --json lists eva.trust.limit and fails; check fails on the unit, as before', async () => {
      pastTheLimit();
      const validate = await cli('validate', '--json');
      const json = JSON.parse(validate.out) as { diagnostics: Diagnostic[] };
      assert.deepEqual(
        json.diagnostics
          .filter((d) => TRUST_CODES.includes(d.code))
          .map((d) => [d.code, d.severity, d.message, d.file, d.range.start]),
        [['eva.trust.limit', 'error', `${LIMIT}; it cannot be reviewed`, manifest, { line: 0, character: 0 }]],
      );
      assert.equal(validate.code, 1);
      assert.equal((await cli('check')).code, 1);
    });

    it('the Problems panel shows it at the manifest, an error linked to its documentation', async () => {
      pastTheLimit();
      const snapshot = new Indexer({ workspaces: [f.ws], codewhaleHome: null, evaHome: f.home }).indexAll();
      const shown = await problemsOf(snapshot);
      assert.deepEqual(
        (shown.get(f.path('ws/config/adapters/review.yaml')) ?? [])
          .filter((d) => TRUST_CODES.includes(d.code.value))
          .map((d) => [d.code.value, d.code.target, d.severity, d.message, d.range]),
        [['eva.trust.limit', 'doc#eva.trust.limit', 0, `${LIMIT}; it cannot be reviewed`, [0, 0, 0, 0]]],
      );
    });
  });
});

/** What the Problems panel (problems.ts) shows for a snapshot: per file, the editor diagnostics it set. */
interface ShownDiagnostic {
  readonly code: { value: string; target: string };
  readonly severity: number;
  readonly message: string;
  readonly range: number[];
}
async function problemsOf(snapshot: Snapshot): Promise<Map<string, ShownDiagnostic[]>> {
  const shown = new Map<string, ShownDiagnostic[]>();
  // The diagnostic collection problems.ts creates, read back as the Problems panel would show it.
  Object.assign(vscodeStandIn.api, {
    languages: {
      createDiagnosticCollection: () => ({
        set: (entries: [{ fsPath: string }, ShownRaw[] | undefined][]) => {
          for (const [uri, list] of entries)
            if (list)
              shown.set(
                uri.fsPath,
                list.map((d) => ({
                  code: d.code,
                  severity: d.severity,
                  message: d.message,
                  range: [d.range.startLine, d.range.startCharacter, d.range.endLine, d.range.endCharacter],
                })),
              );
            else shown.delete(uri.fsPath);
        },
        dispose: () => undefined,
      }),
    },
  });
  const { Problems } = loadWithVscode(
    () => require('../../src/extension/problems/problems') as typeof import('../../src/extension/problems/problems'),
  );
  const docs = { link: (code: string) => `doc#${code}` } as unknown as ConstructorParameters<typeof Problems>[0];
  const problems = new Problems(docs);
  await problems.update(snapshot);
  problems.dispose();
  return shown;
}
interface ShownRaw {
  readonly code: { value: string; target: string };
  readonly severity: number;
  readonly message: string;
  readonly range: { startLine: number; startCharacter: number; endLine: number; endCharacter: number };
}
