import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beneathWorks } from '../../src/core/fs/openBeneath';
import { readBundleSource } from '../../src/core/trust/bundleSource';
import { review, type ReviewReport } from '../../src/core/trust/reviewBundle';
import { diffAgainstReceipt, type FileChange } from '../../src/core/trust/reviewDiff';
import { reviewText } from '../../src/core/review/reviewText';
import { reviewViewModel } from '../../src/core/review/reviewViewModel';
import { A0, EvaFixture } from './helpers/evaFixture';
import { LINUX_HOST } from './helpers/fixture';
import { trustWorkspace } from './helpers/trustWorkspace';

/**
 * The review of an Eva skill adapter whose skill folder is itself a link
 * (`config/skills/review -> ../real/review`). Eva follows it (eva.md §8 Q7: "Follow directory
 * links for listing"), and the unit's hash reads the folder's files beneath the folder
 * (eva/hashes.ts `readCovered`). The review read them beneath the unit's root instead
 * (trust/unitFileRead.ts), where the folder is a link and refused: the diff after a change
 * to `scripts/run.sh` said `unreadable` and showed nothing of the file Eva loads. Every review
 * reader now reads a unit's file as its hash read it (unitFileRead.ts `readFromUnit`), and
 * a directory inside the folder swapped for a link after the hash still shows nothing.
 */
(beneathWorks() ? describe : describe.skip)('the review of an Eva skill folder that is a link (Linux)', () => {
  const NAME = 'review-skill (skill review)';
  const SKILL = '---\nname: review\ndescription: the review skill\n---\nreviewed body\n';
  const SKILL_NOW = '---\nname: review\ndescription: the review skill\n---\nchanged body\n';
  const RUN = 'echo one\n';
  const RUN_NOW = 'echo two\n';
  const ADAPTER = A0.replace('  id: review\n', '  id: review\n  path: config/skills/review/SKILL.md\n');
  const FOLDER = 'config/skills/review';

  /** The folder's files on disk: under `config/skills/review` itself, or under `config/real/review` with the folder a link to it. */
  const layouts = {
    'a plain folder': { real: `ws/${FOLDER}`, link: false },
    'a folder that is a link': { real: 'ws/config/real/review', link: true },
  } as const;

  for (const [layout, { real, link }] of Object.entries(layouts))
    describe(layout, () => {
      const w = trustWorkspace({ fixture: () => new EvaFixture().p0() });
      beforeEach(() => {
        w.f.write(`${real}/SKILL.md`, SKILL);
        w.f.write(`${real}/scripts/run.sh`, RUN);
        if (link) w.f.symlink(w.f.path('ws/config/real/review'), `ws/${FOLDER}`);
        w.f.adapter(ADAPTER);
      });
      const reviewNow = (): ReviewReport => {
        const r = review(w.item(NAME), w.ctx);
        assert.ok(r.ok, r.ok ? '' : r.message);
        return r.value;
      };
      /** Trusted as it is, then both files changed: what the review says of each. */
      const changedSinceTrust = async (): Promise<ReviewReport> => {
        await w.trustNow(NAME);
        fs.writeFileSync(w.f.path(real, 'SKILL.md'), SKILL_NOW);
        fs.writeFileSync(w.f.path(real, 'scripts/run.sh'), RUN_NOW);
        const r = reviewNow();
        assert.equal(r.status, 'content-changed');
        return r;
      };

      it('lists the folder under its name, as Eva reaches it', () => {
        assert.deepEqual(
          reviewNow().files?.map((f) => f.path),
          ['config/adapters/review.yaml', `${FOLDER}/SKILL.md`, `${FOLDER}/scripts/run.sh`],
        );
      });

      it('diffs the changed SKILL.md and run.sh against the reviewed copy (trust/reviewDiff.ts)', async () => {
        const r = await changedSinceTrust();
        assert.deepEqual(
          r.diff?.files.map((f) => [f.path, f.note ?? null, diffLines(f)]),
          [
            [`${FOLDER}/SKILL.md`, null, ['-reviewed body', '+changed body']],
            [`${FOLDER}/scripts/run.sh`, null, ['-echo one', '+echo two']],
          ],
        );
      });

      it("shows the changed lines in the panel's model (review/reviewViewModel.ts)", async () => {
        const m = reviewViewModel(await changedSinceTrust(), w.snapshot(), false);
        assert.deepEqual(
          m.changes?.files.map((f) => [
            f.path.text,
            f.note,
            f.diff.filter((l) => l.kind === 'add' || l.kind === 'del').map((l) => l.text.text),
          ]),
          [
            [`${FOLDER}/SKILL.md`, null, ['-reviewed body', '+changed body']],
            [`${FOLDER}/scripts/run.sh`, null, ['-echo one', '+echo two']],
          ],
        );
      });

      it('prints the changed lines in the text review (`skillgate review`, review/reviewText.ts)', async () => {
        const text = reviewText(await changedSinceTrust(), [w.f.path('ws')], false);
        const files = text.slice(text.indexOf('  Files:\n'), text.indexOf('\nSkill contract'));
        assert.ok(!files.includes('unreadable'), files);
        for (const line of [
          `    M ${FOLDER}/scripts/run.sh\n`,
          '      -echo one\n',
          '      +echo two\n',
          '      -reviewed body\n',
          '      +changed body\n',
        ])
          assert.ok(files.includes(line), `${JSON.stringify(line)} not in:\n${files}`);
      });
    });

  describe('a directory inside the linked folder swapped for a link after the hash', () => {
    const w = trustWorkspace({ fixture: () => new EvaFixture().p0() });
    const DECOY = 'echo decoy the bundle never held\n';
    beforeEach(() => {
      w.f.write('ws/config/real/review/SKILL.md', SKILL);
      w.f.write('ws/config/real/review/scripts/run.sh', RUN);
      w.f.symlink(w.f.path('ws/config/real/review'), `ws/${FOLDER}`);
      w.f.adapter(ADAPTER);
    });

    /**
     * `run.sh`'s change as the diff shows it, its current side read after the hash: trusted as
     * RUN, changed to RUN_NOW and hashed, then `act` (a swap, as a process in the repository could).
     */
    const runChange = async (act: () => void): Promise<FileChange> => {
      await w.trustNow(NAME);
      fs.writeFileSync(w.f.path('ws/config/real/review/scripts/run.sh'), RUN_NOW);
      const read = readBundleSource(w.item(NAME), LINUX_HOST);
      assert.ok(read.ok, read.ok ? '' : read.message);
      const s = read.source;
      const state = w.store.read();
      assert.ok(state.ok);
      const receipt = state.state.bundles[s.bundleKey]?.trust;
      assert.ok(receipt);
      act();
      const d = diffAgainstReceipt(
        receipt,
        s.capabilities,
        s.files,
        s.root,
        path.join(w.store.reviewedCopiesDir, receipt.contentHash),
        s.directories,
        s.item.path,
        s.readCovered,
      );
      const change = d.files.find((f) => f.path === `${FOLDER}/scripts/run.sh`);
      assert.ok(change, JSON.stringify(d.files));
      return change;
    };
    /** Swaps `scripts` in the folder for a link to `decoy`, which holds `run.sh` with `bytes`. */
    const swapTo = (bytes: string) => () => {
      w.f.write('decoy/run.sh', bytes);
      fs.renameSync(w.f.path('ws/config/real/review/scripts'), w.f.path('kept-scripts'));
      fs.symlinkSync(w.f.path('decoy'), w.f.path('ws/config/real/review/scripts'));
    };

    it('shows the change where nothing races', async () => {
      const change = await runChange(() => undefined);
      assert.equal(change.note, undefined);
      assert.deepEqual(diffLines(change), ['-echo one', '+echo two']);
    });

    it('shows no text through it, though the link leads to the very bytes hashed, as for a file that is a link', async () => {
      const change = await runChange(swapTo(RUN_NOW));
      assert.equal(change.unifiedDiff, undefined, 'a diff read through the link');
      assert.equal(change.note, 'unreadable');
    });

    it('never reads the other bytes of a decoy either', async () => {
      const change = await runChange(swapTo(DECOY));
      assert.ok(!JSON.stringify(change).includes('decoy'), JSON.stringify(change));
      assert.equal(change.note, 'unreadable');
    });
  });
});

