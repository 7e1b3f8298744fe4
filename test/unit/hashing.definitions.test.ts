import { strict as assert } from 'node:assert';
import { createHash, randomUUID } from 'node:crypto';
import { pathFrame, sha256Hex, u64le } from '../../src/core/hashing/framing';
import { byteOrder, joinSet, pairBytes, pairsHash } from '../../src/core/hashing/capabilityPairs';
import { bundleKey, reviewToken } from '../../src/core/hashing/identity';
import { decodeRawName } from '../../src/core/fs/rawNames';

/**
 * The hash definitions of trust.md ("Hashes", "Bundle identity") stated as rules: what each
 * input of a bundle key, a capability hash and a path frame is, and which change of an input
 * must change the hash. `hashing.framing` checks the same functions byte for byte against
 * codewhale.md §7's spelled-out layouts.
 */
describe('hash definitions of trust.md, rule by rule', () => {
  const sha = (...parts: (string | Buffer)[]) => {
    const h = createHash('sha256');
    for (const p of parts) h.update(p);
    return h.digest('hex');
  };

  describe('bundle identity: SHA256("skillgate-bundle-key-v1\\0" system \\0 scope \\0 path \\0 name)', () => {
    const key = () => bundleKey('codewhale', 'workspace', '/ws/.codewhale/plugins/demo', 'demo');

    it('is the SHA-256 of exactly those bytes, as 64 lowercase hex digits', () => {
      assert.equal(key(), sha('skillgate-bundle-key-v1\0codewhale\0workspace\0/ws/.codewhale/plugins/demo\0demo'));
      assert.match(key(), /^[0-9a-f]{64}$/);
    });

    it('changes with every input: a copy elsewhere, a rename, another scope, another agent', () => {
      const others = [
        bundleKey('codewhale', 'workspace', '/other/.codewhale/plugins/demo', 'demo'),
        bundleKey('codewhale', 'workspace', '/ws/.codewhale/plugins/demo', 'renamed'),
        bundleKey('codewhale', 'user', '/ws/.codewhale/plugins/demo', 'demo'),
        bundleKey('rivumi', 'workspace', '/ws/.codewhale/plugins/demo', 'demo'),
      ];
      assert.equal(new Set([key(), ...others]).size, 5);
    });

    it('hashes a path that is not valid UTF-8 by its raw bytes, never like its U+FFFD look-alike', () => {
      const raw = Buffer.from('/ws/bad\xff', 'latin1');
      const escaped = decodeRawName(raw);
      assert.equal(
        bundleKey('eva', 'workspace', escaped, 'x'),
        sha('skillgate-bundle-key-v1\0eva\0workspace\0', raw, '\0x'),
      );
      assert.notEqual(bundleKey('eva', 'workspace', escaped, 'x'), bundleKey('eva', 'workspace', '/ws/bad\ufffd', 'x'));
    });

    it('keeps two paths apart even when one cannot be spelled as bytes at all', () => {
      // U+D800 is no escaped byte: such a path is refused elsewhere, but its key still differs from every other.
      assert.notEqual(
        bundleKey('eva', 'workspace', '/ws/\ud800', 'x'),
        bundleKey('eva', 'workspace', '/ws/\ufffd', 'x'),
      );
    });
  });

  it('the review token is `<contentHash>.<capabilityHash>`: 129 characters for two digests', () => {
    const content = sha('content');
    const capability = sha('capability');
    const token = reviewToken(content, capability);
    assert.equal(token, `${content}.${capability}`);
    assert.equal(token.length, 129);
  });

  describe('capability pairs: domain, then byte-sorted `key\\0value\\0`', () => {
    it('orders the keys by their UTF-8 bytes, not by UTF-16 code units', () => {
      // U+FF01 is EF BC 81 in UTF-8, U+1F600 is F0 9F 98 80: UTF-16 (D83D…) would sort them the other way.
      const pairs = new Map([
        ['\u{1F600}', 'b'],
        ['\uFF01', 'a'],
        ['Z', 'c'],
      ]);
      assert.equal(pairBytes(pairs).toString(), 'Z\0c\0\uFF01\0a\0\u{1F600}\0b\0');
      assert.ok(byteOrder('\uFF01', '\u{1F600}') < 0 && byteOrder('\u{1F600}', '\uFF01') > 0);
      assert.ok('\u{1F600}' < '\uFF01', 'a plain string comparison orders them the other way');
    });

    it('keeps a pair whose value is empty, and hashes no pairs as the domain alone', () => {
      assert.equal(pairBytes(new Map([['network', '']])).toString(), 'network\0\0');
      assert.equal(pairBytes(new Map()).length, 0);
      assert.equal(pairsHash('domain\0', new Map()), sha('domain\0'));
    });

    it('writes the pairs as UTF-8 unless the agent gives its own encoding', () => {
      const pairs = new Map([['fs', 'é']]);
      assert.deepEqual(pairBytes(pairs), Buffer.from('fs\0\xc3\xa9\0', 'latin1'));
      assert.equal(pairsHash(Buffer.from('d\0'), pairs), sha('d\0', Buffer.from('fs\0é\0')));
      const seen: string[] = [];
      const latin = (text: string) => (seen.push(text), Buffer.from(text, 'latin1'));
      assert.equal(pairsHash('d\0', pairs, latin), sha('d\0', Buffer.from('fs\0\xe9\0', 'latin1')));
      assert.deepEqual(seen, ['fs\0é\0'], 'the encoding receives the whole text once');
    });

    it('joins a set sorted by bytes and deduplicated with `\\n`, with no separator around one value', () => {
      assert.equal(joinSet(['\u{1F600}', '\uFF01', 'b', 'b']), 'b\n\uFF01\n\u{1F600}');
      assert.equal(joinSet(new Set(['only'])), 'only');
    });
  });

  describe('PATH(domain, rel): codewhale-os-path-v1\\0 u64(len domain) domain unix-bytes\\0 u64(len rel) rel', () => {
    const PATH = (domain: string, rel: Buffer) =>
      Buffer.concat([
        Buffer.from('codewhale-os-path-v1\0'),
        u64le(Buffer.byteLength(domain)),
        Buffer.from(domain),
        Buffer.from('unix-bytes\0'),
        u64le(rel.length),
        rel,
      ]);

    it('frames a domain never framed before, and the same again the second time', () => {
      // A new domain on every run: the frame of a domain is built once and kept, and the first build is the rule.
      const domain = `fresh-domaine-é-${randomUUID()}`;
      const first = pathFrame(domain, 'a/é');
      assert.deepEqual(first, PATH(domain, Buffer.from('a/é')));
      assert.deepEqual(pathFrame(domain, Buffer.from([0x61, 0xff])), PATH(domain, Buffer.from([0x61, 0xff])));
      assert.deepEqual(pathFrame(domain, 'a/é'), first);
    });

    it('frames the empty path (the bundle root) with a zero length', () => {
      assert.deepEqual(pathFrame('bundle-relative-directory', ''), PATH('bundle-relative-directory', Buffer.alloc(0)));
    });
  });

  it('hashes parts as one stream: one part, several, or none', () => {
    assert.equal(sha256Hex('ab'), sha('ab'));
    assert.equal(sha256Hex(Buffer.from('ab')), sha('ab'));
    assert.equal(sha256Hex('a', Buffer.from('b')), sha('ab'));
    assert.equal(sha256Hex(), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});
