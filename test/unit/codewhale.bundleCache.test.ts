import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadCodewhaleBundle } from '../../src/core/systems/codewhale/bundle';
import type { CodewhaleBundle } from '../../src/core/systems/codewhale/codewhaleBundle';
import { bundleCacheEntry, type BundlePlace } from '../../src/core/systems/codewhale/bundleCache';
import { POLICY_V3 } from '../../src/core/systems/codewhale/activationPolicy';
import { hashBundleContent } from '../../src/core/hashing/bundleContent';
import type { CacheSegment } from '../../src/core/cache/parseCacheSegment';
import type { ManifestLabel } from '../../src/core/systems/codewhale/manifest';
import type { HostFacts } from '../../src/core/host';
import { Fixture, LINUX_HOST } from './helpers/fixture';

const SCHEMA = 'https://agent-plugins.org/schemas/plugin.json';

/** A finding as the loader stores it (no item yet: items are made on compose). */
const diagnosticAt = (dir: string) => ({
  file: path.join(dir, 'plugin.json'),
  range: { start: { line: 0, character: 1 }, end: { line: 0, character: 5 } },
  severity: 'error',
  code: 'codewhale.example',
  message: 'm',
  itemId: null,
});

/**
 * A cache segment held in memory: values go through JSON as they do through the file,
 * and every get and put is counted, so a test tells a recall from a derivation.
 */
class MemorySegment {
  readonly entries = new Map<string, { key: string; value: unknown }>();
  puts = 0;
  hits = 0;
  get(unit: string, key: string): unknown {
    const e = this.entries.get(unit);
    if (!e || e.key !== key) return undefined;
    this.hits++;
    return e.value;
  }
  put(unit: string, key: string, value: unknown): void {
    this.puts++;
    this.entries.set(unit, { key, value: JSON.parse(JSON.stringify(value)) });
  }
  /** The one stored entry, for a test to replace its value. */
  theEntry(): { unit: string; key: string; value: Record<string, unknown> } {
    assert.equal(this.entries.size, 1);
    const [unit, e] = [...this.entries][0] as [string, { key: string; value: Record<string, unknown> }];
    return { unit, key: e.key, value: e.value };
  }
  asSegment(): CacheSegment {
    return this as unknown as CacheSegment;
  }
}

/**
 * The parse cache's Codewhale entry (docs/parse-cache.md): a recalled bundle equals the
 * one derived afresh; an entry is reused only under the same content hash, activation
 * policy and place (label, scope, directory, canonical root, discovery root), never on
 * times or sizes; the walk's facts and `[when]` are never stored; an entry of the wrong
 * shape or of another place is a miss, and the bundle is derived (and stored) again.
 */
