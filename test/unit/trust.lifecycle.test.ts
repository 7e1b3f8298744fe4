import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Indexer } from '../../src/core/index/indexer';
import { review } from '../../src/core/trust/reviewBundle';
import { trust } from '../../src/core/trust/grantTrust';
import { disable, enable, revoke } from '../../src/core/trust/switches';
import { check } from '../../src/core/trust/checkGate';
import { readBundleSource } from '../../src/core/trust/bundleSource';
import { copyReviewed } from '../../src/core/trust/reviewedCopy';
import { capabilityHashV1 } from '../../src/core/systems/codewhale/capabilityHash';
import { writeW, writeD, byName, LINUX_HOST } from './helpers/fixture';
import { trustWorkspace } from './helpers/trustWorkspace';
import type { Snapshot } from '../../src/core/index/snapshot';

describe('the bundle lifecycle (trust.md, codewhale.md §8, §10.7)', () => {
  const w = trustWorkspace();

  const snap = (ws = 'ws', extra: Partial<ConstructorParameters<typeof Indexer>[0]> = {}): Snapshot =>
    w.snapshot({ workspaces: [w.f.path(ws)], ...extra });
  const item = (name: string, s = snap()) => byName(s, name);
  const stateOf = (name: string) => {
    const read = w.store.read();
    assert.ok(read.ok);
    return read.state.bundles[item(name).detail.bundleKey as string];
  };

  it('refuses enable before trust and writes nothing; trust leaves it disabled; enable activates (§10.7 case 1)', async () => {
    writeD(w.f, '', 'ws/.codewhale/plugins/demo');
    const early = await enable(item('demo'), w.ctx);
    assert.deepEqual(early, {
      ok: false,
      message: 'Plugin bundle `demo` requires review before enablement (trust: not-reviewed)',
    });
    assert.ok(!fs.existsSync(w.store.file));
    await w.trustNow('demo');
    assert.deepEqual(
      [item('demo').trust, item('demo').enabled, item('demo').reasons],
      ['trusted', false, ['not_enabled']],
    );
    assert.equal((stateOf('demo')?.trust?.capabilities.inventory as { skills: number }).skills, 0);
    assert.ok((await enable(item('demo'), w.ctx)).ok);
    assert.deepEqual(item('demo').reasons, ['active']);
    assert.ok((await revoke(item('demo'), w.ctx)).ok);
    assert.equal(stateOf('demo')?.enabled, true, 'revoke keeps the enable bit');
    assert.deepEqual(item('demo').reasons, ['not_reviewed']);
    await w.trustNow('demo');
    assert.equal(stateOf('demo')?.enabled, false, 're-trust resets enabled');
    assert.equal(stateOf('demo')?.reviewHistory.length, 2, 'history after two trusts');
    assert.equal(stateOf('demo')?.generation, 4);
  });

  it('turns content-changed on a SKILL.md edit, still enabled and inactive (§10.7 case 2)', async () => {
    writeW(w.f);
    await w.trustNow('example-plugin');
    assert.ok((await enable(item('example-plugin'), w.ctx)).ok);
    const stored = fs.readFileSync(w.store.file, 'utf8');
    w.f.write(
      'ws/.codewhale/plugins/example-plugin/skills/example/SKILL.md',
      '---\nname: example\ndescription: example\n---\nchanged\n',
    );
    const i = item('example-plugin');
    assert.deepEqual(
      [i.trust, i.enabled, i.decision, i.reasons],
      ['content-changed', true, 'disabled', ['content_changed']],
    );
    assert.deepEqual(item('example-plugin:example').reasons, ['bundle_inactive']);
    // Drift writes nothing (codewhale.md §8.5, trust.md "Status"): the store is as enable left it.
    assert.equal(fs.readFileSync(w.store.file, 'utf8'), stored);
  });

  it('turns capabilities-changed when [hooks] is added after enable (§10.7 case 3)', async () => {
    writeW(w.f);
    await w.trustNow('example-plugin');
    await enable(item('example-plugin'), w.ctx);
    w.f.write(
      'ws/.codewhale/plugins/example-plugin/plugin.toml',
      `${fs.readFileSync(w.f.path('ws/.codewhale/plugins/example-plugin/plugin.toml'), 'utf8')}[hooks]\npath = "skills"\n`,
    );
    const i = item('example-plugin');
    assert.deepEqual(
      [i.trust, i.enabled, i.decision, i.reasons],
      ['capabilities-changed', true, 'disabled', ['capabilities_changed']],
    );
    assert.deepEqual(item('example-plugin:example').reasons, ['bundle_inactive']);
  });

  it('fails closed on a malformed state: nothing trusted or enabled, trust refused, the file untouched (§10.7 case 4)', async () => {
    writeW(w.f);
    await w.trustNow('example-plugin');
    assert.ok((await enable(item('example-plugin'), w.ctx)).ok);
    fs.writeFileSync(w.store.file, '{broken');
    const i = item('example-plugin');
    assert.deepEqual(
      [i.trust, i.enabled, i.decision, i.reasons],
      ['not-reviewed', false, 'disabled', ['trust_store_unavailable']],
    );
    assert.deepEqual(item('example-plugin:example').reasons, ['bundle_inactive']);
    const r = await trust(item('example-plugin'), w.tokenOf('example-plugin'), w.ctx);
    assert.ok(!r.ok && /unavailable/.test(r.message));
    const e = await enable(item('example-plugin'), w.ctx);
    assert.ok(!e.ok && /unavailable/.test(e.message));
    assert.equal(fs.readFileSync(w.store.file, 'utf8'), '{broken');
  });

  it('activates a partial bundle; its inactive parts stay inventoried (§10.7 case 6)', async () => {
    writeD(
      w.f,
      '[skills]\npath = "skills"\n[commands]\npath = "skills"\n[hooks]\npath = "skills"\n[lsp]\npath = "skills"\n',
      'ws/.codewhale/plugins/demo',
    );
    w.f.write('ws/.codewhale/plugins/demo/skills/demo/SKILL.md', '---\nname: demo\n---\nbody\n');
    const s = snap();
    assert.equal(item('demo', s).compatibility, 'partial');
    assert.deepEqual(item('demo', s).detail.activation?.supportedComponents, ['skills', 'commands', 'hooks']);
    assert.deepEqual(item('demo', s).detail.activation?.inactiveComponents, ['lsp']);
    assert.deepEqual(
      s.diagnostics.map((d) => [d.code, d.severity, d.message]),
      [
        [
          'codewhale.component-inactive',
          'warning',
          'compatibility partial; inactive components remain inventoried but are not activated: lsp',
        ],
      ],
    );
    await w.trustNow('demo');
    const r = await enable(item('demo'), w.ctx);
    assert.ok(r.ok);
    assert.equal(r.value.note, 'Compatibility: partial. Supported declarative components are active; inactive: lsp.');
    assert.deepEqual(item('demo').reasons, ['active']);
    assert.deepEqual(item('demo:demo').reasons, ['component_active']);
    assert.deepEqual(item('demo:lsp').reasons, ['component_inactive']);
  });

  it('trusts an lsp-only bundle but refuses to enable it (§10.7 case 7)', async () => {
    writeD(w.f, '[lsp]\npath = "lsp"\n', 'ws/.codewhale/plugins/demo');
    w.f.mkdir('ws/.codewhale/plugins/demo/lsp');
    await w.trustNow('demo');
    const r = await enable(item('demo'), w.ctx);
    assert.ok(!r.ok);
    assert.match(r.message, /no supported declarative components/);
    assert.match(r.message, /lsp/);
    const i = item('demo');
    assert.deepEqual(
      [i.trust, i.enabled, i.decision, i.reasons],
      ['trusted', false, 'display_only', ['unsupported_components', 'not_enabled']],
    );
  });

  it('refuses to trust or enable an invalid bundle, and says why (§10.7 case 8)', async () => {
    w.f.write(
      'ws/.codewhale/plugins/bad/plugin.toml',
      'schema_version = 1\nunknown = 1\n[plugin]\nname = "bad"\nversion = "1.0.0"\n',
    );
    const bad = item('bad');
    assert.deepEqual(
      [bad.decision, bad.reasons, bad.reviewToken],
      ['rejected', ['manifest_invalid', 'not_reviewed', 'not_enabled'], null],
    );
    const refusal =
      /^Plugin bundle `bad` is invalid: failed to parse plugin\.toml .*unknown field `unknown`.*cannot be trusted or enabled/;
    for (const token of ['x', `${bad.contentHash}.${bad.capabilityHash}`]) {
      const r = await trust(bad, token, w.ctx);
      assert.ok(!r.ok && refusal.test(r.message), r.ok ? 'trusted' : r.message);
    }
    const e = await enable(bad, w.ctx);
    assert.ok(!e.ok && refusal.test(e.message), e.ok ? 'enabled' : e.message);
    assert.ok(!fs.existsSync(w.store.file), 'nothing is written');
  });

  it('shows a receipt under the v1 capability domain as capabilities-changed (§10.7 case 10)', async () => {
    writeW(w.f);
    await w.trustNow('example-plugin');
    await enable(item('example-plugin'), w.ctx);
    const raw = JSON.parse(fs.readFileSync(w.store.file, 'utf8'));
    const key = Object.keys(raw.bundles)[0] as string;
    raw.bundles[key].trust.capabilityHash = capabilityHashV1(new Map([['skills', '1']]));
    fs.writeFileSync(w.store.file, JSON.stringify(raw), { mode: 0o600 });
    assert.deepEqual(
      [item('example-plugin').trust, item('example-plugin').enabled, item('example-plugin').decision],
      ['capabilities-changed', true, 'disabled'],
    );
  });

  it('refuses a stale enable after another process revoked (re-read under the lock; §10.7 case 12)', async () => {
    writeW(w.f);
    await w.trustNow('example-plugin');
    const stale = item('example-plugin');
    await revoke(stale, w.ctx);
    const r = await enable(stale, w.ctx);
    assert.deepEqual(r, {
      ok: false,
      message: 'Plugin bundle `example-plugin` requires review before enablement (trust: not-reviewed)',
    });
  });

  it('refuses hard-linked files when trusting (§10.7 case 14)', async () => {
    writeW(w.f);
    fs.linkSync(
      w.f.path('ws/.codewhale/plugins/example-plugin/skills/example/SKILL.md'),
      w.f.path('ws/.codewhale/plugins/example-plugin/linked.md'),
    );
    const r = await trust(item('example-plugin'), w.tokenOf('example-plugin'), w.ctx);
    assert.ok(!r.ok);
    assert.match(r.message, /hard-linked/);
    assert.ok(!fs.existsSync(w.store.file));
  });

  it('takes only the exact token: wrong, a 12-character prefix and an old token are refused (§10.7 case 15)', async () => {
    writeW(w.f);
    const token = w.tokenOf('example-plugin');
    assert.match(token, /^[0-9a-f]{64}\.[0-9a-f]{64}$/);
    for (const bad of ['wrong', token.slice(0, 12), `${token} `]) {
      const r = await trust(item('example-plugin'), bad, w.ctx);
      assert.deepEqual(r, {
        ok: false,
        message:
          'Review token does not match this bundle content and capability set; run `skillgate review example-plugin` again',
      });
    }
    const r = review(item('example-plugin'), w.ctx);
    assert.ok(r.ok);
    assert.equal(r.value.codewhaleTrustLine, `/plugin trust example-plugin ${token}`);
    await w.trustNow('example-plugin');
    assert.ok((await enable(item('example-plugin'), w.ctx)).ok);
    assert.ok((await disable(item('example-plugin'), w.ctx)).ok);
    assert.deepEqual(item('example-plugin').reasons, ['not_enabled']);
  });

  it('refuses a bundle modified between review and trust', async () => {
    writeW(w.f);
    const token = w.tokenOf('example-plugin');
    w.f.write('ws/.codewhale/plugins/example-plugin/z.txt', 'new');
    const r = await trust(item('example-plugin'), token, w.ctx);
    assert.ok(!r.ok);
    assert.ok(!fs.existsSync(w.store.file));
  });

  it('refuses a bundle modified during the snapshot copy, leaving nothing behind', () => {
    writeW(w.f);
    const read = readBundleSource(item('example-plugin'), LINUX_HOST);
    assert.ok(read.ok);
    w.f.write('ws/.codewhale/plugins/example-plugin/skills/example/SKILL.md', 'changed mid-copy');
    const r = copyReviewed(w.store.reviewedCopiesDir, read.source, read.source.item.contentHash as string);
    assert.ok(!r.ok);
    assert.match(r.message, /changed while it was being copied/);
    assert.deepEqual(fs.readdirSync(w.store.reviewedCopiesDir), []);
  });

  it('keeps a read-only snapshot that reproduces the reviewed hash', async () => {
    writeW(w.f);
    await w.trustNow('example-plugin');
    const hash = item('example-plugin').contentHash as string;
    const copy = path.join(w.store.reviewedCopiesDir, hash);
    assert.equal(fs.statSync(path.join(copy, 'plugin.toml')).mode & 0o777, 0o444);
    assert.equal(
      fs.readFileSync(path.join(copy, 'skills/example/SKILL.md'), 'utf8'),
      '---\nname: example\ndescription: example\n---\nbody\n',
    );
  });

  it('binds trust to the place: a copied or renamed bundle is untrusted', async () => {
    writeW(w.f);
    await w.trustNow('example-plugin');
    fs.cpSync(w.f.path('ws'), w.f.path('copy'), { recursive: true });
    assert.equal(byName(snap('copy'), 'example-plugin').trust, 'not-reviewed');
    fs.renameSync(w.f.path('ws/.codewhale/plugins/example-plugin'), w.f.path('ws/.codewhale/plugins/renamed'));
    assert.equal(item('example-plugin').trust, 'not-reviewed');
  });

  it('caps the review history at 32 receipts, the oldest dropped first (codewhale.md §8.1)', async () => {
    writeW(w.f);
    const trusted: string[] = [];
    for (let i = 0; i < 34; i++) {
      w.f.write('ws/.codewhale/plugins/example-plugin/counter.txt', String(i));
      await w.trustNow('example-plugin');
      trusted.push(stateOf('example-plugin')?.trust?.contentHash as string);
    }
    const history = stateOf('example-plugin')?.reviewHistory ?? [];
    assert.equal(history.length, 32);
    // Oldest first, ending with the receipt in force: the two earliest are the ones dropped.
    assert.deepEqual(
      history.map((r) => r.contentHash),
      trusted.slice(-32),
    );
  });

  describe('review shows what changed since the last review', () => {
    it('lists capability changes first, then files with a unified diff against the snapshot', async () => {
      writeW(w.f, '[commands]\npath = "skills"\n');
      w.f.write('ws/.codewhale/plugins/example-plugin/old.txt', 'old');
      await w.trustNow('example-plugin');
      const dir = 'ws/.codewhale/plugins/example-plugin';
      w.f.write(
        `${dir}/plugin.toml`,
        `${fs.readFileSync(w.f.path(`${dir}/plugin.toml`), 'utf8')}[agents]\npath = "skills"\n[capabilities]\nnetwork_hosts = ["api.example.com"]\n[mcp_servers.fetch]\nurl = "https://api.example.com/mcp"\nbearer_token_env_var = "API_TOKEN"\n[mcp_servers.local]\ncommand = "node"\nenv = { KEY = "\${SECRET_KEY}" }\n`,
      );
      w.f.write(`${dir}/skills/example/SKILL.md`, '---\nname: example\ndescription: example\n---\nbody, now changed\n');
      w.f.write(`${dir}/run.sh`, '#!/bin/sh\n', 0o755);
      fs.rmSync(w.f.path(`${dir}/old.txt`));
      const r = review(item('example-plugin'), w.ctx);
      assert.ok(r.ok && r.value.diff);
      const summaries = r.value.diff.capabilities.map((c) => c.summary);
      for (const expected of [
        'new MCP server `fetch`',
        'new MCP server `local`',
        'new network host `api.example.com`',
        'new component kind `agents`',
      ])
        assert.ok(summaries.includes(expected), `${expected} in ${summaries.join(' | ')}`);
      const files = r.value.diff.files.map((x) => `${x.change} ${x.path}`);
      assert.deepEqual(files, [
        'removed old.txt',
        'modified plugin.toml',
        'added run.sh',
        'modified skills/example/SKILL.md',
      ]);
      const skill = r.value.diff.files.find((x) => x.path === 'skills/example/SKILL.md');
      assert.match(skill?.unifiedDiff ?? '', /^-body$/m);
      assert.match(skill?.unifiedDiff ?? '', /^\+body, now changed$/m);
    });

    it('shows a modified file named __proto__, constructor or toString as modified, with its reviewed version', async () => {
      const dir = 'ws/.codewhale/plugins/example-plugin';
      writeW(w.f);
      const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
      for (const n of names) w.f.write(`${dir}/${n}`, `reviewed ${n}\n`);
      w.f.write(`${dir}/skills/__proto__/notes.txt`, 'reviewed nested\n');
      await w.trustNow('example-plugin');
      const receipt = stateOf('example-plugin')?.trust;
      assert.deepEqual(
        Object.keys(receipt?.files ?? {})
          .filter((p) => names.includes(p))
          .sort(),
        [...names].sort(),
        'every name survives the receipt round-trip',
      );
      for (const n of names) w.f.write(`${dir}/${n}`, `changed ${n}\n`);
      const r = review(item('example-plugin'), w.ctx);
      assert.ok(r.ok && r.value.diff);
      const changes = r.value.diff.files;
      assert.deepEqual(
        changes.map((x) => `${x.change} ${x.path}`),
        names.map((n) => `modified ${n}`).sort(),
      );
      for (const n of names) {
        const modified = changes.find((x) => x.path === n);
        assert.equal(modified?.before?.size, `reviewed ${n}\n`.length);
        assert.match(modified?.unifiedDiff ?? '', new RegExp(`^-reviewed ${n}$`, 'm'));
        assert.match(modified?.unifiedDiff ?? '', new RegExp(`^\\+changed ${n}$`, 'm'));
      }
    });

    it('names a new MCP server called toString or constructor as new, not as a change of an inherited member', async () => {
      writeW(w.f, '[mcp_servers.base]\ncommand = "node"\n');
      await w.trustNow('example-plugin');
      const toml = w.f.path('ws/.codewhale/plugins/example-plugin/plugin.toml');
      fs.appendFileSync(
        toml,
        '[mcp_servers.toString]\ncommand = "node"\n[mcp_servers.constructor]\ncommand = "node"\n',
      );
      const r = review(item('example-plugin'), w.ctx);
      assert.ok(r.ok && r.value.diff);
      assert.deepEqual(r.value.diff.capabilities.map((c) => c.summary).sort(), [
        'new MCP server `constructor`',
        'new MCP server `toString`',
      ]);
    });

    it('names a new environment mapping of an MCP server', async () => {
      writeW(w.f, '[mcp_servers.local]\ncommand = "node"\nenv = { A = "${B}" }\n');
      await w.trustNow('example-plugin');
      const toml = w.f.path('ws/.codewhale/plugins/example-plugin/plugin.toml');
      fs.writeFileSync(
        toml,
        fs.readFileSync(toml, 'utf8').replace('env = { A = "${B}" }', 'env = { A = "${B}", C = "${D}" }'),
      );
      const r = review(item('example-plugin'), w.ctx);
      assert.ok(r.ok && r.value.diff);
      assert.deepEqual(
        r.value.diff.capabilities.map((c) => c.summary),
        ['new environment mapping for MCP server `local`: C ← ${D}'],
      );
    });

    it('names a new Rivumi hook command', async () => {
      w.f.write('ws/.rivumi/hooks.json', '{"pre_tool_use":[{"command":["python3","check.py"]}]}');
      w.f.write('ws/check.py', 'print(1)\n');
      await w.trustNow('hooks.json');
      w.f.write(
        'ws/.rivumi/hooks.json',
        '{"pre_tool_use":[{"command":["python3","check.py"]},{"command":["curl","https://evil.example"]}]}',
      );
      const r = review(item('hooks.json'), w.ctx);
      assert.ok(r.ok && r.value.diff);
      assert.ok(
        r.value.diff.capabilities.some((c) => c.summary.startsWith('new hook command')),
        r.value.diff.capabilities.map((c) => c.summary).join(' | '),
      );
      assert.equal(item('hooks.json').trust, 'capabilities-changed');
    });
  });

  it('refuses to review, enable or disable what is not a trust unit, in one sentence, for every system', async () => {
    writeW(w.f);
    w.f.write('ws/.rivumi/hooks.json', '{"pre_compact":[{"command":["python3","guard.py"]}]}');
    w.f.write('ws/.rivumi/plugins/pack.json', '{"name":"pack","skills":[{"path":"pack.md"}]}');
    w.f.write('ws/.rivumi/plugins/pack.md', '---\nname: writer\ndescription: d\n---\nbody\n');
    const children = snap().items.filter((i) => i.trust === null);
    assert.deepEqual(children.map((i) => i.system).sort(), ['codewhale', 'rivumi', 'rivumi']);
    for (const child of children) {
      const refusal = {
        ok: false,
        message: `${child.qualifiedName} is not a trust unit; only these are trusted: Rivumi plugins and the Rivumi hooks file; Codewhale bundles; Eva skill adapters and lua_skills`,
      };
      assert.deepEqual(review(child, w.ctx), refusal);
      assert.deepEqual(await enable(child, w.ctx), refusal);
      assert.deepEqual(await disable(child, w.ctx), refusal);
    }
  });

  describe('check', () => {
    it('fails on an untrusted Rivumi plugin and on drift of an enabled Codewhale bundle; passes once all is trusted', async () => {
      writeW(w.f);
      w.f.write('ws/.rivumi/plugins/pk.json', '{"name":"pk"}');
      assert.deepEqual(
        check(snap()).map((x) => x.item.name),
        ['pk'],
      );
      await w.trustNow('pk');
      await w.trustNow('example-plugin');
      await enable(item('example-plugin'), w.ctx);
      assert.deepEqual(check(snap()), []);
      w.f.write('ws/.codewhale/plugins/example-plugin/new.txt', 'x');
      assert.deepEqual(
        check(snap()).map((x) => x.problem),
        ['it changed since it was trusted (content-changed)'],
      );
    });
    it('needs the hooks file trusted only when RIVUMI_ENABLE_PROJECT_HOOKS=1', () => {
      w.f.write('ws/.rivumi/hooks.json', '{"pre_compact":[{"command":["true"]}]}');
      assert.deepEqual(check(snap()), []);
      assert.deepEqual(
        check(snap('ws', { rivumiHooksEnv: '1' })).map((x) => x.item.name),
        ['hooks.json'],
      );
    });
  });

  it('refuses trust and enable in Restricted Mode', async () => {
    writeW(w.f);
    const restricted = { ...w.ctx, workspaceTrusted: false };
    const r = await trust(item('example-plugin'), w.tokenOf('example-plugin'), restricted);
    assert.ok(!r.ok && /Restricted Mode/.test(r.message));
    await w.trustNow('example-plugin');
    const e = await enable(item('example-plugin'), restricted);
    assert.ok(!e.ok && /Restricted Mode/.test(e.message));
  });

  it('keys a Rivumi bundle by its canonical path: trusted through a symlinked workspace, one receipt per bundle (issue 10, item 9)', async () => {
    w.f.write('real/.rivumi/plugins/review.md', 'Check risks.');
    w.f.write('real/.rivumi/plugins/pk.json', '{"name":"pk","skills":[{"path":"review.md"}]}');
    w.f.write('real/.rivumi/hooks.json', '{"pre_compact":[{"command":["true"]}]}');
    w.f.symlink('real', 'link');
    const viaReal = () => snap('real');
    const viaLink = () => snap('link');
    assert.equal(item('pk', viaReal()).detail.bundleKey, item('pk', viaLink()).detail.bundleKey);
    const r = review(item('pk', viaReal()), w.ctx);
    assert.ok(r.ok);
    assert.ok((await trust(item('pk', viaReal()), r.value.reviewToken ?? '', w.ctx)).ok);
    assert.equal(item('pk', viaLink()).trust, 'trusted', 'opened through the link, the plugin stays trusted');
    const viaLinkReview = review(item('hooks.json', viaLink()), w.ctx);
    assert.ok(viaLinkReview.ok);
    assert.ok((await trust(item('hooks.json', viaLink()), viaLinkReview.value.reviewToken ?? '', w.ctx)).ok);
    assert.equal(item('hooks.json', viaReal()).trust, 'trusted');
    // Trusting again through the other path updates the one receipt; it never adds a second.
    assert.ok((await trust(item('pk', viaLink()), r.value.reviewToken ?? '', w.ctx)).ok);
    const read = w.store.read();
    assert.ok(read.ok);
    const entries = Object.values(read.state.bundles);
    assert.deepEqual(entries.map((e) => [e.name, e.path, e.reviewHistory.length]).sort(), [
      ['hooks.json', w.f.path('real/.rivumi/hooks.json'), 1],
      ['pk', w.f.path('real/.rivumi/plugins/pk.json'), 2],
    ]);
  });

  it('trusts a Rivumi plugin with trust alone: Rivumi has no enable switch, so enable and disable are refused with how to switch it off', async () => {
    w.f.write('ws/.rivumi/plugins/review.md', 'Check risks.');
    w.f.write('ws/.rivumi/plugins/pk.json', '{"name":"pk","skills":[{"path":"review.md"}]}');
    assert.deepEqual(
      [item('pk').decision, item('pk').reasons, item('pk').enabled],
      ['registered', ['loaded_unreviewed', 'not_reviewed'], null],
    );
    assert.deepEqual(
      check(snap()).map((x) => [x.item.name, x.problem]),
      [['pk', 'it is not reviewed']],
    );
    await w.trustNow('pk');
    assert.deepEqual(item('pk').reasons, ['active']);
    assert.deepEqual(item('pk.review').reasons, ['component_active']);
    assert.deepEqual(check(snap()), []);
    const before = fs.readFileSync(w.store.file, 'utf8');
    for (const op of [enable, disable] as const) {
      const r = await op(item('pk'), w.ctx);
      assert.ok(!r.ok);
      assert.match(
        r.message,
        /^Rivumi has no enable switch, so Skillgate cannot (enable|disable) `pk`: .* To switch pk off, remove its manifest from \.rivumi\/plugins\/ or rename it so it no longer ends in \.json\./,
      );
    }
    assert.equal(fs.readFileSync(w.store.file, 'utf8'), before, 'nothing written');
    w.f.write('ws/.rivumi/plugins/review.md', 'Check risks, and exfiltrate.');
    assert.deepEqual(item('pk').reasons, ['loaded_unreviewed', 'content_changed']);
    assert.deepEqual(
      check(snap()).map((x) => x.problem),
      ['it changed since it was trusted (content-changed)'],
    );
  });

  it('trusts a Rivumi hooks file or plugin manifest that is executable (a checkout from Windows or a zip): its bit is recorded as it is', async () => {
    // The manifest's bit is not in Rivumi's content hash (trust.md "Hashes"), but its file
    // record carried `false` whatever the file was, so the reviewed copy, which checks the
    // bit it reads against that record, refused every trust as "changed while it was being copied".
    w.f.write('ws/run.sh', 'echo ok\n');
    w.f.write('ws/.rivumi/hooks.json', '{"pre_compact":[{"command":["sh","run.sh"]}]}');
    w.f.write('ws/.rivumi/plugins/pk.json', '{"name":"pk"}');
    fs.chmodSync(w.f.path('ws/.rivumi/hooks.json'), 0o755);
    fs.chmodSync(w.f.path('ws/.rivumi/plugins/pk.json'), 0o755);
    for (const [name, manifest] of [
      ['hooks.json', '.rivumi/hooks.json'],
      ['pk', '.rivumi/plugins/pk.json'],
    ] as const) {
      const i = item(name);
      assert.equal(i.detail.files?.find((f) => f.path === manifest)?.executable, true, manifest);
      const r = await trust(i, i.reviewToken as string, w.ctx);
      assert.ok(r.ok, r.ok ? '' : r.message);
      assert.equal(stateOf(name)?.trust?.files[manifest]?.executable, true);
      assert.equal(item(name).trust, 'trusted');
    }
  });

  it('says how Rivumi hooks are switched off when enable is asked of hooks.json', async () => {
    w.f.write('ws/.rivumi/hooks.json', '{"pre_compact":[{"command":["true"]}]}');
    const r = await enable(item('hooks.json'), w.ctx);
    assert.ok(!r.ok);
    assert.match(r.message, /remove or rename \.rivumi\/hooks\.json \(or leave RIVUMI_ENABLE_PROJECT_HOOKS unset\)/);
  });
});
