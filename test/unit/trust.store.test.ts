import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { TrustStore } from '../../src/core/trust/trustStore';
import { doctor } from '../../src/core/trust/lifecycle';
import { Indexer } from '../../src/core/index/indexer';
import { Fixture, writeW, byName, LINUX_HOST } from './helpers/fixture';

const KEY = 'a'.repeat(64);
const HEX = 'b'.repeat(64);
const entry = { system: 'codewhale', scope: 'workspace', name: 'x', path: '/x', generation: 0, enabled: false, trust: null, reviewHistory: [] };

describe('the trust store (trust.md)', () => {
  let f: Fixture;
  let store: TrustStore;
  beforeEach(() => {
    f = new Fixture();
    store = new TrustStore(f.path('state'));
  });
  afterEach(() => f.remove());

  it('reads a missing store as empty and creates the directory 0700 and the file 0600 on first write', async () => {
    assert.deepEqual(store.read(), { ok: true, state: { schemaVersion: 1, bundles: Object.create(null) }, exists: false, text: '' });
    const r = await store.mutate((s) => {
      s.bundles[KEY] = { ...entry, system: 'codewhale', scope: 'workspace' };
      return { ok: true, value: null };
    });
    assert.ok(r.ok);
    assert.equal(fs.statSync(f.path('state')).mode & 0o777, 0o700);
    assert.equal(fs.statSync(store.file).mode & 0o777, 0o600);
    assert.deepEqual(fs.readdirSync(f.path('state')).sort(), ['state.json']);
  });

  it('writes nothing for a refused change', async () => {
    const r = await store.mutate(() => ({ ok: false, message: 'no' }));
    assert.deepEqual(r, { ok: false, message: 'no' });
    assert.ok(!fs.existsSync(store.file));
  });

  describe('fails closed', () => {
    const cases: [string, () => void, RegExp][] = [
      ['garbage JSON', () => (fs.mkdirSync(f.path('state'), { mode: 0o700 }), fs.writeFileSync(store.file, '{not json', { mode: 0o600 })), /is not valid JSON/],
      ['an unknown schema version', () => (fs.mkdirSync(f.path('state'), { mode: 0o700 }), fs.writeFileSync(store.file, '{"schemaVersion":2,"bundles":{}}', { mode: 0o600 })), /schema version 2/],
      ['an unknown field', () => (fs.mkdirSync(f.path('state'), { mode: 0o700 }), fs.writeFileSync(store.file, '{"schemaVersion":1,"bundles":{},"extra":true}', { mode: 0o600 })), /unknown field `extra`/],
      ['a symlinked state file', () => (fs.mkdirSync(f.path('state'), { mode: 0o700 }), fs.writeFileSync(f.path('elsewhere.json'), '{"schemaVersion":1,"bundles":{}}'), fs.symlinkSync(f.path('elsewhere.json'), store.file)), /is a symbolic link/],
      ['a world-writable directory', () => (fs.mkdirSync(f.path('state')), fs.chmodSync(f.path('state'), 0o777)), /writable by group or others/],
      ['a group-writable state file', () => (fs.mkdirSync(f.path('state'), { mode: 0o700 }), fs.writeFileSync(store.file, '{"schemaVersion":1,"bundles":{}}'), fs.chmodSync(store.file, 0o620)), /writable by group or others/],
      [
        'a duplicate key deep in an entry ("enabled": false, "enabled": true)',
        () => (fs.mkdirSync(f.path('state'), { mode: 0o700 }), fs.writeFileSync(store.file, JSON.stringify({ schemaVersion: 1, bundles: { [KEY]: entry } }).replace('"enabled":false', '"enabled":false,"enabled":true'), { mode: 0o600 })),
        new RegExp(`duplicate key at bundles\\.${KEY}\\.enabled$`),
      ],
      ['a duplicate top-level key', () => (fs.mkdirSync(f.path('state'), { mode: 0o700 }), fs.writeFileSync(store.file, '{"schemaVersion":1,"bundles":{},"bundles":{}}', { mode: 0o600 })), /duplicate key at bundles$/],
      ['a duplicate file name in a receipt', () => (fs.mkdirSync(f.path('state'), { mode: 0o700 }), fs.writeFileSync(store.file, JSON.stringify({ schemaVersion: 1, bundles: { [KEY]: { ...entry, trust: { contentHash: HEX, capabilityHash: HEX, capabilities: {}, files: { 'a b': { sha256: HEX, size: 1, executable: false } }, reviewedAt: '2026-11-29T18:00:00.000Z' } } } }).replace(/("a b":\{[^}]*\})/, '$1,$1'), { mode: 0o600 })), /duplicate key at bundles\.a+\.trust\.files\."a b"$/],
      ['a symlinked state directory', () => (fs.mkdirSync(f.path('real'), { mode: 0o700 }), fs.symlinkSync(f.path('real'), f.path('state'))), /directory .* is a symbolic link/],
    ];
    for (const [name, setup, problem] of cases) {
      it(`on ${name}: every bundle disabled, every mutation refused naming the file, the file untouched`, async () => {
        setup();
        const before = fs.existsSync(store.file) ? fs.readFileSync(store.file) : null;
        const read = store.read();
        assert.ok(!read.ok);
        assert.match(read.problem, problem);
        const r = await store.mutate(() => ({ ok: true, value: null }));
        assert.ok(!r.ok);
        assert.match(r.message, /The trust store is unavailable: .*(state\.json|state)\b/);
        assert.match(r.message, /skillgate doctor/);
        if (before) assert.deepEqual(fs.readFileSync(store.file), before);
        writeW(f);
        const s = new Indexer({ workspaces: [f.path('ws')], codewhaleHome: null, host: LINUX_HOST, trust: () => store.view() }).indexAll();
        assert.deepEqual(byName(s, 'example-plugin').reasons, ['trust_store_unavailable']);
      });
    }
  });

  it('doctor explains a bad file, and --repair moves it aside only when asked', () => {
    fs.mkdirSync(f.path('state'), { mode: 0o700 });
    fs.writeFileSync(store.file, 'garbage', { mode: 0o600 });
    const report = doctor(store);
    assert.match(report.problem ?? '', /not valid JSON/);
    assert.ok(fs.existsSync(store.file));
    const repaired = doctor(store, { repair: true });
    assert.equal(repaired.problem, null);
    assert.match(repaired.movedAside ?? '', /state\.json\.corrupt-/);
    assert.equal(fs.readFileSync(repaired.movedAside as string, 'utf8'), 'garbage');
  });

  it('re-reads inside the lock: two interleaved writers both land', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.mutate((s) => {
          s.bundles[i.toString(16).padStart(64, '0')] = { ...entry, system: 'codewhale', scope: 'workspace', name: `b${i}` };
          return { ok: true, value: null };
        }),
      ),
    );
    const read = store.read();
    assert.ok(read.ok);
    assert.equal(Object.keys(read.state.bundles).length, 20);
  });

  it('removes the temporary file of a writer that was killed', async () => {
    fs.mkdirSync(f.path('state'), { mode: 0o700 });
    fs.writeFileSync(`${store.file}.tmp-99999-deadbeef`, '{"partial');
    await store.mutate((s) => {
      s.bundles[KEY] = { ...entry, system: 'codewhale', scope: 'workspace' };
      return { ok: true, value: null };
    });
    assert.deepEqual(fs.readdirSync(f.path('state')), ['state.json']);
  });

  it('rejects a receipt with a malformed hash as an unknown shape', () => {
    fs.mkdirSync(f.path('state'), { mode: 0o700 });
    const bad = { schemaVersion: 1, bundles: { [KEY]: { ...entry, trust: { contentHash: 'nothex', capabilityHash: HEX, capabilities: {}, files: {}, reviewedAt: '2026-11-29T18:00:00.000Z' } } } };
    fs.writeFileSync(store.file, JSON.stringify(bad), { mode: 0o600 });
    assert.ok(!store.read().ok);
  });
});
