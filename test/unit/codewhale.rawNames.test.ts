import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { run } from '../../src/cli/main';
import { Indexer } from '../../src/core/index/indexer';
import { review } from '../../src/core/trust/reviewBundle';
import { trust } from '../../src/core/trust/grantTrust';
import { enable } from '../../src/core/trust/switches';
import { doctor } from '../../src/core/trust/doctor';
import { bundleKey } from '../../src/core/hashing/identity';
import { codewhalePluginId } from '../../src/core/systems/codewhale/identity';
import { byteOrder, decodeRawName, osBytes } from '../../src/core/fs/rawNames';
import { LINUX_HOST, top } from './helpers/fixture';
import { trustWorkspace } from './helpers/trustWorkspace';
import type { Item } from '../../src/core/model';

/** An absolute path with raw bytes appended (a name that is not UTF-8). */
function raw(dir: string, ...bytes: (string | number[])[]): Buffer {
  return Buffer.concat([
    Buffer.from(dir),
    ...bytes.map((b) => (typeof b === 'string' ? Buffer.from(b) : Buffer.from(b))),
  ]);
}

const DEMO_TOML = 'schema_version = 1\n[plugin]\nname = "demo"\nversion = "1.0.0"\n';

describe('raw names: Codewhale bundles and files whose names are not UTF-8 (codewhale.md §2.3, §7.1, §8.6)', () => {
  const w = trustWorkspace();

  const plugins = (): string => w.f.path('ws/.codewhale/plugins');
  const writeRaw = (p: Buffer, content: string) => {
    fs.mkdirSync(p.subarray(0, p.lastIndexOf(0x2f)), { recursive: true });
    fs.writeFileSync(p, content);
  };

  describe('the escaped spelling of raw names', () => {
    it('keeps valid UTF-8 as it is and maps every other byte to U+DC80-U+DCFF and back', () => {
      for (const bytes of [
        Buffer.from('plain'),
        Buffer.from('！😀'),
        Buffer.from([0x62, 0xff]),
        Buffer.from([0xe2, 0x82, 0x41]),
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from([0xf0, 0x9f, 0x98]),
        Buffer.from([0xc0, 0xaf, 0x80]),
      ]) {
        const s = decodeRawName(bytes);
        assert.deepEqual(osBytes(s), bytes, `round trip of ${bytes.toString('hex')}`);
      }
      assert.equal(decodeRawName(Buffer.from('！😀')), '！😀');
      assert.equal(decodeRawName(Buffer.from([0x62, 0xff])), 'b\udcff');
      assert.equal(decodeRawName(Buffer.from([0xe2, 0x82, 0x41])), '\udce2\udc82A');
      // A surrogate pair whose low half lies in U+DC80-U+DCFF is a character, not an escaped byte.
      assert.deepEqual(osBytes('\ud800\udc80'), Buffer.from('\ud800\udc80', 'utf8'));
    });

    it('round-trips any bytes exactly, and two different byte strings never read alike', () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 24 }), fc.uint8Array({ maxLength: 24 }), (a, b) => {
          const sa = decodeRawName(a);
          assert.deepEqual(osBytes(sa), Buffer.from(a));
          assert.equal(sa === decodeRawName(b), Buffer.from(a).equals(Buffer.from(b)));
          // Byte order of the spellings is the byte order of the names.
          assert.equal(
            Math.sign(byteOrder(sa, decodeRawName(b))),
            Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))),
          );
        }),
        { numRuns: 2000 },
      );
    });

    it('orders by UTF-8 bytes, not UTF-16 code units', () => {
      assert.ok(byteOrder('！', '😀') < 0);
      assert.ok('😀' < '！', 'UTF-16 order is the other way round');
    });
  });

  describe('a bundle directory whose name is not UTF-8 (issue 10, item 6)', () => {
    it('is discovered and listed with its item; its identity is computed from the raw bytes', () => {
      writeRaw(raw(plugins(), '/bad', [0xff], '/plugin.toml'), DEMO_TOML);
      const s = w.snapshot();
      const items = top(s).filter((i) => i.system === 'codewhale');
      assert.equal(items.length, 1, 'the bundle is listed');
      const item = items[0] as Item;
      assert.equal(item.name, 'demo');
      assert.deepEqual(osBytes(item.path), raw(plugins(), '/bad', [0xff]), 'the path keeps the raw bytes');
      const canonical = raw(plugins(), '/bad', [0xff]);
      assert.equal(item.id, codewhalePluginId('workspace', canonical, 'demo'));
      assert.notEqual(
        item.id,
        codewhalePluginId('workspace', Buffer.from(path.join(plugins(), 'bad\ufffd')), 'demo'),
        'not the id of the lossy spelling',
      );
      assert.equal(item.detail.bundleKey, bundleKey('codewhale', 'workspace', decodeRawName(canonical), 'demo'));
      assert.notEqual(
        item.detail.bundleKey,
        bundleKey('codewhale', 'workspace', path.join(plugins(), 'bad\ufffd'), 'demo'),
      );
      assert.deepEqual([item.decision, item.reasons], ['disabled', ['not_reviewed', 'not_enabled']]);
    });

    it('gives two directories that differ only in bytes that are not UTF-8 two identities', () => {
      writeRaw(raw(plugins(), '/bad', [0xff], '/plugin.toml'), DEMO_TOML);
      writeRaw(raw(plugins(), '/bad', [0xfe], '/plugin.toml'), DEMO_TOML);
      const items = top(w.snapshot()).filter((i) => i.system === 'codewhale');
      assert.equal(items.length, 2);
      assert.notEqual(items[0]?.id, items[1]?.id);
      assert.notEqual(items[0]?.detail.bundleKey, items[1]?.detail.bundleKey);
      assert.equal(items.filter((i) => i.decision === 'shadowed').length, 1, 'one name, so one shadows the other');
    });

    it('hashes as the same content as a copy at a UTF-8 name (the directory name is not content)', () => {
      writeRaw(raw(plugins(), '/bad', [0xff], '/plugin.toml'), DEMO_TOML);
      w.f.write('other/.codewhale/plugins/good/plugin.toml', DEMO_TOML);
      const bad = top(w.snapshot()).find((i) => i.system === 'codewhale') as Item;
      const good = top(
        new Indexer({ workspaces: [w.f.path('other')], codewhaleHome: null, host: LINUX_HOST }).indexAll(),
      )[0] as Item;
      assert.equal(bad.contentHash, good.contentHash);
      assert.ok(bad.contentHash);
    });

    it('lists an invalid bundle there with its diagnostics, which name its item', () => {
      writeRaw(raw(plugins(), '/bad', [0xff], '/plugin.toml'), 'schema_version = 1\n[plugin\nname = "demo"\n');
      const s = w.snapshot();
      const item = top(s).find((i) => i.system === 'codewhale') as Item;
      assert.ok(item, 'the invalid bundle is listed');
      assert.equal(item.decision, 'rejected');
      assert.equal(item.name, 'bad\ufffd', 'the display name shows U+FFFD');
      const own = s.diagnostics.filter((d) => d.itemId === item.id);
      assert.ok(
        own.some((d) => d.severity === 'error'),
        'its error diagnostic is reported against it',
      );
      assert.deepEqual(osBytes(own[0]?.file as string), raw(plugins(), '/bad', [0xff], '/plugin.toml'));
    });

    it('prints the exact path in JSON (escaped, unambiguous) and writes valid SARIF', async () => {
      writeRaw(raw(plugins(), '/bad', [0xff], '/plugin.toml'), 'schema_version = 1\n[plugin]\nname = "Not Valid"\n');
      const env = { SKILLGATE_STATE_DIR: w.f.path('state') };
      const io = () => {
        const o = { out: '', err: '' };
        return {
          o,
          io: { out: (t: string) => (o.out += t), err: (t: string) => (o.err += t), env, cwd: w.f.path('ws') },
        };
      };
      const list = io();
      assert.equal(await run(['list', '--json', '--no-user'], list.io), 0);
      assert.match(list.o.out, /"path": "\.codewhale\/plugins\/bad\\udcff"/);
      const sarif = io();
      assert.equal(await run(['validate', '--format', 'sarif', '--no-user'], sarif.io), 1, sarif.o.err);
      assert.doesNotMatch(sarif.o.err, /internal error/);
      assert.ok(JSON.parse(sarif.o.out).runs[0].results.length > 0);
    });

    it('can be reviewed, trusted and enabled, and its snapshot verifies', async () => {
      writeRaw(raw(plugins(), '/bad', [0xff], '/plugin.toml'), DEMO_TOML);
      const item = () => top(w.snapshot()).find((i) => i.system === 'codewhale') as Item;
      const r = review(item(), w.ctx);
      assert.ok(r.ok, r.ok ? '' : r.message);
      const t = await trust(item(), r.value.reviewToken ?? '', w.ctx);
      assert.ok(t.ok, t.ok ? '' : t.message);
      const e = await enable(item(), w.ctx);
      assert.ok(e.ok, e.ok ? '' : e.message);
      assert.deepEqual([item().trust, item().decision], ['trusted', 'registered']);
      const state = w.store.read();
      assert.ok(state.ok);
      assert.deepEqual(
        osBytes(state.state.bundles[item().detail.bundleKey as string]?.path as string),
        raw(plugins(), '/bad', [0xff]),
        'the receipt records the exact canonical path',
      );
      assert.deepEqual(doctor(w.store).staleReceipts, [], 'doctor finds the bundle of that receipt');
    });
  });

  describe('a file whose name is not UTF-8 inside a bundle (issue 10, item 7)', () => {
    const badFile = () => raw(plugins(), '/demo/bad', [0xff]);

    it('hashes by the raw name and records the raw bytes beside the display path', () => {
      w.f.write('ws/.codewhale/plugins/demo/plugin.toml', DEMO_TOML);
      writeRaw(badFile(), 'one\n');
      const item = top(w.snapshot())[0] as Item;
      const file = item.detail.files?.find((x) => x.rawPath !== undefined);
      assert.ok(file, 'the file carries rawPath');
      assert.deepEqual(file.rawPath, Buffer.from([0x62, 0x61, 0x64, 0xff]));
      assert.equal(file.path, 'bad\udcff');
    });

    it('can be reviewed, trusted and enabled; the snapshot holds the raw name and the review diff works after a change', async () => {
      w.f.write('ws/.codewhale/plugins/demo/plugin.toml', DEMO_TOML);
      writeRaw(badFile(), 'one\n');
      const item = () => top(w.snapshot())[0] as Item;
      const r = review(item(), w.ctx);
      assert.ok(r.ok, r.ok ? '' : r.message);
      const t = await trust(item(), r.value.reviewToken ?? '', w.ctx);
      assert.ok(t.ok, t.ok ? '' : t.message);
      assert.equal(
        fs.readFileSync(raw(t.value.reviewedCopy, '/bad', [0xff]), 'utf8'),
        'one\n',
        'the snapshot copies the file under its raw name',
      );
      const e = await enable(item(), w.ctx);
      assert.ok(e.ok, e.ok ? '' : e.message);
      assert.deepEqual([item().trust, item().enabled, item().decision], ['trusted', true, 'registered']);

      fs.writeFileSync(badFile(), 'two\n');
      assert.equal(item().trust, 'content-changed');
      const again = review(item(), w.ctx);
      assert.ok(again.ok, again.ok ? '' : again.message);
      const change = again.value.diff?.files.find((c) => c.path === 'bad\udcff');
      assert.equal(change?.change, 'modified');
      assert.match(change?.unifiedDiff ?? '', /-one\n\+two/);
    });

    it('snapshots directories whose names are not UTF-8, empty ones included, so enable verifies the copy', async () => {
      w.f.write('ws/.codewhale/plugins/demo/plugin.toml', DEMO_TOML);
      writeRaw(raw(plugins(), '/demo/d', [0xff], '/inner', [0xfe], '.txt'), 'x\n');
      fs.mkdirSync(raw(plugins(), '/demo/empty', [0x80]));
      const item = () => top(w.snapshot())[0] as Item;
      const r = review(item(), w.ctx);
      assert.ok(r.ok, r.ok ? '' : r.message);
      const t = await trust(item(), r.value.reviewToken ?? '', w.ctx);
      assert.ok(t.ok, t.ok ? '' : t.message);
      assert.ok(fs.statSync(raw(t.value.reviewedCopy, '/empty', [0x80])).isDirectory());
      assert.equal(fs.readFileSync(raw(t.value.reviewedCopy, '/d', [0xff], '/inner', [0xfe], '.txt'), 'utf8'), 'x\n');
      const e = await enable(item(), w.ctx);
      assert.ok(e.ok, e.ok ? '' : e.message);
    });

    it('passes check after review, trust and enable through the CLI', async () => {
      w.f.write('ws/.codewhale/plugins/demo/plugin.toml', DEMO_TOML);
      writeRaw(badFile(), 'one\n');
      const env = { SKILLGATE_STATE_DIR: w.f.path('state') };
      const cli = async (args: string[]) => {
        let out = '';
        let err = '';
        const code = await run([...args, '--no-user'], {
          out: (t) => (out += t),
          err: (t) => (err += t),
          env,
          cwd: w.f.path('ws'),
        });
        return { code, out, err };
      };
      const rev = await cli(['review', 'demo', '--json']);
      assert.equal(rev.code, 0, rev.err);
      const doc = JSON.parse(rev.out);
      assert.ok(
        doc.files.some((x: { rawPath?: string }) => x.rawPath === '626164ff'),
        'rawPath is printed as hex',
      );
      const tr = await cli(['trust', 'demo', doc.reviewToken]);
      assert.equal(tr.code, 0, tr.err);
      assert.equal((await cli(['enable', 'demo'])).code, 0);
      const chk = await cli(['check']);
      assert.equal(chk.code, 0, chk.out + chk.err);
    });
  });
});
