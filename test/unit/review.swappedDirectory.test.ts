import { strict as assert } from 'node:assert';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hashListed, listedSeams } from '../../src/core/hashing/listedFiles';
import { diffAgainstReceipt, type ReviewDiff } from '../../src/core/trust/reviewDiff';
import { review, type ReviewReport } from '../../src/core/trust/reviewBundle';
import { reviewViewModel } from '../../src/core/review/reviewViewModel';
import { beneathWorks } from '../../src/core/fs/openBeneath';
import type { Receipt } from '../../src/core/trust/stateSchema';
import type { BundleFile } from '../../src/core/model';
import { byName, Fixture } from './helpers/fixture';
import { trustWorkspace } from './helpers/trustWorkspace';

/**
 * What the review shows a person, read while a process in the repository swaps a directory
 * of the bundle for a symbolic link (`skills -> /tmp/decoy`) and back: the hash is taken
 * beneath held directories (hashing/treeRead.ts, fs/openBeneath.ts), but the text the
 * review shows beside it (a diff's current side, a skill's or command's text in the panel)
 * and the files of a unit that does not load were read again by their whole paths, which
 * follow a directory on the way that has become a link, and showed bytes from outside the
 * bundle. They are read beneath the bundle too (src/core/trust/unitFileRead.ts): such a
 * file shows as a file that is itself a link does today, never with the outside bytes.
 */