/**
 * The panel's skill and command texts (review/reviewViewModel.ts) ask the unit's own reader
 * first, as trusting and the diff do: a ReviewReport carries it from the BundleSource. No Eva
 * unit has a skill or command part today (its parts are its bindings), so a Codewhale review
 * is given a reader that answers from elsewhere and says what it was asked.
 */
describe("the panel reads a hashed file with the unit's own reader first (review/reviewViewModel.ts)", () => {
  const w = trustWorkspace();
  const BUNDLE = 'ws/.codewhale/plugins/tools';
  beforeEach(() => {
    w.f.write(
      `${BUNDLE}/plugin.json`,
      JSON.stringify({
        $schema: 'https://agent-plugins.org/schemas/plugin.json',
        name: 'tools',
        version: '1.0.0',
        extensions: { 'net.codewhale': { skills: { path: 'skills' }, commands: { path: 'commands' } } },
      }),
    );
    w.f.write(`${BUNDLE}/skills/a/SKILL.md`, '---\nname: a\ndescription: d\n---\non disk\n');
    w.f.write(`${BUNDLE}/commands/go.md`, 'on disk\n');
  });

  it('shows what the reader read, asked at the display limit, for the skill and the command', () => {
    const r = review(w.item('tools'), w.ctx);
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.equal(r.value.readCovered, undefined, "Codewhale's files are read beneath the bundle");
    const asked: string[] = [];
    const m = reviewViewModel(
      {
        ...r.value,
        readCovered: (f, limit) => {
          asked.push(`${f.path} ${limit}`);
          return { ok: true, bytes: Buffer.from(`as hashed: ${f.path}\n`), executable: false };
        },
      },
      w.snapshot(),
      false,
    );
    assert.deepEqual(asked.sort(), ['commands/go.md 65536', 'skills/a/SKILL.md 65536']);
    assert.deepEqual(
      [...m.capabilities.skills, ...m.capabilities.commands].map((x) => x.body?.text),
      ['as hashed: skills/a/SKILL.md\n', 'as hashed: commands/go.md\n'],
    );
  });
});

/** The removed and added lines of a change's unified diff. */
function diffLines(f: FileChange): string[] {
  return (f.unifiedDiff ?? '').split('\n').filter((l) => /^[-+](?![-+]{2} )/.test(l));
}
