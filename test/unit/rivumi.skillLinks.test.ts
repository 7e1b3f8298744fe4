import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { review } from '../../src/core/trust/reviewBundle';
import { trust } from '../../src/core/trust/grantTrust';
import { byName } from './helpers/fixture';
import { trustWorkspace } from './helpers/trustWorkspace';
import type { Snapshot } from '../../src/core/index/snapshot';
import type { Diagnostic } from '../../src/core/model';

/**
 * trust.md "Hashing" and "Trust units": a plugin's trust covers every skill file it
 * references, reached without a symbolic link. Rivumi follows a linked directory on the
 * way (rivumi.md §5.3), so the skill loads, but trust cannot pin what it loads: the path
 * is an error in the manifest, listed as not covered, and trust is refused.
 */
describe('Rivumi plugin skill files reached through a symbolic link: loaded by Rivumi, refused by trust', () => {
  const w = trustWorkspace();

  const manifest = (skillPath: string) =>
    w.f.write('ws/.rivumi/plugins/pk.json', JSON.stringify({ name: 'pk', skills: [{ path: skillPath }] }));
  const linkErrors = (s: Snapshot): Diagnostic[] =>
    s.diagnostics.filter((d) => d.code === 'rivumi.plugin.skill-uncovered');

  /** The error at the skill path, the review listing it, and trust refused with nothing written. */
  async function assertRefused(skillPath: string, file: string, link: string): Promise<void> {
    const s = w.snapshot();
    const errors = linkErrors(s);
    assert.equal(errors.length, 1, JSON.stringify(s.diagnostics.map((d) => d.message)));
    const d = errors[0] as Diagnostic;
    const message = `plugin skill file '${file}' is reached through the symbolic link '${link}' (Rivumi follows it, and trust cannot pin where it points): it cannot be covered by trust`;
    assert.deepEqual([d.severity, d.message], ['error', message]);
    const text = fs.readFileSync(w.f.path('ws/.rivumi/plugins/pk.json'), 'utf8');
    assert.deepEqual(
      [d.file, d.range.start.line, d.range.start.character],
      [w.f.path('ws/.rivumi/plugins/pk.json'), 0, text.indexOf(`"${skillPath}"`)],
      'the diagnostic sits at the skill path in the manifest',
    );
    // The decisions stay the truth about Rivumi: it follows the link and loads the skill.
    const plugin = byName(s, 'pk');
    const skill = byName(s, 'pk.x');
    assert.deepEqual(
      [plugin.decision, skill.decision, skill.path],
      ['registered', 'registered', w.f.path(`ws/${file}`)],
    );
    const r = review(plugin, w.ctx);
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.deepEqual(r.value.notCovered, [message]);
    assert.equal(r.value.trustable, false);
    assert.ok(!(r.value.files ?? []).some((x) => x.path === file), 'the linked file is never listed as covered');
    const t = await trust(plugin, r.value.reviewToken ?? '', w.ctx);
    assert.ok(!t.ok);
    assert.match(t.message, /^Cannot trust pk: .*reached through the symbolic link/);
    assert.ok(!fs.existsSync(w.store.file), 'nothing was written');
  }

  it('refuses a skill reached through a linked directory in .rivumi/plugins (the auditor repro)', async () => {
    w.f.write('ws/docs/x.md', 'any content');
    w.f.symlink('../../docs', 'ws/.rivumi/plugins/d');
    manifest('d/x.md');
    await assertRefused('d/x.md', '.rivumi/plugins/d/x.md', '.rivumi/plugins/d');
  });

  it('refuses a skill reached through a linked directory deeper under .rivumi/plugins', async () => {
    w.f.write('ws/docs/x.md', 'any content');
    w.f.mkdir('ws/.rivumi/plugins/sub');
    w.f.symlink('../../../docs', 'ws/.rivumi/plugins/sub/d');
    manifest('sub/d/x.md');
    await assertRefused('sub/d/x.md', '.rivumi/plugins/sub/d/x.md', '.rivumi/plugins/sub/d');
  });

  it('binds the link into the content hash: replacing it with the same files changes the token', () => {
    w.f.write('ws/docs/x.md', 'any content');
    w.f.symlink('../../docs', 'ws/.rivumi/plugins/d');
    manifest('d/x.md');
    const linked = byName(w.snapshot(), 'pk').reviewToken;
    fs.unlinkSync(w.f.path('ws/.rivumi/plugins/d'));
    w.f.write('ws/.rivumi/plugins/d/x.md', 'any content');
    assert.notEqual(byName(w.snapshot(), 'pk').reviewToken, linked);
  });

  it('still trusts a skill in a real subdirectory, covering its file', async () => {
    w.f.write('ws/.rivumi/plugins/sub/d/x.md', 'any content');
    manifest('sub/d/x.md');
    const s = w.snapshot();
    assert.deepEqual(linkErrors(s), []);
    const plugin = byName(s, 'pk');
    const r = review(plugin, w.ctx);
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.deepEqual(r.value.notCovered, []);
    assert.deepEqual(
      (r.value.files ?? []).map((x) => x.path),
      ['.rivumi/plugins/pk.json', '.rivumi/plugins/sub/d/x.md'],
    );
    const t = await trust(plugin, r.value.reviewToken ?? '', w.ctx);
    assert.ok(t.ok, t.ok ? '' : t.message);
  });

  it('leaves a linked .rivumi root to its warning: the plugin stays trustable', async () => {
    // Inside the repository: Rivumi checks a skill's containment against the resolved root.
    w.f.write('ws/real/plugins/x.md', 'any content');
    w.f.write('ws/real/plugins/pk.json', JSON.stringify({ name: 'pk', skills: [{ path: 'x.md' }] }));
    w.f.symlink('real', 'ws/.rivumi');
    const s = w.snapshot();
    assert.deepEqual(
      s.diagnostics.map((d) => d.code),
      ['rivumi.root-symlink'],
    );
    const r = review(byName(s, 'pk'), w.ctx);
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.deepEqual([r.value.notCovered, r.value.trustable], [[], true]);
    assert.ok((r.value.files ?? []).some((x) => x.path === '.rivumi/plugins/x.md'));
  });
});
