import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import {
  POLICY_V3,
  POLICY_V5,
  policyDigest,
  type ActivationPolicy,
} from '../../src/core/systems/codewhale/activationPolicy';
import { capabilityHash, capabilityHashV1 } from '../../src/core/systems/codewhale/capabilityHash';
import { hashBundleContent } from '../../src/core/hashing/bundleContent';
import { bundleKey } from '../../src/core/hashing/identity';
import { codewhaleFileHash, codewhalePluginId, codewhaleStageKey } from '../../src/core/systems/codewhale/identity';
import { Fixture, index, writeW, byName } from './helpers/fixture';

const EMPTY: [string, string][] = [
  ['agents', '0'],
  ['commands', '0'],
  ['filesystem', ''],
  ['hooks', '0'],
  ['lifecycle', 'false'],
  ['lsp', '0'],
  ['mcp', '0'],
  ['mcp-remote', '0'],
  ['mcp-stdio', '0'],
  ['native', '0'],
  ['network', ''],
  ['skills', '0'],
];
const pairs = (over: Record<string, string> = {}, extra: [string, string][] = []) =>
  new Map([...EMPTY, ...extra, ...Object.entries(over)]);

describe('hashes (codewhale.md §7, trust.md)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  describe('activation policy digests pinned upstream', () => {
    it('hashes policy v3 exactly as upstream pins it', () => {
      assert.equal(policyDigest(POLICY_V3), '1d8de17f08b1ef6246454881bfc38b7cd2855d56c9c6e3fdb11c54e4f756df85');
    });
    it('hashes policy v5 exactly as upstream pins it', () => {
      assert.equal(policyDigest(POLICY_V5), 'f0584fdb007b7987b0934517c8723b96190137771795ed33b38499b9353aa7cf');
    });
    it('lists every capability label in exactly one policy list', () => {
      for (const p of [POLICY_V3, POLICY_V5]) {
        const all = [...p.supported, ...p.inactive];
        assert.equal(new Set(all).size, all.length);
      }
    });
  });

  describe('capability hash vectors', () => {
    const v5 = (over: Record<string, string> = {}) => pairs(over, [['providers', '0']]);
    const cases: [string, ActivationPolicy, Map<string, string>, string][] = [
      ['empty inventory, v3', POLICY_V3, pairs(), '21955eb063409a94f89e192efb28a877ae626fdc38d1a3130779005fa22c9a34'],
      [
        'skills=1, v3',
        POLICY_V3,
        pairs({ skills: '1' }),
        '2bab6e1754daaf6ae33b73d20434ee22dd8eba2557dfc55c0d32af4ae6a6c7e2',
      ],
      [
        'one remote server on example.invalid, v3',
        POLICY_V3,
        pairs({ mcp: '1', 'mcp-remote': '1', network: 'example.invalid' }),
        '4a91787ca114685d2bfa09499757c8d99ccd1602c0cd2c02a6c0649f03da3e36',
      ],
      [
        'skills, commands and lsp, v3',
        POLICY_V3,
        pairs({ skills: '1', commands: '1', lsp: '1' }),
        'c76d5ebacc6d0b53ddec472434217cd22d2c2af23942e22a92cdaa339e3c128d',
      ],
      [
        'stdio and remote servers, v3',
        POLICY_V3,
        pairs({ mcp: '2', 'mcp-stdio': '1', 'mcp-remote': '1', skills: '1', network: 'example.com' }),
        'eb392430b46fe7904b5a31001602ba34dcd0ae84939fac1b31bc2526fa7e39db',
      ],
      ['empty inventory, v5', POLICY_V5, v5(), 'ac1752d4ee010e8abb8e5da47ea9f81909566158e0025adb1fce71572f0b815e'],
      [
        'skills=1, v5',
        POLICY_V5,
        v5({ skills: '1' }),
        '3ec4ec433ba4a207477ab667b30d98e92bbb9bada2744e271fb7d18736241f3c',
      ],
      [
        'one remote server, v5',
        POLICY_V5,
        v5({ mcp: '1', 'mcp-remote': '1', network: 'example.invalid' }),
        'd594b497cdae09454b53e1e355555c0e049ad967b441418367e27cf710f2d096',
      ],
    ];
    for (const [name, policy, p, expected] of cases)
      it(`matches the vector for ${name}`, () => assert.equal(capabilityHash(policy, p), expected));

    it('matches the v1-domain vector (whose pair set has the 13 keys of the v5 era) and never a current hash', () => {
      // The spec's v1 vector reproduces only with `providers` among the pairs; noted in docs/hashes.md.
      const v1 = capabilityHashV1(pairs({ skills: '1' }, [['providers', '0']]));
      assert.equal(v1, '01afa410946bb9e8b065b15c067cf6a09076c487f2650d5f8005e41f524effe2');
      assert.notEqual(v1, capabilityHash(POLICY_V3, pairs({ skills: '1' })));
    });

    it('changes every capability hash when hooks move to inactive or the version is bumped', () => {
      const base = capabilityHash(POLICY_V3, pairs());
      const moved: ActivationPolicy = {
        ...POLICY_V3,
        supported: POLICY_V3.supported.filter((c) => c !== 'hooks'),
        inactive: [...POLICY_V3.inactive, 'hooks'],
      };
      assert.notEqual(capabilityHash(moved, pairs()), base);
      assert.notEqual(capabilityHash({ ...POLICY_V3, version: 4 }, pairs()), base);
    });
  });

  describe('content hash, domain v2', () => {
    const A = 'schema_version = 1\n[plugin]\nname = "framing"\nversion = "1.0.0"\n';
    const hashOf = (dir: string, label: string, manifest: string) => {
      const r = hashBundleContent(dir, label, Buffer.from(manifest), () => false);
      assert.ok(r.ok, r.ok ? '' : r.message);
      return r.contentHash;
    };

    it('matches bundle A (only plugin.toml, mode 0644)', () => {
      f.write('A/plugin.toml', A, 0o644);
      fs.chmodSync(f.path('A'), 0o755);
      assert.equal(
        hashOf(f.path('A'), 'plugin.toml', A),
        '023499279550a0aceac9e0bf5b255c62295889fbf2f75f6356cbfcf6eaa62b79',
      );
    });

    it('matches bundle A with an executable plugin.toml (mode 0755)', () => {
      f.write('A/plugin.toml', A, 0o755);
      assert.equal(
        hashOf(f.path('A'), 'plugin.toml', A),
        'deb05f2f40334b27505bd986e382c92570c72c52a36ba42c51fbdbf6fab0a58e',
      );
    });

    it('matches bundle B, its per-file hashes and its review token', () => {
      const dir = writeW(f, '', 'ws/.codewhale/plugins/b');
      const manifest = fs.readFileSync(`${dir}/plugin.toml`, 'utf8');
      assert.equal(
        hashOf(dir, 'plugin.toml', manifest),
        'b1a2eed2e26e16c7028c8f9801e41b3a8bd6b5850a24aa43e633fd2cc2ef0cc6',
      );
      assert.equal(
        codewhaleFileHash(Buffer.from(manifest)),
        '6775943b81a483471ba1f37287d24544c4872b236942ff571881f388a2c96d87',
      );
      assert.equal(
        codewhaleFileHash(fs.readFileSync(`${dir}/skills/example/SKILL.md`)),
        'b425ca190020fd697161655ffc881170c881faee6be51687fa7f3216c40bdb07',
      );
      const item = byName(index([f.path('ws')]), 'example-plugin');
      assert.equal(
        item.reviewToken,
        'b1a2eed2e26e16c7028c8f9801e41b3a8bd6b5850a24aa43e633fd2cc2ef0cc6.2bab6e1754daaf6ae33b73d20434ee22dd8eba2557dfc55c0d32af4ae6a6c7e2',
      );
    });

    it('matches bundle D (plugin.json without a trailing newline)', () => {
      const d =
        '{"$schema": "https://agent-plugins.org/schemas/plugin.json", "name": "json-native", "version": "1.0.0"}';
      f.write('D/plugin.json', d, 0o644);
      assert.equal(
        hashOf(f.path('D'), 'plugin.json', d),
        '2275f62afdf7b0b338ee9d31d2fac072e0c38c2657ac2360eb36fb344eb0ead1',
      );
    });

    it('changes the content hash and not the capability hash when SKILL.md is edited', () => {
      writeW(f);
      const before = byName(index([f.path('ws')]), 'example-plugin');
      f.write(
        'ws/.codewhale/plugins/example-plugin/skills/example/SKILL.md',
        '---\nname: example\ndescription: example\n---\nchanged\n',
      );
      const after = byName(index([f.path('ws')]), 'example-plugin');
      assert.notEqual(after.contentHash, before.contentHash);
      assert.equal(after.capabilityHash, before.capabilityHash);
    });

    it('does not depend on file creation order, and an undeclared z.txt changes only the content hash', () => {
      f.write('one/plugin.toml', A);
      f.write('one/a.txt', 'a');
      f.write('one/z.txt', 'z');
      f.write('two/z.txt', 'z');
      f.write('two/a.txt', 'a');
      f.write('two/plugin.toml', A);
      assert.equal(hashOf(f.path('one'), 'plugin.toml', A), hashOf(f.path('two'), 'plugin.toml', A));
      f.write('two/z.txt', 'zz');
      assert.notEqual(hashOf(f.path('one'), 'plugin.toml', A), hashOf(f.path('two'), 'plugin.toml', A));
      // "changes the content hash only" (§10.4 case 2): the capability hash of the bundle stays.
      writeW(f);
      f.write('ws/.codewhale/plugins/example-plugin/z.txt', 'z');
      const before = byName(index([f.path('ws')]), 'example-plugin');
      f.write('ws/.codewhale/plugins/example-plugin/z.txt', 'zz');
      const after = byName(index([f.path('ws')]), 'example-plugin');
      assert.notEqual(after.contentHash, before.contentHash);
      assert.equal(after.capabilityHash, before.capabilityHash);
    });

    it('sorts a listing the file system gives in another order (Windows lists names unsorted; Node on Unix sorts them)', () => {
      f.write('b/plugin.toml', A);
      f.write('b/Zeta/b.txt', 'b');
      f.write('b/a.txt', 'a');
      f.write('b/B.txt', 'B');
      const sorted = hashOf(f.path('b'), 'plugin.toml', A);
      const nodeFs = require('node:fs') as typeof import('node:fs');
      const realReaddir = nodeFs.readdirSync;
      // Case-insensitive and reversed, as no byte order is: a, B, plugin.toml, Zeta → Zeta, plugin.toml, B, a.
      nodeFs.readdirSync = ((...args: unknown[]) => {
        const listed = (realReaddir as (...a: unknown[]) => { name: string | Buffer }[])(...args);
        return listed.sort((x, y) => String(y.name).toLowerCase().localeCompare(String(x.name).toLowerCase()));
      }) as typeof nodeFs.readdirSync;
      try {
        assert.equal(hashOf(f.path('b'), 'plugin.toml', A), sorted);
      } finally {
        nodeFs.readdirSync = realReaddir;
      }
    });

    it('frames records so that one file cannot spell two', () => {
      f.write('x/plugin.toml', A);
      f.write('x/a.bin', 'alpha');
      f.write('x/b.bin', 'omega');
      f.write('y/plugin.toml', A);
      f.write(
        'y/a.bin',
        Buffer.concat([
          Buffer.from('alpha'),
          Buffer.from('unix-executable\0\0F\0'),
          Buffer.from('b.bin'),
          Buffer.from('omega'),
        ]),
      );
      assert.notEqual(hashOf(f.path('x'), 'plugin.toml', A), hashOf(f.path('y'), 'plugin.toml', A));
    });

    it('hashes non-UTF-8 names by their raw bytes', () => {
      f.write('p/plugin.toml', A);
      f.write('q/plugin.toml', A);
      fs.writeFileSync(Buffer.concat([Buffer.from(f.path('p') + '/a'), Buffer.from([0xff])]), 'same');
      fs.writeFileSync(Buffer.concat([Buffer.from(f.path('q') + '/a'), Buffer.from([0xfe])]), 'same');
      assert.notEqual(hashOf(f.path('p'), 'plugin.toml', A), hashOf(f.path('q'), 'plugin.toml', A));
    });

    it('walks in byte order of the raw names, whatever the names are (against a reference walk)', () => {
      // U+FF01 sorts before U+1F600 in UTF-8 bytes but after it in UTF-16 units.
      f.write('r/plugin.json', '{"name":"r"}');
      f.write('r/\uff01.md', 'fullwidth');
      f.write('r/\u{1f600}.md', 'emoji');
      f.write('r/Zeta/b.txt', 'b');
      f.write('r/alpha/deep/x.sh', '#!/bin/sh\n', 0o755);
      f.write('r/alpha/a.txt', 'a');
      f.mkdir('r/empty');
      fs.writeFileSync(Buffer.concat([Buffer.from(f.path('r/alpha') + '/n'), Buffer.from([0xff, 0x41])]), 'not utf-8');
      fs.writeFileSync(Buffer.concat([Buffer.from(f.path('r/alpha') + '/n'), Buffer.from([0x41])]), 'utf-8');
      const walked = hashBundleContent(f.path('r'), 'plugin.json', Buffer.from('{"name":"r"}'), () => false);
      assert.ok(walked.ok);
      assert.equal(
        walked.contentHash,
        referenceContentHash(Buffer.from(f.path('r')), 'plugin.json', Buffer.from('{"name":"r"}')),
      );
      assert.deepEqual(
        walked.files.filter((x) => x.rawPath).map((x) => [...(x.rawPath as Buffer)].slice(-3)),
        [[0x6e, 0xff, 0x41]],
      );
    });

    it('keeps plugin.toml and plugin.json bundles distinct through the label', () => {
      f.write('x/plugin.toml', A);
      assert.notEqual(hashOf(f.path('x'), 'plugin.toml', A), hashOf(f.path('x'), 'plugin.json', A));
    });
  });

  describe('identity', () => {
    it('computes the upstream plugin id and stage key', () => {
      const id = codewhalePluginId('user', Buffer.from('/home/u/.codewhale/plugins/demo'), 'demo');
      assert.equal(id, 'user/9989b690fad8/demo');
      assert.equal(codewhaleStageKey(id), 'ba0699d0c04fc3c09cb8df7351f42c33b6d20a04526a9e894c61701c9b166063');
    });
    it('gives roots p\\xff and p\\xfe different plugin ids', () => {
      const a = codewhalePluginId('workspace', Buffer.from([0x70, 0xff]), 'x');
      const b = codewhalePluginId('workspace', Buffer.from([0x70, 0xfe]), 'x');
      assert.notEqual(a, b);
    });
    it('binds a bundle key to system, scope, path and name', () => {
      const k = bundleKey('codewhale', 'workspace', '/a/b', 'demo');
      assert.notEqual(k, bundleKey('codewhale', 'workspace', '/a/c', 'demo'));
      assert.notEqual(k, bundleKey('codewhale', 'user', '/a/b', 'demo'));
      assert.notEqual(k, bundleKey('codewhale', 'workspace', '/a/b', 'demo2'));
      assert.notEqual(k, bundleKey('rivumi', 'workspace', '/a/b', 'demo'));
    });
  });
});

