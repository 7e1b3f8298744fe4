import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { directoryClose, directoryOpen, fileRecord, pathFrame, sha256Hex, u64le } from '../../src/core/hashing/framing';
import { byteOrder, joinSet } from '../../src/core/hashing/capabilityPairs';
import { capabilityHash, capabilityHashV1 } from '../../src/core/systems/codewhale/capabilityHash';
import { rivumiCapabilityHash } from '../../src/core/systems/rivumi/capabilityHash';
import { bundleKey, reviewToken } from '../../src/core/hashing/identity';
import { decodeRawName } from '../../src/core/fs/rawNames';
import { codewhaleFileHash, codewhalePluginId, codewhaleStageKey } from '../../src/core/systems/codewhale/identity';
import { POLICY_V3 } from '../../src/core/systems/codewhale/activationPolicy';

/**
 * The framing every hash is built from (codewhale.md §7.1): `u64le` lengths, `PATH(domain,
 * rel)`, file and directory records; and the identities built on it (§7.6, trust.md
 * "Bundle identity"). Each is checked against the bytes the spec spells out.
 */
describe('hash framing and identities, byte for byte (codewhale.md §7)', () => {
  const u64 = (n: bigint) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(n);
    return b;
  };
  const sha = (...parts: (string | Buffer)[]) => {
    const h = createHash('sha256');
    for (const p of parts) h.update(p);
    return h.digest('hex');
  };
  const PATH = (domain: string, rel: Buffer) =>
    Buffer.concat([
      Buffer.from('codewhale-os-path-v1\0'),
      u64(BigInt(Buffer.byteLength(domain))),
      Buffer.from(domain),
      Buffer.from('unix-bytes\0'),
      u64(BigInt(rel.length)),
      rel,
    ]);

  it('writes u64le for 0, 2^32-1, 2^32 + 5 and 2^53 - 1', () => {
    for (const n of [0, 1, 0xffffffff, 0x100000005, Number.MAX_SAFE_INTEGER])
      assert.deepEqual(u64le(n), u64(BigInt(n)), String(n));
  });

  it('frames a path as PATH(domain, rel), for a string and for raw bytes alike', () => {
    assert.deepEqual(pathFrame('canonical-plugin-root', '/a/b'), PATH('canonical-plugin-root', Buffer.from('/a/b')));
    assert.deepEqual(
      pathFrame('canonical-plugin-root', Buffer.from([0x70, 0xff])),
      PATH('canonical-plugin-root', Buffer.from([0x70, 0xff])),
    );
    assert.deepEqual(pathFrame('d', 'é'), PATH('d', Buffer.from('é')), 'a string is framed by its UTF-8 bytes');
  });

  it('hashes a file record as permission, F tag, framed path, length and bytes', () => {
    const bytes = Buffer.from('hello');
    for (const executable of [false, true]) {
      const h = createHash('sha256');
      fileRecord(h, 'dir/f.txt', executable, bytes);
      const expected = sha(
        Buffer.from(`unix-executable\0${executable ? '\x01' : '\0'}F\0`, 'latin1'),
        PATH('bundle-relative-file', Buffer.from('dir/f.txt')),
        u64(5n),
        bytes,
      );
      assert.equal(h.digest('hex'), expected);
    }
    const other = createHash('sha256');
    fileRecord(other, Buffer.from([0x61, 0xff]), false, bytes, 'other-domain');
    assert.equal(
      other.digest('hex'),
      sha(
        Buffer.from('unix-executable\0\0F\0', 'latin1'),
        PATH('other-domain', Buffer.from([0x61, 0xff])),
        u64(5n),
        bytes,
      ),
    );
  });

  it('hashes a directory as its open record and the E tag that closes it', () => {
    const h = createHash('sha256');
    directoryOpen(h, 'skills');
    directoryClose(h);
    assert.equal(
      h.digest('hex'),
      sha(
        Buffer.from('unix-executable\0\0D\0', 'latin1'),
        PATH('bundle-relative-directory', Buffer.from('skills')),
        Buffer.from('E\0'),
      ),
    );
  });

  it('builds the identities from their spelled-out inputs', () => {
    const root = Buffer.from('/ws/.codewhale/plugins/demo');
    const digest = sha('codewhale-plugin-id-v2\0', 'workspace', '\0', PATH('canonical-plugin-root', root));
    assert.equal(codewhalePluginId('workspace', root, 'demo'), `workspace/${digest.slice(0, 12)}/demo`);
    assert.equal(codewhaleStageKey('workspace/abc/demo'), sha('codewhale-plugin-stage-v2\0', 'workspace/abc/demo'));
    assert.equal(bundleKey('codewhale', 'user', '/p', 'n'), sha('skillgate-bundle-key-v1\0codewhale\0user\0/p\0n'));
    assert.equal(
      bundleKey('rivumi', 'workspace', decodeRawName(Buffer.from([0x2f, 0xff])), 'n'),
      sha('skillgate-bundle-key-v1\0rivumi\0workspace\0', Buffer.from([0x2f, 0xff]), '\0n'),
    );
    assert.equal(codewhaleFileHash(Buffer.from('x')), sha('codewhale-plugin-file-bytes-v1\0', 'x'));
    assert.equal(reviewToken('a', 'b'), 'a.b');
    assert.equal(sha256Hex('a', Buffer.from('b')), sha('ab'));
  });

  it('hashes capability pairs as key\\0value\\0 in byte order of the keys, after each domain', () => {
    const pairs = new Map([
      ['b', '2'],
      ['a', '1'],
      ['é', '3'],
      ['z', '4'],
    ]);
    const body = 'a\x001\x00b\x002\x00z\x004\x00é\x003\x00';
    assert.equal(capabilityHashV1(pairs), sha('codewhale-plugin-capabilities-v1\0', body));
    assert.equal(rivumiCapabilityHash(pairs), sha('skillgate-rivumi-capabilities-v1\0', body));
    assert.notEqual(capabilityHash(POLICY_V3, pairs), capabilityHashV1(pairs));
  });

  it('orders by UTF-8 bytes and joins sets sorted and deduplicated', () => {
    assert.deepEqual(['é', 'z', 'Z', 'a'].sort(byteOrder), ['Z', 'a', 'z', 'é']);
    assert.equal(byteOrder('a', 'a'), 0);
    assert.equal(joinSet(['b', 'a', 'b', '\u{1F600}', 'é']), 'a\nb\né\n\u{1F600}');
    assert.equal(joinSet([]), '');
  });
});
