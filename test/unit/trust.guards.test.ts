import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Indexer } from '../../src/core/index/indexer';
import { review } from '../../src/core/trust/reviewBundle';
import { trust } from '../../src/core/trust/grantTrust';
import { disable, enable, revoke } from '../../src/core/trust/switches';
import { check, checkPasses, STORE_UNAVAILABLE_PROBLEM } from '../../src/core/trust/checkGate';
import { doctor } from '../../src/core/trust/doctor';
import { writeW, writeD, byName } from './helpers/fixture';
import { trustWorkspace } from './helpers/trustWorkspace';
import { reviewText } from '../../src/core/review/reviewText';
import type { Snapshot } from '../../src/core/index/snapshot';
import type { Item } from '../../src/core/model';

/**
 * One refusal test per guard of each lifecycle operation (trust.md "Operations"), on
 * Codewhale bundles, whose enable bit the agent honours. Every refusal asserts what was
 * (not) written: the store's bytes, and that `enabled` did not turn true.
 */
describe('lifecycle guards: each refusal, and that nothing was written (trust.md "Operations")', () => {
  const w = trustWorkspace();
  const W = 'ws/.codewhale/plugins/example-plugin';

  const snap = (ws = 'ws', extra: Partial<ConstructorParameters<typeof Indexer>[0]> = {}): Snapshot =>
    w.snapshot({ workspaces: [w.f.path(ws)], ...extra });
  const item = (name: string, s = snap()) => byName(s, name);
  const entryOf = (name: string) => {
    const read = w.store.read();
    assert.ok(read.ok, read.ok ? '' : read.problem);
    return read.state.bundles[item(name).detail.bundleKey as string];
  };
  const bytes = () => fs.readFileSync(w.store.file);
  /** Breaks the store the way a half-written or hand-edited file would. */
  const breakStore = () => fs.writeFileSync(w.store.file, '{"schemaVersion":1,"bundles":', { mode: 0o600 });
  /** A bundle that hashes (its manifest loads) but is invalid: a remote MCP URL with a query. */
  const INVALID_MCP =
    '[capabilities]\nnetwork_hosts = ["example.invalid"]\n[mcp_servers.remote]\nurl = "https://example.invalid/mcp?token=x"\n';
  const UNAVAILABLE =
    /^The trust store is unavailable: trust store .*state\.json is not valid JSON .*Nothing was changed; run `skillgate doctor`/;

  describe('review', () => {
    it('of a bundle never trusted: its token, trustable, no receipt, no diff, not enabled', () => {
      writeW(w.f);
      const i = item('example-plugin');
      const r = review(i, w.ctx);
      assert.ok(r.ok);
      const v = r.value;
      assert.equal(v.reviewToken, `${i.contentHash}.${i.capabilityHash}`);
      assert.deepEqual(
        [v.contentHash, v.capabilityHash, v.status, v.enabled, v.receipt, v.diff, v.trustable, v.trustRefusal],
        [i.contentHash, i.capabilityHash, 'not-reviewed', false, null, null, true, null],
      );
      assert.equal(v.codewhaleTrustLine, `/plugin trust example-plugin ${v.reviewToken}`);
      assert.deepEqual(v.notCovered, []);
      assert.deepEqual(
        v.files?.map((x) => x.path),
        ['plugin.toml', 'skills/example/SKILL.md'],
      );
      assert.equal((v.capabilities as { system: string }).system, 'codewhale');
      assert.ok(!fs.existsSync(w.store.file), 'review writes nothing');
    });

    it('with the trust store unavailable: says so, and that trust would be refused, instead of a plain "not-reviewed"', async () => {
      writeW(w.f);
      await w.trustNow('example-plugin');
      w.f.write(`${W}/notes.txt`, 'changed since the review');
      breakStore();
      const r = review(item('example-plugin'), w.ctx);
      assert.ok(r.ok);
      const v = r.value;
      assert.deepEqual([v.status, v.receipt, v.diff, v.trustable], ['not-reviewed', null, null, false]);
      assert.match(v.storeProblem ?? '', /^trust store .*state\.json is not valid JSON/);
      assert.match(v.trustRefusal ?? '', UNAVAILABLE);
      const text = reviewText(v, [w.f.path('ws')], false);
      assert.match(
        text,
        /\n {2}trust store unavailable: trust store .*; no receipt can be read, so what changed since your last review cannot be shown\n/,
      );
      assert.match(text, /\n {2}not trustable: The trust store is unavailable: /);
    });

    it('of a trusted, enabled, unchanged bundle: trusted, enabled, its receipt, no diff', async () => {
      writeW(w.f);
      await w.trustNow('example-plugin');
      await enable(item('example-plugin'), w.ctx);
      const r = review(item('example-plugin'), w.ctx);
      assert.ok(r.ok);
      assert.deepEqual([r.value.status, r.value.enabled, r.value.diff], ['trusted', true, null]);
      assert.deepEqual(r.value.receipt, entryOf('example-plugin')?.trust);
    });

    it('of a changed bundle whose snapshot is gone: the file diff still names the change, without a text diff', async () => {
      writeW(w.f);
      await w.trustNow('example-plugin');
      fs.rmSync(w.store.reviewedCopiesDir, { recursive: true, force: true });
      w.f.write(`${W}/skills/example/SKILL.md`, 'changed\n');
      const r = review(item('example-plugin'), w.ctx);
      assert.ok(r.ok && r.value.diff);
      assert.equal(r.value.status, 'content-changed');
      assert.deepEqual(
        r.value.diff.files.map((x) => `${x.change} ${x.path}`),
        ['modified skills/example/SKILL.md'],
      );
    });

    it('with a broken store: still shown, but not enabled and with no receipt (it fails closed)', async () => {
      writeW(w.f);
      await w.trustNow('example-plugin');
      await enable(item('example-plugin'), w.ctx);
      breakStore();
      const r = review(item('example-plugin'), w.ctx);
      assert.ok(r.ok);
      assert.deepEqual(
        [r.value.status, r.value.enabled, r.value.receipt, r.value.diff],
        ['not-reviewed', false, null, null],
      );
    });

    it('of an invalid bundle: no token, not trustable, the refusal names the error; with a broken store, not enabled', async () => {
      writeW(w.f);
      await w.trustNow('example-plugin');
      await enable(item('example-plugin'), w.ctx);
      fs.appendFileSync(w.f.path(`${W}/plugin.toml`), 'unknown = 1\n');
      const r = review(item('example-plugin'), w.ctx);
      assert.ok(r.ok);
      const v = r.value;
      assert.deepEqual(
        [v.reviewToken, v.capabilityHash, v.capabilities, v.codewhaleTrustLine, v.trustable, v.enabled],
        [null, null, null, null, false, true],
      );
      assert.match(
        v.trustRefusal ?? '',
        /^Plugin bundle `example-plugin` is invalid: .*\(plugin\.toml:\d+\)\. Codewhale does not load it, so it cannot be trusted or enabled/,
      );
      assert.equal(v.status, 'capabilities-changed');
      assert.ok(v.diff && v.diff.files.some((x) => x.path === 'plugin.toml' && x.change === 'modified'));
      breakStore();
      const closed = review(item('example-plugin'), w.ctx);
      assert.ok(closed.ok);
      assert.deepEqual(
        [closed.value.enabled, closed.value.receipt, closed.value.diff, closed.value.status],
        [false, null, null, 'not-reviewed'],
      );
    });

    it('of a bundle that hashes but is invalid: a token, but not trustable and no Codewhale trust line', () => {
      writeW(w.f, INVALID_MCP);
      const r = review(item('example-plugin'), w.ctx);
      assert.ok(r.ok);
      assert.ok(r.value.reviewToken);
      assert.deepEqual([r.value.trustable, r.value.codewhaleTrustLine], [false, null]);
      assert.match(r.value.trustRefusal ?? '', /^Plugin bundle `example-plugin` is invalid: /);
    });

    it('of a Rivumi plugin: trustable, with no Codewhale trust line', () => {
      w.f.write('ws/.rivumi/plugins/pk.json', '{"name":"pk"}');
      const r = review(item('pk'), w.ctx);
      assert.ok(r.ok);
      assert.deepEqual([r.value.trustable, r.value.trustRefusal, r.value.codewhaleTrustLine], [true, null, null]);
    });

    it('of a Rivumi plugin that dropped a skill: the file it no longer covers shows as removed, though it is still on disk', async () => {
      w.f.write('ws/.rivumi/plugins/review.md', 'Check risks.');
      w.f.write('ws/.rivumi/plugins/pk.json', '{"name":"pk","skills":[{"path":"review.md"}]}');
      await w.trustNow('pk');
      w.f.write('ws/.rivumi/plugins/pk.json', '{"name":"pk"}');
      const r = review(item('pk'), w.ctx);
      assert.ok(r.ok && r.value.diff);
      assert.deepEqual(
        r.value.files?.map((x) => x.path),
        ['.rivumi/plugins/pk.json'],
      );
      assert.ok(
        r.value.diff.files.some((x) => x.path === '.rivumi/plugins/review.md' && x.change === 'removed'),
        JSON.stringify(r.value.diff.files.map((x) => [x.change, x.path])),
      );
    });

    it('of a bundle that is gone: refused', () => {
      writeW(w.f);
      const stale = item('example-plugin');
      fs.rmSync(w.f.path(W), { recursive: true });
      const r = review(stale, w.ctx);
      assert.ok(!r.ok);
      assert.match(r.message, /example-plugin/);
    });
  });

  describe('trust', () => {
    it('refuses in Restricted Mode before anything else, even with a broken store', async () => {
      writeW(w.f);
      const token = w.tokenOf('example-plugin');
      fs.mkdirSync(w.f.path('state'), { mode: 0o700 });
      breakStore();
      const r = await trust(item('example-plugin'), token, { ...w.ctx, workspaceTrusted: false });
      assert.deepEqual(r, {
        ok: false,
        message: 'Restricted Mode: trust the workspace in VS Code before trusting its bundles.',
      });
      assert.equal(fs.readFileSync(w.store.file, 'utf8'), '{"schemaVersion":1,"bundles":');
    });

    it('refuses on an unavailable store, with the right token, and leaves the file and the snapshots alone', async () => {
      writeW(w.f);
      const token = w.tokenOf('example-plugin');
      fs.mkdirSync(w.f.path('state'), { mode: 0o700 });
      breakStore();
      const before = bytes();
      const r = await trust(item('example-plugin'), token, w.ctx);
      assert.ok(!r.ok);
      assert.match(r.message, UNAVAILABLE);
      assert.deepEqual(bytes(), before);
      assert.ok(!fs.existsSync(w.store.reviewedCopiesDir), 'no snapshot taken');
    });

    it('refuses a bundle that no longer loads, naming its first error, and writes nothing', async () => {
      writeW(w.f);
      const stale = item('example-plugin');
      const token = w.tokenOf('example-plugin');
      w.f.write(
        `${W}/plugin.toml`,
        'schema_version = 1\n[plugin]\nname = "example-plugin"\nversion = "1.2.3"\nunknown = 1\n',
      );
      const r = await trust(stale, token, w.ctx);
      assert.ok(!r.ok);
      assert.match(r.message, /example-plugin/);
      assert.doesNotMatch(r.message, /Review token/);
      assert.ok(!fs.existsSync(w.store.file));
      assert.ok(!fs.existsSync(w.store.reviewedCopiesDir));
    });

    it('refuses a bundle whose directory is gone, and writes nothing', async () => {
      writeW(w.f);
      const stale = item('example-plugin');
      const token = w.tokenOf('example-plugin');
      fs.rmSync(w.f.path(W), { recursive: true });
      const r = await trust(stale, token, w.ctx);
      assert.ok(!r.ok);
      assert.match(r.message, /example-plugin/);
      assert.ok(!fs.existsSync(w.store.file));
    });

    it('refuses a bundle that hashes but is invalid, even with its exact token', async () => {
      writeW(w.f, INVALID_MCP);
      const r = await trust(item('example-plugin'), w.tokenOf('example-plugin'), w.ctx);
      assert.ok(!r.ok);
      assert.match(r.message, /^Plugin bundle `example-plugin` is invalid: .*Codewhale does not load it/);
      assert.ok(!fs.existsSync(w.store.file));
    });

    it('refuses a wrong token for a Rivumi plugin and says to review it again', async () => {
      w.f.write('ws/.rivumi/plugins/pk.json', '{"name":"pk"}');
      const r = await trust(item('pk'), 'wrong', w.ctx);
      assert.deepEqual(r, {
        ok: false,
        message: 'Review token does not match this bundle content and capability set; review it again',
      });
    });

    it('names the count when hooks run more than one file trust cannot cover', async () => {
      w.f.write(
        'ws/.rivumi/hooks.json',
        JSON.stringify({ pre_tool_use: [{ command: ['bash', 'a.sh'] }, { command: ['bash', 'b.sh'] }] }),
      );
      w.f.write('ws/real-a.sh', 'echo a\n');
      w.f.write('ws/real-b.sh', 'echo b\n');
      w.f.symlink('real-a.sh', 'ws/a.sh');
      w.f.symlink('real-b.sh', 'ws/b.sh');
      const rv = review(item('hooks.json'), w.ctx);
      assert.ok(rv.ok);
      assert.equal(rv.value.notCovered.length, 2);
      const r = await trust(item('hooks.json'), rv.value.reviewToken ?? '', w.ctx);
      assert.ok(!r.ok);
      assert.ok(
        r.message.startsWith(
          `Cannot trust hooks.json: it runs or loads what this trust cannot cover (${rv.value.notCovered.join('; ')}). Nothing was changed;`,
        ),
        r.message,
      );
      assert.deepEqual(
        check(snap('ws', { rivumiHooksEnv: '1' })).map((x) => x.problem),
        [`it cannot be trusted: ${rv.value.notCovered.join('; ')}`],
      );
    });

    it('refuses a token for other content and says how to get the current one', async () => {
      writeW(w.f);
      const old = w.tokenOf('example-plugin');
      w.f.write(`${W}/notes.txt`, 'added after review');
      const r = await trust(item('example-plugin'), old, w.ctx);
      assert.deepEqual(r, {
        ok: false,
        message:
          'Review token does not match this bundle content and capability set; run `skillgate review example-plugin` again',
      });
      assert.ok(!fs.existsSync(w.store.file));
      assert.ok(!fs.existsSync(w.store.reviewedCopiesDir));
    });

    it('writes the receipt at the current hashes, disabled, with the reviewed files, and one snapshot', async () => {
      writeW(w.f);
      const now = new Date('2026-11-30T12:00:00.000Z');
      const r = await trust(item('example-plugin'), w.tokenOf('example-plugin'), { ...w.ctx, now: () => now });
      assert.ok(r.ok);
      const i = item('example-plugin');
      const e = entryOf('example-plugin');
      assert.deepEqual(
        [e?.enabled, e?.generation, e?.name, e?.system, e?.scope, e?.path],
        [false, 1, 'example-plugin', 'codewhale', 'workspace', w.f.path(W)],
      );
      assert.deepEqual(
        [e?.trust?.contentHash, e?.trust?.capabilityHash, e?.trust?.reviewedAt],
        [i.contentHash, i.capabilityHash, '2026-11-30T12:00:00.000Z'],
      );
      assert.deepEqual(Object.keys(e?.trust?.files ?? {}).sort(), ['plugin.toml', 'skills/example/SKILL.md']);
      assert.deepEqual(e?.reviewHistory, [e?.trust]);
      assert.equal(r.value.reviewedCopy, path.join(w.store.reviewedCopiesDir, i.contentHash as string));
      assert.deepEqual(fs.readdirSync(w.store.reviewedCopiesDir), [i.contentHash]);
    });

    it('re-trusting an enabled bundle turns it off: trust never activates', async () => {
      writeW(w.f);
      await w.trustNow('example-plugin');
      assert.ok((await enable(item('example-plugin'), w.ctx)).ok);
      assert.equal(entryOf('example-plugin')?.enabled, true);
      await w.trustNow('example-plugin');
      assert.equal(entryOf('example-plugin')?.enabled, false);
      assert.equal(item('example-plugin').decision, 'disabled');
    });
  });

  describe('enable, refused in the order trust.md lists', () => {
    it('refuses on an unavailable store and leaves the file as it was (the bit never flips)', async () => {
      writeW(w.f);
      await w.trustNow('example-plugin');
      const raw = JSON.parse(fs.readFileSync(w.store.file, 'utf8'));
      // Valid JSON with a field the closed schema does not know: still unavailable.
      raw.extra = true;
      fs.writeFileSync(w.store.file, JSON.stringify(raw), { mode: 0o600 });
      const before = bytes();
      const r = await enable(item('example-plugin'), w.ctx);
      assert.ok(!r.ok);
      assert.match(r.message, /^The trust store is unavailable: .*unknown field `extra`/);
      assert.deepEqual(bytes(), before);
      const i = item('example-plugin');
      assert.deepEqual([i.enabled, i.decision, i.reasons], [false, 'disabled', ['trust_store_unavailable']]);
    });

    it('refuses a bundle that no longer loads with its first error, not a trust status', async () => {
      writeW(w.f);
      await w.trustNow('example-plugin');
      const before = bytes();
      w.f.write(
        `${W}/plugin.toml`,
        'schema_version = 1\n[plugin]\nname = "example-plugin"\nversion = "1.2.3"\nunknown = 1\n',
      );
      const r = await enable(item('example-plugin'), w.ctx);
      assert.ok(!r.ok);
      assert.doesNotMatch(r.message, /requires review/);
      assert.deepEqual(bytes(), before);
    });

    it('names the unavailable store before anything about the bundle', async () => {
      writeW(w.f);
      await w.trustNow('example-plugin');
      const s = snap();
      fs.rmSync(w.f.path(W), { recursive: true });
      breakStore();
      const r = await enable(item('example-plugin', s), w.ctx);
      assert.ok(!r.ok);
      assert.match(r.message, UNAVAILABLE);
    });

    it('refuses a trusted bundle that turned invalid but still hashes with the invalid refusal, not a trust status', async () => {
      writeW(w.f);
      await w.trustNow('example-plugin');
      fs.appendFileSync(w.f.path(`${W}/plugin.toml`), INVALID_MCP);
      const before = bytes();
      const r = await enable(item('example-plugin'), w.ctx);
      assert.ok(!r.ok);
      assert.match(r.message, /^Plugin bundle `example-plugin` is invalid: /);
      assert.deepEqual(bytes(), before);
    });

    it('lists every inactive component kind, comma-separated, when refusing or noting them', async () => {
      writeD(w.f, '[lsp]\npath = "lsp"\n[native]\npath = "lsp"\n', 'ws/.codewhale/plugins/demo');
      w.f.mkdir('ws/.codewhale/plugins/demo/lsp');
      await w.trustNow('demo');
      const r = await enable(item('demo'), w.ctx);
      assert.ok(!r.ok);
      assert.match(r.message, /; inactive: lsp, native$/);
      writeD(
        w.f,
        '[skills]\npath = "skills"\n[lsp]\npath = "lsp"\n[native]\npath = "lsp"\n',
        'ws/.codewhale/plugins/demo',
      );
      w.f.write('ws/.codewhale/plugins/demo/skills/demo/SKILL.md', '---\nname: demo\ndescription: d\n---\nbody\n');
      await w.trustNow('demo');
      const partial = await enable(item('demo'), w.ctx);
      assert.ok(partial.ok);
      assert.equal(
        partial.value.note,
        'Compatibility: partial. Supported declarative components are active; inactive: lsp, native.',
      );
    });

    it('refuses capabilities-changed as such (the capability hash is compared before the content hash)', async () => {
      writeW(w.f);
      await w.trustNow('example-plugin');
      fs.appendFileSync(w.f.path(`${W}/plugin.toml`), '[commands]\npath = "skills"\n');
      const before = bytes();
      const r = await enable(item('example-plugin'), w.ctx);
      assert.deepEqual(r, {
        ok: false,
        message: 'Plugin bundle `example-plugin` requires review before enablement (trust: capabilities-changed)',
      });
      assert.deepEqual(bytes(), before);
      const rv = review(item('example-plugin'), w.ctx);
      assert.ok(rv.ok);
      assert.equal(rv.value.status, 'capabilities-changed');
      assert.equal(item('example-plugin').trust, 'capabilities-changed');
    });

    it('refuses content-changed as such', async () => {
      writeW(w.f);
      await w.trustNow('example-plugin');
      w.f.write(`${W}/notes.txt`, 'new');
      const before = bytes();
      const r = await enable(item('example-plugin'), w.ctx);
      assert.deepEqual(r, {
        ok: false,
        message: 'Plugin bundle `example-plugin` requires review before enablement (trust: content-changed)',
      });
      assert.deepEqual(bytes(), before);
      const rv = review(item('example-plugin'), w.ctx);
      assert.ok(rv.ok);
      assert.equal(rv.value.status, 'content-changed');
    });

    it('refuses when the reviewed copy was deleted between trust and enable', async () => {
      writeW(w.f);
      await w.trustNow('example-plugin');
      fs.rmSync(w.store.reviewedCopiesDir, { recursive: true, force: true });
      const before = bytes();
      const r = await enable(item('example-plugin'), w.ctx);
      assert.deepEqual(r, {
        ok: false,
        message:
          'Plugin bundle `example-plugin` has no verified snapshot of what was reviewed; review and trust it again before enablement',
      });
      assert.deepEqual(bytes(), before);
      assert.equal(entryOf('example-plugin')?.enabled, false);
    });

    it('refuses when the reviewed copy was edited between trust and enable', async () => {
      writeW(w.f);
      await w.trustNow('example-plugin');
      const copied = path.join(
        w.store.reviewedCopiesDir,
        item('example-plugin').contentHash as string,
        'skills/example/SKILL.md',
      );
      fs.chmodSync(copied, 0o644);
      fs.writeFileSync(copied, 'not what was reviewed\n');
      const before = bytes();
      const r = await enable(item('example-plugin'), w.ctx);
      assert.ok(!r.ok);
      assert.match(r.message, /has no verified snapshot of what was reviewed/);
      assert.deepEqual(bytes(), before);
      assert.equal(entryOf('example-plugin')?.enabled, false);
    });

    it('refuses a bundle whose skill Codewhale cannot load from its snapshot (it would switch on nothing)', async () => {
      writeW(w.f);
      w.f.write(`${W}/skills/bad/SKILL.md`, 'no heading here');
      await w.trustNow('example-plugin');
      const before = bytes();
      const r = await enable(item('example-plugin'), w.ctx);
      assert.deepEqual(r, {
        ok: false,
        message:
          'Plugin bundle `example-plugin` has no verified snapshot: a skill in it cannot be loaded (see its skill-invalid problems); fix it, then review and trust it again before enablement',
      });
      assert.deepEqual(bytes(), before);
      assert.equal(entryOf('example-plugin')?.enabled, false);
    });

    it('refuses a bundle whose [when] excludes this host, at enable time and not only at index time', async () => {
      writeD(w.f, '[when]\nos = ["windows"]\n', 'ws/.codewhale/plugins/demo');
      await w.trustNow('demo');
      const before = bytes();
      const r = await enable(item('demo'), w.ctx);
      assert.deepEqual(r, { ok: false, message: 'Plugin bundle `demo` does not apply to this host' });
      assert.deepEqual(bytes(), before);
      assert.equal(entryOf('demo')?.enabled, false);
      // The same bundle on a host it names is enabled.
      const windows = { ...w.ctx, host: { os: 'windows', hasBinary: () => true } };
      assert.ok((await enable(item('demo'), windows)).ok);
    });

    it('refuses an unsupported bundle, naming its inactive components', async () => {
      writeD(w.f, '[lsp]\npath = "lsp"\n', 'ws/.codewhale/plugins/demo');
      w.f.mkdir('ws/.codewhale/plugins/demo/lsp');
      await w.trustNow('demo');
      const before = bytes();
      const r = await enable(item('demo'), w.ctx);
      assert.deepEqual(r, {
        ok: false,
        message: 'Plugin bundle `demo` has no supported declarative components to activate; inactive: lsp',
      });
      assert.deepEqual(bytes(), before);
    });

    it('refuses in Restricted Mode, after the trust checks (an untrusted bundle is told to get reviewed first)', async () => {
      writeW(w.f);
      const restricted = { ...w.ctx, workspaceTrusted: false };
      const early = await enable(item('example-plugin'), restricted);
      assert.ok(!early.ok);
      assert.match(early.message, /requires review before enablement \(trust: not-reviewed\)/);
      await w.trustNow('example-plugin');
      const before = bytes();
      const r = await enable(item('example-plugin'), restricted);
      assert.deepEqual(r, {
        ok: false,
        message: 'Restricted Mode: trust the workspace in VS Code before enabling its bundles.',
      });
      assert.deepEqual(bytes(), before);
    });

    it('enables a trusted bundle: the bit turns on, the generation moves, no partial note for a full bundle', async () => {
      writeW(w.f);
      await w.trustNow('example-plugin');
      const r = await enable(item('example-plugin'), w.ctx);
      assert.ok(r.ok);
      assert.equal(r.value.note, null);
      assert.deepEqual([entryOf('example-plugin')?.enabled, entryOf('example-plugin')?.generation], [true, 2]);
      assert.deepEqual(entryOf('example-plugin')?.trust?.contentHash, item('example-plugin').contentHash);
    });
  });

  describe('disable and revoke', () => {
    for (const [name, op] of [
      ['disable', disable],
      ['revoke', revoke],
    ] as const) {
      it(`${name} refuses on an unavailable store and leaves the file as it was`, async () => {
        writeW(w.f);
        await w.trustNow('example-plugin');
        await enable(item('example-plugin'), w.ctx);
        const s = snap();
        fs.writeFileSync(w.store.file, 'null', { mode: 0o600 });
        const r = await op(item('example-plugin', s), w.ctx);
        assert.ok(!r.ok);
        assert.match(r.message, /^The trust store is unavailable: .*schema version undefined/);
        assert.equal(fs.readFileSync(w.store.file, 'utf8'), 'null');
      });

      it(`${name} refuses what is not a bundle`, async () => {
        writeW(w.f);
        const r = await op(item('example-plugin:example'), w.ctx);
        assert.deepEqual(r, {
          ok: false,
          message:
            'example-plugin:example is not a trust unit; only these are trusted: Rivumi plugins and the Rivumi hooks file; Codewhale bundles; Eva skill adapters and lua_skills',
        });
        assert.ok(!fs.existsSync(w.store.file));
      });

      it(`${name} of a bundle with no entry changes nothing and adds no entry`, async () => {
        writeW(w.f);
        const r = await op(item('example-plugin'), w.ctx);
        assert.deepEqual(r, { ok: true, value: { changed: false } });
        const read = w.store.read();
        assert.ok(read.ok);
        assert.deepEqual(Object.keys(read.state.bundles), []);
      });
    }

    it('names the unavailable store before saying a child is not a bundle', async () => {
      writeW(w.f);
      fs.mkdirSync(w.f.path('state'), { mode: 0o700 });
      breakStore();
      for (const op of [disable, revoke]) {
        const r = await op(item('example-plugin:example'), w.ctx);
        assert.ok(!r.ok);
        assert.match(r.message, UNAVAILABLE);
      }
    });

    it('disable turns the bit off and keeps the receipt', async () => {
      writeW(w.f);
      await w.trustNow('example-plugin');
      await enable(item('example-plugin'), w.ctx);
      const receipt = entryOf('example-plugin')?.trust;
      assert.deepEqual(await disable(item('example-plugin'), w.ctx), { ok: true, value: { changed: true } });
      const e = entryOf('example-plugin');
      assert.deepEqual([e?.enabled, e?.generation, e?.trust], [false, 3, receipt]);
    });

    it('revoke drops the receipt and keeps the history and the enable bit', async () => {
      writeW(w.f);
      await w.trustNow('example-plugin');
      await enable(item('example-plugin'), w.ctx);
      const history = entryOf('example-plugin')?.reviewHistory;
      assert.deepEqual(await revoke(item('example-plugin'), w.ctx), { ok: true, value: { changed: true } });
      const e = entryOf('example-plugin');
      assert.deepEqual([e?.trust, e?.enabled, e?.generation, e?.reviewHistory], [null, true, 3, history]);
      const i = item('example-plugin');
      assert.deepEqual([i.trust, i.enabled, i.decision], ['not-reviewed', true, 'disabled']);
    });
  });

  describe('check', () => {
    it('on a broken trust store never passes, and lists only the bundles the agents load, as a readable store does', async () => {
      writeW(w.f);
      writeD(w.f, '', 'ws/.codewhale/plugins/demo');
      w.f.write('ws/.rivumi/plugins/pk.json', '{"name":"pk"}');
      await w.trustNow('example-plugin');
      await w.trustNow('pk');
      await enable(item('example-plugin'), w.ctx);
      const readable = snap();
      assert.deepEqual(check(readable), []);
      assert.equal(checkPasses(readable, []), true);
      breakStore();
      const s = snap();
      const failures = check(s);
      // Rivumi loads its plugin whatever the store says; Codewhale enables nothing from a store
      // it cannot read (codewhale.md §8.1), so neither Codewhale bundle is named as loaded.
      assert.deepEqual(
        failures.map((x) => [x.item.name, x.problem]),
        [['pk', STORE_UNAVAILABLE_PROBLEM]],
      );
      assert.equal(checkPasses(s, failures), false);
      assert.equal(checkPasses(s, []), false, 'an unreadable store fails the gate with nothing listed');
    });

    it('fails an enabled bundle that turned invalid, with its reasons', async () => {
      writeW(w.f);
      await w.trustNow('example-plugin');
      await enable(item('example-plugin'), w.ctx);
      fs.appendFileSync(w.f.path(`${W}/plugin.toml`), 'unknown = 1\n');
      const s = snap();
      const i = byName(s, 'example-plugin');
      assert.equal(i.decision, 'rejected');
      assert.deepEqual(
        check(s).map((x) => [x.item.name, x.problem]),
        [['example-plugin', `it is invalid (${i.reasons.join(', ')})`]],
      );
    });

    it('lists every reason of an invalid bundle, comma-separated', async () => {
      writeW(w.f);
      await w.trustNow('example-plugin');
      await enable(item('example-plugin'), w.ctx);
      const s = snap();
      const i = byName(s, 'example-plugin');
      const rejected: Item = { ...i, decision: 'rejected', reasons: ['manifest_invalid', 'content_changed'] };
      assert.deepEqual(
        check({ ...s, items: s.items.map((x) => (x.id === i.id ? rejected : x)) }).map((x) => x.problem),
        ['it is invalid (manifest_invalid, content_changed)'],
      );
    });

    it('passes a Rivumi plugin past the plugin cap (display only: Rivumi never reads it), and fails the ones it loads', () => {
      for (let n = 1; n <= 17; n++)
        w.f.write(
          `ws/.rivumi/plugins/p${String(n).padStart(2, '0')}.json`,
          `{"name":"p${String(n).padStart(2, '0')}"}`,
        );
      const s = snap();
      const capped = s.items.filter((i) => i.kind === 'plugin' && i.decision === 'display_only').map((i) => i.name);
      assert.equal(capped.length, 1, 'one plugin past the cap');
      const failing = check(s).map((x) => x.item.name);
      assert.equal(failing.length, 16);
      assert.ok(!failing.includes(capped[0] as string));
    });

    it('fails an enabled bundle whose capabilities changed, saying so', async () => {
      writeW(w.f);
      await w.trustNow('example-plugin');
      await enable(item('example-plugin'), w.ctx);
      fs.appendFileSync(w.f.path(`${W}/plugin.toml`), '[commands]\npath = "skills"\n');
      assert.deepEqual(
        check(snap()).map((x) => x.problem),
        ['it changed since it was trusted (capabilities-changed)'],
      );
    });

    it('fails an enabled bundle whose receipt was revoked as not reviewed', async () => {
      writeW(w.f);
      await w.trustNow('example-plugin');
      await enable(item('example-plugin'), w.ctx);
      await revoke(item('example-plugin'), w.ctx);
      assert.deepEqual(
        check(snap()).map((x) => x.problem),
        ['it is not reviewed'],
      );
    });

    it('passes a changed Codewhale bundle that is not enabled (Codewhale does not load it)', async () => {
      writeW(w.f);
      await w.trustNow('example-plugin');
      w.f.write(`${W}/notes.txt`, 'new');
      assert.deepEqual(check(snap()), []);
    });

    it('passes an enabled, changed bundle that a user bundle of the same name shadows (it is not loaded)', async () => {
      writeD(w.f, '', 'ws/.codewhale/plugins/demo');
      await w.trustNow('demo');
      await enable(item('demo'), w.ctx);
      w.f.write('ws/.codewhale/plugins/demo/notes.txt', 'changed');
      writeD(w.f);
      const s = snap('ws', { codewhaleHome: w.f.path('home') });
      const shadowed = s.items.find((i) => i.name === 'demo' && i.scope === 'workspace') as Item;
      assert.deepEqual([shadowed.decision, shadowed.enabled, shadowed.trust], ['shadowed', true, 'content-changed']);
      assert.deepEqual(check(s), []);
    });

    it('fails what Skillgate could not read (an internal fault), whatever its trust', async () => {
      writeW(w.f);
      await w.trustNow('example-plugin');
      await enable(item('example-plugin'), w.ctx);
      const s = snap();
      const i = byName(s, 'example-plugin');
      const faulted: Snapshot = {
        ...s,
        diagnostics: [
          ...s.diagnostics,
          {
            code: 'skillgate.internal',
            severity: 'error',
            message: 'boom',
            itemId: i.id,
            file: i.path,
            range: null,
          } as unknown as Snapshot['diagnostics'][number],
        ],
      };
      assert.deepEqual(
        check(faulted).map((x) => [x.item.name, x.problem]),
        [
          [
            'example-plugin',
            'Skillgate could not read it (internal error), so it cannot say what the agent would load',
          ],
        ],
      );
      // A fault that names no item fails nothing by itself.
      const general: Snapshot = {
        ...s,
        diagnostics: [
          ...s.diagnostics,
          {
            code: 'skillgate.internal',
            severity: 'error',
            message: 'boom',
            itemId: null,
            file: i.path,
            range: null,
          } as unknown as Snapshot['diagnostics'][number],
        ],
      };
      assert.deepEqual(check(general), []);
    });
  });

  describe('doctor', () => {
    const hexName = (c: string) => c.repeat(64);

    it('lists stale receipts and unreferenced snapshots without deleting anything; --prune removes only those', async () => {
      writeW(w.f);
      writeD(w.f, '', 'ws/.codewhale/plugins/demo');
      await w.trustNow('example-plugin');
      const firstHash = item('example-plugin').contentHash as string;
      w.f.write(`${W}/notes.txt`, 'second review');
      await w.trustNow('example-plugin');
      const secondHash = item('example-plugin').contentHash as string;
      await w.trustNow('demo');
      const demoKey = item('demo').detail.bundleKey as string;
      fs.rmSync(w.f.path('ws/.codewhale/plugins/demo'), { recursive: true });
      fs.mkdirSync(path.join(w.store.reviewedCopiesDir, hexName('e')));
      fs.mkdirSync(path.join(w.store.reviewedCopiesDir, '.staging-0123'));
      fs.mkdirSync(path.join(w.store.reviewedCopiesDir, 'notes'));
      fs.mkdirSync(path.join(w.store.reviewedCopiesDir, `old-${hexName('e')}`));
      fs.mkdirSync(path.join(w.store.reviewedCopiesDir, `${hexName('e')}.old`));
      // A revoked receipt: its entry has no trust, only history.
      w.f.write(
        'ws/.codewhale/plugins/revoked/plugin.toml',
        'schema_version = 1\n[plugin]\nname = "revoked"\nversion = "1.0.0"\n',
      );
      await w.trustNow('revoked');
      await revoke(item('revoked'), w.ctx);
      const listed = fs.readdirSync(w.store.reviewedCopiesDir).sort();
      // Copies made in the last hour may belong to a trust in progress (TrustStore.reviewedCopies).
      assert.deepEqual(doctor(w.store).unreferencedSnapshots, []);
      const later = Date.now() + 2 * 60 * 60 * 1000;

      const report = doctor(w.store, { now: later });
      assert.equal(report.problem, null);
      assert.equal(report.bundles, 3);
      assert.deepEqual(report.staleReceipts, [
        { key: demoKey, name: 'demo', path: w.f.path('ws/.codewhale/plugins/demo') },
      ]);
      assert.deepEqual([...report.unreferencedSnapshots].sort(), ['.staging-0123', hexName('e')]);
      assert.deepEqual(report.pruned, []);
      assert.equal(report.movedAside, null);
      assert.deepEqual(fs.readdirSync(w.store.reviewedCopiesDir).sort(), listed, 'plain doctor deletes nothing');

      const pruned = doctor(w.store, { prune: true, now: later });
      assert.deepEqual([...pruned.pruned].sort(), ['.staging-0123', hexName('e')]);
      // Snapshots a receipt or its history refers to stay, and so do names that are not snapshots.
      assert.ok(fs.existsSync(path.join(w.store.reviewedCopiesDir, firstHash)), 'referenced by the history');
      assert.ok(fs.existsSync(path.join(w.store.reviewedCopiesDir, secondHash)), 'referenced by the receipt');
      assert.ok(fs.existsSync(path.join(w.store.reviewedCopiesDir, 'notes')));
      assert.deepEqual(doctor(w.store, { now: later }).unreferencedSnapshots, []);
    });

    it('reports a broken store and neither prunes nor moves it without --repair', async () => {
      writeW(w.f);
      await w.trustNow('example-plugin');
      fs.mkdirSync(path.join(w.store.reviewedCopiesDir, hexName('e')));
      breakStore();
      const report = doctor(w.store, { prune: true });
      assert.match(report.problem ?? '', /not valid JSON/);
      assert.deepEqual(
        [report.bundles, report.staleReceipts, report.unreferencedSnapshots, report.pruned, report.movedAside],
        [0, [], [], [], null],
      );
      assert.ok(fs.existsSync(path.join(w.store.reviewedCopiesDir, hexName('e'))));
      assert.equal(fs.readFileSync(w.store.file, 'utf8'), '{"schemaVersion":1,"bundles":');
    });

    it('reports an empty store with no snapshots directory as healthy', () => {
      assert.deepEqual(doctor(w.store), {
        store: w.store.file,
        problem: null,
        repairable: false,
        bundles: 0,
        staleReceipts: [],
        unreferencedSnapshots: [],
        pruned: [],
        notPruned: null,
        movedAside: null,
        setAside: [],
      });
    });
  });
});