describe('Codewhale parse cache entry: what a recalled bundle equals and when an entry is reused', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const ROOT = () => f.path('plugins');
  const load = (dir: string, label: ManifestLabel, cache?: MemorySegment, host: HostFacts = LINUX_HOST) =>
    loadCodewhaleBundle(dir, label, {
      scope: 'user',
      canonicalDiscoveryRoot: ROOT(),
      host,
      ...(cache ? { cache: cache.asSegment() } : {}),
    });

  /** A bundle with a skill, an MCP server, a network host and a validation warning. */
  const writeRich = (name = 'rich'): string => {
    f.write(
      `plugins/${name}/plugin.json`,
      JSON.stringify({
        $schema: SCHEMA,
        name,
        version: '1.2.3',
        extensions: { 'net.codewhale': { capabilities: { network_hosts: ['api.example.com'] } } },
      }),
    );
    f.write(
      `plugins/${name}/mcp.json`,
      JSON.stringify({ mcpServers: { m: { command: './bin/run.sh' }, r: { url: 'https://api.example.com/mcp' } } }),
    );
    f.write(`plugins/${name}/bin/run.sh`, '#!/bin/sh\n', 0o755);
    f.write(`plugins/${name}/skills/s/SKILL.md`, '---\nname: s\ndescription: a skill\n---\nbody\n');
    f.mkdir(`plugins/${name}/empty`);
    return f.path('plugins', name);
  };

  it('recalls a bundle deep-equal to the one derived afresh, without deriving it again', () => {
    const dir = writeRich();
    const fresh = load(dir, 'plugin.json');
    assert.ok(fresh.valid && fresh.contentHash && fresh.skills.length === 1, JSON.stringify(fresh.diagnostics));
    const cache = new MemorySegment();
    assert.deepEqual(load(dir, 'plugin.json', cache), fresh);
    assert.deepEqual([cache.puts, cache.hits], [1, 0]);
    assert.deepEqual(load(dir, 'plugin.json', cache), fresh);
    assert.deepEqual([cache.puts, cache.hits], [1, 1]);
  });

  it('recalls MCP servers named like Object.prototype members as they were derived, in prototype-free maps', () => {
    f.write('plugins/p/plugin.json', JSON.stringify({ $schema: SCHEMA, name: 'p', version: '1.0.0' }));
    f.write(
      'plugins/p/mcp.json',
      '{"mcpServers": {"__proto__": {"command": "a", "env": {"__proto__": "${X}"}}, "constructor": {"command": "b"}}}',
    );
    const dir = f.path('plugins/p');
    const fresh = load(dir, 'plugin.json');
    const cache = new MemorySegment();
    load(dir, 'plugin.json', cache);
    const recalled = load(dir, 'plugin.json', cache);
    assert.equal(cache.hits, 1);
    assert.deepEqual(recalled, fresh);
    const servers = recalled.capabilities?.mcpServers ?? {};
    assert.deepEqual(Object.keys(servers), ['__proto__', 'constructor']);
    assert.deepEqual(recalled.mcpServerIds, ['__proto__', 'constructor']);
    assert.equal(Object.getPrototypeOf(servers), null);
    assert.equal(Object.getPrototypeOf(servers['__proto__']?.env), null);
    assert.equal(servers['__proto__']?.env['__proto__'], 'X');
    assert.equal(servers['toString'], undefined);
  });

  it('recalls a workspace bundle, and one whose findings are warnings or information', () => {
    const dir = writeRich();
    const cache = new MemorySegment();
    const ws = (c?: MemorySegment) =>
      loadCodewhaleBundle(dir, 'plugin.json', {
        scope: 'workspace',
        canonicalDiscoveryRoot: ROOT(),
        host: LINUX_HOST,
        ...(c ? { cache: c.asSegment() } : {}),
      });
    const fresh = ws();
    ws(cache);
    assert.deepEqual(ws(cache), fresh);
    assert.deepEqual([cache.hits, cache.puts], [1, 1]);
    const { unit, key, value } = cache.theEntry();
    for (const severity of ['warning', 'information']) {
      const finding = { ...diagnosticAt(dir), severity };
      cache.entries.set(unit, { key, value: { ...value, diagnostics: [finding] } });
      assert.deepEqual(ws(cache).diagnostics, [finding], severity);
    }
    assert.equal(cache.puts, 1);
  });

  it('recalls a finding with its quick fix, each edit bound to the text it was computed on', () => {
    f.write(
      'plugins/dup/plugin.json',
      JSON.stringify({ $schema: SCHEMA, name: 'dup', version: '1.0.0', keywords: ['x', 'x'] }, null, 2),
    );
    const dir = f.path('plugins/dup');
    const fresh = load(dir, 'plugin.json');
    const fixed = fresh.diagnostics.filter((d) => d.fix);
    assert.equal(fixed.length, 1, JSON.stringify(fresh.diagnostics));
    assert.equal(typeof fixed[0]?.fix?.edits[0]?.basis, 'string');
    const cache = new MemorySegment();
    load(dir, 'plugin.json', cache);
    assert.deepEqual(load(dir, 'plugin.json', cache), fresh);
    assert.deepEqual([cache.hits, cache.puts], [1, 1]);
  });

  it('recalls a bundle whose manifest does not parse as it was derived', () => {
    f.write('plugins/broken/plugin.json', '{ "name": ');
    const dir = f.path('plugins/broken');
    const fresh = load(dir, 'plugin.json');
    assert.equal(fresh.valid, false);
    const cache = new MemorySegment();
    load(dir, 'plugin.json', cache);
    assert.deepEqual(load(dir, 'plugin.json', cache), fresh);
    // Recalled, not derived and stored again.
    assert.deepEqual([cache.hits, cache.puts], [1, 1]);
  });

  it("stores none of the walk's facts nor `[when]`, and fills them in fresh on recall", () => {
    const dir = writeRich();
    const cache = new MemorySegment();
    load(dir, 'plugin.json', cache);
    const stored = cache.theEntry();
    assert.equal(stored.unit, dir);
    assert.match(stored.key, /^[0-9a-f]{64}$/);
    assert.deepEqual(
      [stored.value.contentHash, stored.value.files, stored.value.directories, stored.value.when],
      [null, null, null, null],
    );
    assert.equal(typeof stored.value.capabilityHash, 'string');
    // The walk is read again on recall: the files and directories are today's, not a copy.
    const recalled = load(dir, 'plugin.json', cache);
    assert.deepEqual(
      recalled.files.map((x) => x.path),
      ['bin/run.sh', 'mcp.json', 'plugin.json', 'skills/s/SKILL.md'],
    );
    assert.deepEqual(recalled.directories, ['', 'bin', 'empty', 'skills', 'skills/s']);
  });

  it('asks `[when]` of the host now, with what the manifest declared', () => {
    f.write(
      'plugins/w/plugin.toml',
      'schema_version = 1\n[plugin]\nname = "w"\nversion = "1.0.0"\n[when]\nbinaries = ["needed-tool"]\n',
    );
    const dir = f.path('plugins/w');
    const cache = new MemorySegment();
    const present: HostFacts = { os: 'linux', hasBinary: () => true };
    const absent: HostFacts = { os: 'linux', hasBinary: () => false };
    assert.equal(load(dir, 'plugin.toml', cache, present).when.applicable, true);
    const recalled = load(dir, 'plugin.toml', cache, absent);
    assert.equal(cache.hits, 1);
    assert.deepEqual(recalled.when, load(dir, 'plugin.toml', undefined, absent).when);
    assert.equal(recalled.when.applicable, false);
  });

  describe('the key: content hash, activation policy and place', () => {
    /** A stored entry for `dir` and the inputs it was made from. */
    const entryFor = (dir: string) => {
      const bundle = load(dir, 'plugin.json');
      const manifestBytes = fs.readFileSync(path.join(dir, 'plugin.json'));
      const walk = hashBundleContent(dir, 'plugin.json', manifestBytes, () => false);
      assert.ok(walk.ok);
      const place: BundlePlace = {
        dir,
        label: 'plugin.json',
        scope: 'user',
        canonicalRoot: dir,
        canonicalDiscoveryRoot: ROOT(),
      };
      return { bundle, walk, place };
    };
    const when = () => ({ applicable: true, reasons: [] });

    it('reuses an entry under the same content hash and place', () => {
      const { bundle, walk, place } = entryFor(writeRich());
      const cache = new MemorySegment();
      bundleCacheEntry(cache.asSegment(), walk, place).remember(bundle);
      assert.deepEqual(bundleCacheEntry(cache.asSegment(), walk, place).recall(when), bundle);
    });

    it('misses when the content hash differs, whatever the times and sizes say', () => {
      const { bundle, walk, place } = entryFor(writeRich());
      const cache = new MemorySegment();
      bundleCacheEntry(cache.asSegment(), walk, place).remember(bundle);
      const other = { ...walk, contentHash: walk.contentHash.replace(/^./, (c) => (c === '0' ? '1' : '0')) };
      assert.equal(bundleCacheEntry(cache.asSegment(), other, place).recall(when), undefined);
    });

    for (const [field, value] of [
      ['label', 'plugin.toml'],
      ['scope', 'workspace'],
      ['canonicalRoot', '/elsewhere/rich'],
      ['canonicalDiscoveryRoot', '/elsewhere'],
    ] as const) {
      it(`misses when the ${field} differs`, () => {
        const { bundle, walk, place } = entryFor(writeRich());
        const cache = new MemorySegment();
        bundleCacheEntry(cache.asSegment(), walk, place).remember(bundle);
        assert.equal(bundleCacheEntry(cache.asSegment(), walk, { ...place, [field]: value }).recall(when), undefined);
      });
    }

    it('misses for another directory, even one holding the same bytes', () => {
      const { bundle, walk, place } = entryFor(writeRich());
      const cache = new MemorySegment();
      bundleCacheEntry(cache.asSegment(), walk, place).remember(bundle);
      const moved = f.path('plugins', 'moved');
      // The entry as if it had been stored for the other directory under that directory's key.
      cache.entries.set(moved, { ...(cache.entries.get(place.dir) as { key: string; value: unknown }) });
      assert.equal(bundleCacheEntry(cache.asSegment(), walk, { ...place, dir: moved }).recall(when), undefined);
    });

    it('misses under another activation policy version', () => {
      const { bundle, walk, place } = entryFor(writeRich());
      const cache = new MemorySegment();
      bundleCacheEntry(cache.asSegment(), walk, place).remember(bundle);
      const policy = POLICY_V3 as { version: number };
      const version = policy.version;
      try {
        policy.version = version + 1;
        assert.equal(bundleCacheEntry(cache.asSegment(), walk, place).recall(when), undefined);
      } finally {
        policy.version = version;
      }
      assert.ok(bundleCacheEntry(cache.asSegment(), walk, place).recall(when));
    });
  });

  describe('an entry of the wrong shape or of another place is a miss, and the bundle is derived again', () => {
    /** Stores the rich bundle, lets `spoil` change the stored value, then loads again. */
    const spoiled = (spoil: (value: Record<string, unknown>) => unknown) => {
      const dir = writeRich();
      const fresh = load(dir, 'plugin.json');
      const cache = new MemorySegment();
      load(dir, 'plugin.json', cache);
      const { unit, key, value } = cache.theEntry();
      cache.entries.set(unit, { key, value: spoil(structuredClone(value)) });
      const again = load(dir, 'plugin.json', cache);
      return { fresh, again, cache };
    };
    const assertMiss = (spoil: (value: Record<string, unknown>) => unknown) => {
      const { fresh, again, cache } = spoiled(spoil);
      assert.deepEqual(again, fresh);
      assert.equal(cache.hits, 1, 'the entry was looked up');
      assert.equal(cache.puts, 2, 'and derived and stored again');
      assert.deepEqual(cache.theEntry().value, JSON.parse(JSON.stringify(storedOf(fresh))));
    };
    const storedOf = (b: CodewhaleBundle) => ({ ...b, contentHash: null, files: null, directories: null, when: null });
    /** A finding as the loader stores it, which the cases below spoil one field at a time. */
    const finding = {
      file: 'f',
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      severity: 'error',
      code: 'c',
      message: 'm',
      itemId: null,
    };
    const { message: _message, ...withoutMessage } = finding;
    /** A quick fix as it was stored before each edit carried the basis of its text (fixBasis.ts). */
    const unboundFix = { title: 't', edits: [{ file: 'f', range: finding.range, newText: 'x' }] };

    for (const [what, spoil] of [
      ['not an object', () => 'a string'],
      ['null', () => null],
      ['an array', () => []],
      ['another scope', (v) => ({ ...v, scope: 'builtin' })],
      ['a name that is not a string', (v) => ({ ...v, name: 7 })],
      ['no validity', (v) => ({ ...v, valid: undefined })],
      [
        'capabilities of another agent',
        (v) => ({ ...v, capabilities: { ...(v.capabilities as object), system: 'rivumi' } }),
      ],
      ['a file list of its own', (v) => ({ ...v, files: [{ rel: 'x' }] })],
      ['directories of its own', (v) => ({ ...v, directories: [''] })],
      ['a stored `[when]` that excludes the host', (v) => ({ ...v, when: { applicable: false, reasons: ['os'] } })],
      ['a content hash of its own', (v) => ({ ...v, contentHash: 'a'.repeat(64) })],
      ['a skill without a file', (v) => ({ ...v, skills: [{ name: 's', description: '', rel: 'r' }] })],
      [
        'a diagnostic tied to an item',
        (v) => ({
          ...v,
          diagnostics: [{ ...finding, itemId: 'x' }],
        }),
      ],
      ['a diagnostic of an unknown severity', (v) => ({ ...v, diagnostics: [{ severity: 'fatal' }] })],
      ['an anchor without a range', (v) => ({ ...v, anchors: { name: { file: 'f' } } })],
      ['an anchor whose range has no start', (v) => ({ ...v, anchors: { name: { file: 'f', range: {} } } })],
      [
        'an anchor whose range has no line',
        (v) => ({
          ...v,
          anchors: { name: { file: 'f', range: { start: { character: 0 }, end: { line: 0, character: 0 } } } },
        }),
      ],
      [
        'capabilities without their MCP servers',
        (v) => ({ ...v, capabilities: { ...(v.capabilities as object), mcpServers: null } }),
      ],
      [
        'a `[when]` whose systems are not a list',
        (v) => ({ ...v, capabilities: { ...(v.capabilities as object), when: { os: 'linux', binaries: null } } }),
      ],
      ['MCP server ids that are not strings', (v) => ({ ...v, mcpServerIds: [1] })],
      ['a description that is not a string', (v) => ({ ...v, description: {} })],
      ['a compatibility report without its verdict', (v) => ({ ...v, compatibility: {} })],
      ['bundle files that are not strings', (v) => ({ ...v, bundleFiles: [1] })],
      ['a directory name that is not a string', (v) => ({ ...v, dirName: null })],
      ['no manifest file', (v) => ({ ...v, manifestFile: undefined })],
      ['a version that is not a string', (v) => ({ ...v, version: 1 })],
      ['an inventory that is a list', (v) => ({ ...v, inventory: [] })],
      ['a capability hash that is not a string', (v) => ({ ...v, capabilityHash: {} })],
      ['a review token that is not a string', (v) => ({ ...v, reviewToken: false })],
      ['a plugin id that is not a string', (v) => ({ ...v, pluginId: 1 })],
      ['skills that are not a list', (v) => ({ ...v, skills: {} })],
      ['a placeholder `[when]` with reasons', (v) => ({ ...v, when: { applicable: true, reasons: ['os'] } })],
      ['findings that are not a list', (v) => ({ ...v, diagnostics: null })],
      [
        'a diagnostic without a message',
        (v) => ({
          ...v,
          diagnostics: [withoutMessage],
        }),
      ],
      ['anchors that are a list', (v) => ({ ...v, anchors: [] })],
      // Recalled, it would be a fix the editor can never offer, though deriving again gives one it can.
      [
        'a diagnostic whose fix has an edit without the basis of its text (stored by an earlier version)',
        (v) => ({ ...v, diagnostics: [{ ...finding, fix: unboundFix }] }),
      ],
      ['a diagnostic whose fix has no edits', (v) => ({ ...v, diagnostics: [{ ...finding, fix: { title: 't' } }] })],
      [
        'a diagnostic whose fix has no title',
        (v) => ({ ...v, diagnostics: [{ ...finding, fix: { edits: [{ ...unboundFix.edits[0], basis: 'b' }] } }] }),
      ],
      [
        'an anchor whose range ends at no character',
        (v) => ({
          ...v,
          anchors: {
            name: { file: 'f', range: { start: { line: 0, character: 0 }, end: { line: 0, character: '1' } } },
          },
        }),
      ],
      [
        'an anchor without a file',
        (v) => ({
          ...v,
          anchors: { name: { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } } },
        }),
      ],
      ['bundle files that are not a list', (v) => ({ ...v, bundleFiles: 'plugin.json' })],
    ] as [string, (v: Record<string, unknown>) => unknown][]) {
      it(`an entry that is ${what}`, () => assertMiss(spoil));
    }

    for (const field of ['dir', 'scope', 'label', 'canonicalRoot'] as const) {
      it(`an entry made for another ${field} under this key`, () =>
        assertMiss((v) => ({ ...v, [field]: field === 'scope' ? 'workspace' : `${v[field] as string}x` })));
    }

    it('an entry that mixes placeholders with walk facts', () => {
      assertMiss((v) => ({ ...v, files: [] }));
      f.remove();
      f = new Fixture();
      assertMiss((v) => ({ ...v, directories: [] }));
      f.remove();
      f = new Fixture();
      assertMiss((v) => ({ ...v, when: { applicable: true, reasons: [] } }));
    });

    it('an entry of a walked bundle without what its manifest declares', () =>
      assertMiss((v) => ({ ...v, capabilities: undefined })));

    it('an entry of a bundle whose manifest did not parse, with a `[when]` of its own', () => {
      f.write('plugins/broken/plugin.json', '{ "name": ');
      const dir = f.path('plugins/broken');
      const fresh = load(dir, 'plugin.json');
      const cache = new MemorySegment();
      load(dir, 'plugin.json', cache);
      const { unit, key, value } = cache.theEntry();
      cache.entries.set(unit, { key, value: { ...value, when: { applicable: false, reasons: ['os'] } } });
      assert.deepEqual(load(dir, 'plugin.json', cache), fresh);
      assert.equal(cache.puts, 2);
    });

    it('an entry of a bundle whose walk did not finish, holding a placeholder', () => {
      // Stored without a content hash (the manifest did not parse): no walk fact may be a placeholder.
      f.write('plugins/broken/plugin.json', '{ "name": ');
      const dir = f.path('plugins/broken');
      const fresh = load(dir, 'plugin.json');
      const cache = new MemorySegment();
      load(dir, 'plugin.json', cache);
      const { unit, key, value } = cache.theEntry();
      assert.equal(value.contentHash, undefined);
      cache.entries.set(unit, { key, value: { ...value, files: null } });
      assert.deepEqual(load(dir, 'plugin.json', cache), fresh);
      assert.equal(cache.puts, 2);
    });
  });
});