(beneathWorks() ? describe : describe.skip)(
  'the review reads beneath the bundle: a directory swapped for a link (Linux)',
  () => {
    const DECOY = 'decoy text the bundle never held\n';
    const sha = (bytes: string) => crypto.createHash('sha256').update(bytes).digest('hex');
    const fileOf = (p: string, bytes: string): BundleFile => ({
      path: p,
      size: Buffer.byteLength(bytes),
      sha256: sha(bytes),
      executable: false,
    });
    const receiptOf = (files: BundleFile[]): Receipt => ({
      contentHash: 'a'.repeat(64),
      capabilityHash: 'b'.repeat(64),
      capabilities: {},
      files: Object.fromEntries(files.map(({ path: p, ...rest }) => [p, rest])) as Receipt['files'],
      reviewedAt: '2026-12-06T09:00:00.000Z',
    });

    describe('the files of a unit that does not load (hashing/listedFiles.ts)', () => {
      let f: Fixture;
      beforeEach(() => {
        f = new Fixture();
        f.write('root/skills/a.md', 'inside\n');
        f.write('outside/a.md', DECOY);
      });
      afterEach(() => {
        delete listedSeams.checked;
        f.remove();
      });

      it('leaves out a file whose directory became a link after its way was checked, as one behind a link found by the check', () => {
        listedSeams.checked = (abs) => {
          if (abs !== f.path('root/skills/a.md')) return;
          fs.renameSync(f.path('root/skills'), f.path('kept'));
          fs.symlinkSync(f.path('outside'), f.path('root/skills'));
        };
        const swapped = hashListed(f.path('root'), ['skills/a.md']);
        assert.deepEqual(
          swapped.filter((x) => x.sha256 === sha(DECOY)),
          [],
        );
        // The same link there before the check: the file is absent (the existing rule).
        delete listedSeams.checked;
        assert.deepEqual(hashListed(f.path('root'), ['skills/a.md']), []);
        assert.deepEqual(swapped, []);
      });

      it('hashes the same where nothing races', () => {
        const checked: string[] = [];
        listedSeams.checked = (abs) => checked.push(abs);
        assert.deepEqual(hashListed(f.path('root'), ['skills/a.md', 'gone.md']), [fileOf('skills/a.md', 'inside\n')]);
        // Each listed name whose way is all directories is read; a missing one then reads as absent.
        assert.deepEqual(checked, [f.path('root/gone.md'), f.path('root/skills/a.md')]);
      });
    });

    describe("a diff's current side (trust/reviewDiff.ts)", () => {
      let f: Fixture;
      const OLD = 'reviewed line\n';
      const NEW = 'changed line\n';
      beforeEach(() => (f = new Fixture()));
      afterEach(() => f.remove());

      /** The one file change of `rel`, reviewed as OLD and hashed now as NEW under `now`. */
      const diffOf = (rel: string, now = 'now', manifest?: string): ReviewDiff['files'][number] => {
        f.write(`copy/${rel}`, OLD);
        const d = diffAgainstReceipt(
          receiptOf([fileOf(rel, OLD)]),
          {},
          [fileOf(rel, NEW)],
          f.path(now),
          f.path('copy'),
          [],
          manifest === undefined ? undefined : f.path(now, manifest),
        );
        assert.equal(d.files.length, 1);
        return d.files[0] as ReviewDiff['files'][number];
      };
      /** What the diff says of a file that is itself a link now (a file swapped for one after it was hashed). */
      const linkedFileNote = (rel: string): string | undefined => {
        f.write(`linked-target/${path.basename(rel)}`, NEW);
        f.symlink(f.path(`linked-target/${path.basename(rel)}`), `linked/${rel}`);
        return diffOf(rel, 'linked').note;
      };

      it('shows no text read through a directory swapped for a link after the hash, only what a linked file shows', () => {
        f.write('now/skills/a/SKILL.md', NEW);
        // The decoy holds the very bytes hashed: a read through the link would show them as the bundle's.
        f.write('decoy/a/SKILL.md', NEW);
        fs.rmSync(f.path('now/skills'), { recursive: true });
        f.symlink(f.path('decoy'), 'now/skills');
        const change = diffOf('skills/a/SKILL.md');
        assert.equal(change.unifiedDiff, undefined, 'a diff read through the link');
        assert.equal(change.note, linkedFileNote('skills/a/SKILL.md'));
        assert.equal(change.note, 'unreadable');
      });

      it('never reads the other bytes of a decoy either (no "changed while it was read")', () => {
        f.write('now/skills/a/SKILL.md', NEW);
        f.write('decoy/a/SKILL.md', DECOY);
        fs.rmSync(f.path('now/skills'), { recursive: true });
        f.symlink(f.path('decoy'), 'now/skills');
        assert.equal(diffOf('skills/a/SKILL.md').note, 'unreadable');
      });

      it("reads a Rivumi plugin's files through its linked `.rivumi` as before, refusing a directory below it swapped for a link", () => {
        // rivumi.md §2 "Links": `.rivumi` itself is not checked; if it is a link, it is followed (and the hash reads beneath `.rivumi/plugins`).
        f.write('now/real-rivumi/plugins/p.json', '{}');
        f.write('now/real-rivumi/plugins/p/skills/s.md', NEW);
        f.symlink('real-rivumi', 'now/.rivumi');
        const plain = diffOf('.rivumi/plugins/p/skills/s.md', 'now', '.rivumi/plugins/p.json');
        assert.equal(plain.note, undefined);
        assert.match(plain.unifiedDiff ?? '', /^-reviewed line\n\+changed line$/m);
        f.write('decoy/skills/s.md', NEW);
        fs.rmSync(f.path('now/real-rivumi/plugins/p'), { recursive: true });
        f.symlink(f.path('decoy'), 'now/real-rivumi/plugins/p');
        assert.equal(diffOf('.rivumi/plugins/p/skills/s.md', 'now', '.rivumi/plugins/p.json').note, 'unreadable');
      });
    });

    describe("the panel's skill and command text (review/reviewViewModel.ts)", () => {
      const w = trustWorkspace();
      const BUNDLE = 'ws/.codewhale/plugins/tools';
      const SKILL = '---\nname: a\ndescription: d\n---\nthe skill body\n';
      const COMMAND = 'the command body\n';
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
        w.f.write(`${BUNDLE}/skills/a/SKILL.md`, SKILL);
        w.f.write(`${BUNDLE}/commands/go.md`, COMMAND);
        w.f.write('decoy/skills/a/SKILL.md', `---\nname: a\ndescription: d\n---\n${DECOY}`);
        w.f.write('decoy/commands/go.md', DECOY);
      });
      const reviewNow = (): ReviewReport => {
        const r = review(byName(w.snapshot(), 'tools'), w.ctx);
        assert.ok(r.ok, r.ok ? '' : r.message);
        return r.value;
      };
      const texts = (r: ReviewReport) => {
        const m = reviewViewModel(r, w.snapshot(), false);
        return {
          skills: m.capabilities.skills.map((s) => s.body?.text ?? null),
          commands: m.capabilities.commands.map((c) => c.body?.text ?? null),
        };
      };
      /** Swaps the bundle's `dir` for a link to the decoy's, as a process in the repository could once the review read the bundle. */
      const swap = (dir: string) => {
        fs.renameSync(w.f.path(BUNDLE, dir), w.f.path(`kept-${dir}`));
        fs.symlinkSync(w.f.path('decoy', dir), w.f.path(BUNDLE, dir));
      };

      it('shows the text of the files the review hashed where nothing races', () => {
        assert.deepEqual(texts(reviewNow()), { skills: [SKILL], commands: [COMMAND] });
      });

      it('shows no text from a directory swapped for a link after the review read the bundle, as for a file that is a link', () => {
        const r = reviewNow();
        swap('skills');
        swap('commands');
        const shown = texts(r);
        assert.ok(!JSON.stringify(shown).includes('decoy text'), JSON.stringify(shown));
        assert.deepEqual(shown, { skills: [null], commands: [null] });
      });

      it("shows a Rivumi plugin's skill through its linked `.rivumi` as before, none through a directory swapped below it", () => {
        // rivumi.md §2 "Links": `.rivumi` itself is followed; the hash reads the skill beneath `.rivumi/plugins`.
        const RIVUMI_SKILL = '---\nname: s\ndescription: d\n---\nthe rivumi skill\n';
        w.f.write(
          'ws/real-rivumi/plugins/pack.json',
          JSON.stringify({ name: 'pack', description: 'd', skills: [{ path: 'pack/skills/s.md' }] }),
        );
        w.f.write('ws/real-rivumi/plugins/pack/skills/s.md', RIVUMI_SKILL);
        w.f.symlink('real-rivumi', 'ws/.rivumi');
        w.f.write('decoy/pack/skills/s.md', `---\nname: s\ndescription: d\n---\n${DECOY}`);
        const r = review(byName(w.snapshot(), 'pack'), w.ctx);
        assert.ok(r.ok, r.ok ? '' : r.message);
        assert.ok(
          r.value.contentHash !== null && r.value.files?.some((x) => x.path === '.rivumi/plugins/pack/skills/s.md'),
        );
        assert.deepEqual(texts(r.value).skills, [RIVUMI_SKILL]);
        fs.renameSync(w.f.path('ws/real-rivumi/plugins/pack'), w.f.path('kept-pack'));
        fs.symlinkSync(w.f.path('decoy/pack'), w.f.path('ws/real-rivumi/plugins/pack'));
        assert.deepEqual(texts(r.value).skills, [null]);
      });
    });
  },
);
