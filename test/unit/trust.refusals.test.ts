import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { currentToken, notCoveredRefusal, trustShown, type TrustPreview } from '../../src/core/trust/grantTrust';
import { writeW, byName } from './helpers/fixture';
import { trustWorkspace } from './helpers/trustWorkspace';

/**
 * Trust reads the bundle once and says why it refuses as a value (`reason`), so a face
 * never matches message text; `currentToken` gives a unit's token without a review.
 */
describe('trust refusals and the current token', () => {
  it('says how to make a file coverable for each way one is not: a link, or a file this user may not read', () => {
    const said = notCoveredRefusal('pack', [
      "plugin skill file 'x.md' cannot be read ([Errno 13] Permission denied: '/w/x.md')",
    ]);
    assert.match(said, /^Cannot trust pack: it runs or loads what this trust cannot cover \(plugin skill file 'x\.md'/);
    assert.match(
      said,
      /make each one a regular file inside the workspace that you may read, reached without a symbolic link/,
    );
  });

  const w = trustWorkspace();
  const W = 'ws/.codewhale/plugins/example-plugin';
  const item = (name: string) => byName(w.snapshot(), name);

  it("currentToken is the unit's token now, and moves when its content does", () => {
    writeW(w.f);
    const before = currentToken(item('example-plugin'), w.ctx);
    assert.deepEqual(before, { ok: true, token: item('example-plugin').reviewToken });
    w.f.write(`${W}/notes.txt`, 'added');
    const after = currentToken(item('example-plugin'), w.ctx);
    assert.ok(after.ok && before.ok && after.token !== before.token);
  });

  it('token-mismatch for a token of other content; nothing is written', async () => {
    writeW(w.f);
    const old = item('example-plugin').reviewToken as string;
    w.f.write(`${W}/notes.txt`, 'added after review');
    const r = await trustShown(item('example-plugin'), old, w.ctx);
    assert.ok(!r.ok);
    assert.equal(r.reason, 'token-mismatch');
    assert.match(r.message, /^Review token does not match/);
    assert.ok(!fs.existsSync(w.store.file));
  });

  it('invalid for a unit the agent rejects, from trust and from currentToken alike', async () => {
    writeW(w.f, '[mcp_servers.bad]\nurl = "https://example.invalid/mcp?token=x"\n');
    const r = await trustShown(item('example-plugin'), 'x', w.ctx);
    assert.equal(r.ok ? null : r.reason, 'invalid');
    const t = currentToken(item('example-plugin'), w.ctx);
    assert.equal(t.ok ? null : t.reason, 'invalid');
  });

  it('not-covered when a hook runs a file trust cannot cover', async () => {
    w.f.write('ws/.rivumi/hooks.json', JSON.stringify({ pre_tool_use: [{ command: ['bash', 'a.sh'] }] }));
    w.f.write('ws/real-a.sh', 'echo a\n');
    w.f.symlink('real-a.sh', 'ws/a.sh');
    const hooks = item('hooks.json');
    const r = await trustShown(hooks, hooks.reviewToken as string, w.ctx);
    assert.equal(r.ok ? null : r.reason, 'not-covered');
  });

  it('restricted in Restricted Mode, store-unavailable with a broken store, before the bundle is read', async () => {
    writeW(w.f);
    const token = item('example-plugin').reviewToken as string;
    const restricted = await trustShown(item('example-plugin'), token, { ...w.ctx, workspaceTrusted: false });
    assert.equal(restricted.ok ? null : restricted.reason, 'restricted');
    w.f.write('state/state.json', 'not json');
    const broken = await trustShown(item('example-plugin'), token, w.ctx);
    assert.equal(broken.ok ? null : broken.reason, 'store-unavailable');
  });

  it('asks the confirmation with what its one read found, writes nothing when declined, and trusts exactly that read when accepted', async () => {
    writeW(w.f, '[mcp_servers.local]\ncommand = "node"\n');
    const token = item('example-plugin').reviewToken as string;
    const seen: TrustPreview[] = [];
    const declined = await trustShown(item('example-plugin'), token, w.ctx, async (p) => (seen.push(p), false));
    assert.equal(declined.ok ? null : declined.reason, 'cancelled');
    assert.ok(!fs.existsSync(w.store.file), 'declined: nothing written');
    assert.deepEqual(
      [seen[0]?.capabilities.mcpServers?.local?.command, seen[0]?.enabled, seen[0]?.reviewedBefore],
      ['node', false, false],
    );
    const accepted = await trustShown(item('example-plugin'), token, w.ctx, async () => true);
    assert.ok(accepted.ok);
    assert.equal(item('example-plugin').trust, 'trusted');
  });

  it('copy-failed when the bundle changes while the person decides: the copy no longer reproduces the token', async () => {
    writeW(w.f);
    const token = item('example-plugin').reviewToken as string;
    const r = await trustShown(item('example-plugin'), token, w.ctx, async () => {
      w.f.write(`${W}/skills/example/SKILL.md`, '---\nname: example\ndescription: example\n---\nchanged\n');
      return true;
    });
    assert.equal(r.ok ? null : r.reason, 'copy-failed');
    assert.equal(item('example-plugin').trust, 'not-reviewed');
  });
});
