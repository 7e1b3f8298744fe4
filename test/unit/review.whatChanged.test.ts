import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { review } from '../../src/core/trust/reviewBundle';
import { trust } from '../../src/core/trust/grantTrust';
import { capabilityChanges } from '../../src/core/trust/capabilityChanges';
import { reviewText } from '../../src/core/review/reviewText';
import { reviewViewModel } from '../../src/core/review/reviewViewModel';
import { byName } from './helpers/fixture';
import { A0, EvaFixture } from './helpers/evaFixture';
import { trustWorkspace } from './helpers/trustWorkspace';
import type { ReviewReport } from '../../src/core/trust/reviewBundle';

/**
 * "What changed since your last review" (trust.md: "the review then shows exactly what
 * changed"): every change that moves a hash says what it is, in the text review and in
 * the panel's model alike, and nothing that did not change is shown as changed.
 */
describe('what changed since the last review says exactly what changed', () => {
  describe('a Codewhale bundle', () => {
    const w = trustWorkspace();
    const BUNDLE = 'ws/.codewhale/plugins/demo';
    const snap = () => w.snapshot({ workspaces: [w.f.path('ws')] });
    const reviewNow = (): ReviewReport => {
      const r = review(byName(snap(), 'demo'), w.ctx);
      assert.ok(r.ok, r.ok ? '' : r.message);
      return r.value;
    };
    const trustNow = async () => {
      const t = await trust(byName(snap(), 'demo'), reviewNow().reviewToken as string, w.ctx);
      assert.ok(t.ok, t.ok ? '' : t.message);
    };
    /** The file changes as the text review and the panel show them: one line each, with the note. */
    const changes = () => {
      const r = reviewNow();
      assert.ok(r.diff, `no diff (trust: ${r.status})`);
      const text = reviewText(r, [w.f.path('ws')], false);
      const files = text.slice(text.indexOf('  Files:\n'), text.indexOf('\nCapabilities:'));
      const panel = reviewViewModel(r, snap(), false).changes?.files.map((f) => [f.change, f.path.text, f.note]);
      return { diff: r.diff.files, text: files, panel };
    };

    beforeEach(() => {
      w.f.write(
        `${BUNDLE}/plugin.toml`,
        'schema_version = 1\n[plugin]\nname = "demo"\nversion = "1.0.0"\n[skills]\npath = "skills"\n',
      );
      w.f.write(`${BUNDLE}/skills/a/SKILL.md`, '---\nname: a\ndescription: d\n---\nbody\n');
      w.f.write(`${BUNDLE}/run.sh`, 'echo one\n');
      w.f.write(`${BUNDLE}/blob.bin`, Buffer.from([0, 1, 2, 0]));
    });

    it('names an empty directory added after the review (it is part of the content hash)', async () => {
      await trustNow();
      w.f.mkdir(`${BUNDLE}/empty/deeper`);
      assert.equal(reviewNow().status, 'content-changed');
      const c = changes();
      assert.deepEqual(
        c.diff.map((f) => [f.change, f.path]),
        [['added', 'empty/deeper/']],
      );
      assert.match(c.text, /A empty\/deeper\/ {2}\(new empty directory\)/);
      assert.deepEqual(c.panel, [['added', 'empty/deeper/', 'new empty directory']]);
    });

    it('names an empty directory removed since the review, and a file that became one', async () => {
      w.f.mkdir(`${BUNDLE}/empty`);
      await trustNow();
      fs.rmdirSync(w.f.path(`${BUNDLE}/empty`));
      fs.rmSync(w.f.path(`${BUNDLE}/run.sh`));
      w.f.mkdir(`${BUNDLE}/run.sh`);
      assert.deepEqual(
        changes().diff.map((f) => [f.change, f.path, f.note ?? null]),
        [
          ['removed', 'empty/', 'empty directory removed'],
          ['removed', 'run.sh', null],
          ['added', 'run.sh/', 'new empty directory'],
        ],
      );
    });

    it('says when the executable bit changed together with the content, beside the text diff', async () => {
      await trustNow();
      w.f.write(`${BUNDLE}/run.sh`, 'echo two\n', 0o755);
      const c = changes();
      assert.equal(c.diff[0]?.note, 'executable bit changed (- → x)');
      assert.match(c.diff[0]?.unifiedDiff ?? '', /\+echo two/);
      assert.match(c.text, /M run\.sh {2}\(executable bit changed \(- → x\)\)\n.*\n.*\n.*\n.*-echo one/);
      assert.deepEqual(c.panel, [['modified', 'run.sh', 'executable bit changed (- → x)']]);
    });

    it('says only the executable bit changed for a binary file whose bytes did not', async () => {
      await trustNow();
      fs.chmodSync(w.f.path(`${BUNDLE}/blob.bin`), 0o755);
      assert.deepEqual(
        changes().diff.map((f) => [f.path, f.note]),
        [['blob.bin', 'only the executable bit changed (- → x)']],
      );
    });

    it('says a binary file changed and its executable bit with it', async () => {
      await trustNow();
      w.f.write(`${BUNDLE}/blob.bin`, Buffer.from([0, 9]), 0o755);
      assert.deepEqual(
        changes().diff.map((f) => [f.path, f.note]),
        [['blob.bin', 'binary file: no text diff; executable bit changed (- → x)']],
      );
    });

    it('shows in the panel, as in the text, that only the last newline went', async () => {
      await trustNow();
      w.f.write(`${BUNDLE}/run.sh`, 'echo one');
      const r = reviewNow();
      const lines = reviewViewModel(r, snap(), false).changes?.files[0]?.diff.map((l) => l.text.text);
      assert.deepEqual(lines, ['@@ -1,1 +1,1 @@', '-echo one', '+echo one', '\\ No newline at end of file']);
      assert.match(reviewText(r, [w.f.path('ws')], false), /\+echo one\n {6}\\ No newline at end of file\n/);
    });

    it('shows no change at all when nothing changed: no diff, trusted', async () => {
      await trustNow();
      const r = reviewNow();
      assert.equal(r.status, 'trusted');
      assert.equal(r.diff, null);
    });
  });

  describe('a capability change too long to show whole', () => {
    const long = 'a'.repeat(300);
    const summary = (before: unknown, after: unknown, field: string) => {
      const [c] = capabilityChanges(
        { mcpServers: { s: { [field]: before } } },
        { mcpServers: { s: { [field]: after } } },
      );
      assert.ok(c);
      return c.summary;
    };
    /** The summary's two sides, which must differ where the values do. */
    const sides = (s: string) => {
      const at = s.indexOf(' → ');
      return [s.slice(0, at), s.slice(at + 3)];
    };

    it('shows where a long URL differs, not two identical cut prefixes', () => {
      const s = summary(`https://h.example/${long}/safe`, `https://h.example/${long}/evil`, 'url');
      const [before, after] = sides(s);
      assert.notEqual(before?.replace(/^.*: url /, ''), after);
      assert.match(s, /safe/);
      assert.match(s, /evil/);
    });

    it('shows where a long argv differs', () => {
      const s = summary(['x', long, '--safe'], ['x', long, '--unsafe'], 'args');
      assert.match(s, /"--safe"/);
      assert.match(s, /"--unsafe"/);
    });
  });

  describe('an Eva adapter whose skill lives in the home', () => {
    const w = trustWorkspace({ fixture: () => new EvaFixture().p0() });
    const snap = () => w.snapshot({ workspaces: [w.f.ws], evaHome: w.f.home });
    const item = () => {
      const found = snap().items.find((i) => i.name === 'review-skill');
      assert.ok(found);
      return found;
    };

    it('does not show the unchanged manifest as removed and added when the home skill goes', async () => {
      w.f.adapter(A0.replace('  id: review\n', '  id: review\n  path: ~/.codex/skills/rev/SKILL.md\n'));
      w.f.write('home/.codex/skills/rev/SKILL.md', '---\nname: rev\ndescription: d\n---\nbody\n');
      w.f.write('home/.codex/skills/rev/helper.sh', 'echo\n');
      const r = review(item(), w.ctx);
      assert.ok(r.ok && r.value.reviewToken !== null);
      const t = await trust(item(), r.value.reviewToken, w.ctx);
      assert.ok(t.ok, t.ok ? '' : t.message);
      fs.rmSync(w.f.path('home/.codex/skills/rev'), { recursive: true });
      const after = review(item(), w.ctx);
      assert.ok(after.ok && after.value.diff);
      assert.deepEqual(
        after.value.diff.files.map((f) => [f.change, f.path]),
        [
          ['removed', 'home/.codex/skills/rev/SKILL.md'],
          ['removed', 'home/.codex/skills/rev/helper.sh'],
        ],
      );
    });
  });
});