/**
 * The v2 content hash written out from codewhale.md §7.1-§7.2 with nothing shared with
 * the implementation: Buffer names, sorted with Buffer.compare, lstat per entry.
 */
function referenceContentHash(root: Buffer, label: string, manifest: Buffer): string {
  const h = createHash('sha256');
  const u64 = (n: number) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    return b;
  };
  const frame = (domain: string, rel: Buffer) =>
    Buffer.concat([
      Buffer.from('codewhale-os-path-v1\0'),
      u64(Buffer.byteLength(domain)),
      Buffer.from(domain),
      Buffer.from('unix-bytes\0'),
      u64(rel.length),
      rel,
    ]);
  h.update(Buffer.concat([Buffer.from(`codewhale-plugin-content-v2\0${label}\0`), u64(manifest.length), manifest]));
  const walk = (abs: Buffer, rel: Buffer): void => {
    h.update(
      Buffer.concat([
        Buffer.from('unix-executable\0'),
        Buffer.from([0]),
        Buffer.from('D\0'),
        frame('bundle-relative-directory', rel),
      ]),
    );
    for (const name of fs.readdirSync(abs, { encoding: 'buffer' }).sort(Buffer.compare)) {
      const a = Buffer.concat([abs, Buffer.from('/'), name]);
      const r = rel.length === 0 ? name : Buffer.concat([rel, Buffer.from('/'), name]);
      const st = fs.lstatSync(a);
      if (st.isDirectory()) walk(a, r);
      else {
        const bytes = fs.readFileSync(a);
        h.update(
          Buffer.concat([
            Buffer.from('unix-executable\0'),
            Buffer.from([st.mode & 0o111 ? 1 : 0]),
            Buffer.from('F\0'),
            frame('bundle-relative-file', r),
            u64(bytes.length),
            bytes,
          ]),
        );
      }
    }
    h.update('E\0');
  };
  walk(root, Buffer.alloc(0));
  return h.digest('hex');
}
