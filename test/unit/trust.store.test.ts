import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { TrustStore, touched, type ReviewedCopies } from '../../src/core/trust/trustStore';
import { doctor } from '../../src/core/trust/doctor';
import { EMPTY_TRUST } from '../../src/core/decisions/trustView';
import { Fixture, writeW, byName, index } from './helpers/fixture';

const KEY = 'a'.repeat(64);
const HEX = 'b'.repeat(64);
/** A receipt of no files, as the tests below that need one of any kind write it. */
const RECEIPT = {
  contentHash: HEX,
  capabilityHash: HEX,
  capabilities: {},
  files: {},
  reviewedAt: '2026-11-29T18:00:00.000Z',
};
const entry = {
  system: 'codewhale' as const,
  scope: 'workspace' as const,
  name: 'x',
  path: '/x',
  generation: 0,
  enabled: false,
  trust: null,
  reviewHistory: [],
};

describe('the trust store (trust.md)', () => {
  let f: Fixture;
  let store: TrustStore;
  beforeEach(() => {
    f = new Fixture();
    store = new TrustStore(f.path('state'));
  });
  afterEach(() => f.remove());

  it('reads a missing store as empty and creates the directory 0700 and the file 0600 on first write', async () => {
    assert.deepEqual(store.read(), {
      ok: true,
      state: { schemaVersion: 1, bundles: Object.create(null) },
      exists: false,
      text: '',
    });
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
      [
        'garbage JSON',
        () => (
          fs.mkdirSync(f.path('state'), { mode: 0o700 }),
          fs.writeFileSync(store.file, '{not json', { mode: 0o600 })
        ),
        /is not valid JSON/,
      ],
      [
        'an unknown schema version',
        () => (
          fs.mkdirSync(f.path('state'), { mode: 0o700 }),
          fs.writeFileSync(store.file, '{"schemaVersion":2,"bundles":{}}', { mode: 0o600 })
        ),
        /schema version 2/,
      ],
      [
        'an unknown field',
        () => (
          fs.mkdirSync(f.path('state'), { mode: 0o700 }),
          fs.writeFileSync(store.file, '{"schemaVersion":1,"bundles":{},"extra":true}', { mode: 0o600 })
        ),
        /unknown field `extra`/,
      ],
      [
        'a symlinked state file',
        () => (
          fs.mkdirSync(f.path('state'), { mode: 0o700 }),
          fs.writeFileSync(f.path('elsewhere.json'), '{"schemaVersion":1,"bundles":{}}'),
          fs.symlinkSync(f.path('elsewhere.json'), store.file)
        ),
        /is a symbolic link/,
      ],
      [
        'a world-writable directory',
        () => (fs.mkdirSync(f.path('state')), fs.chmodSync(f.path('state'), 0o777)),
        /writable by group or others/,
      ],
      [
        'a group-writable state file',
        () => (
          fs.mkdirSync(f.path('state'), { mode: 0o700 }),
          fs.writeFileSync(store.file, '{"schemaVersion":1,"bundles":{}}'),
          fs.chmodSync(store.file, 0o620)
        ),
        /writable by group or others/,
      ],
      [
        'a duplicate key deep in an entry ("enabled": false, "enabled": true)',
        () => (
          fs.mkdirSync(f.path('state'), { mode: 0o700 }),
          fs.writeFileSync(
            store.file,
            JSON.stringify({ schemaVersion: 1, bundles: { [KEY]: entry } }).replace(
              '"enabled":false',
              '"enabled":false,"enabled":true',
            ),
            { mode: 0o600 },
          )
        ),
        new RegExp(`duplicate key at bundles\\.${KEY}\\.enabled$`),
      ],
      [
        'a duplicate top-level key',
        () => (
          fs.mkdirSync(f.path('state'), { mode: 0o700 }),
          fs.writeFileSync(store.file, '{"schemaVersion":1,"bundles":{},"bundles":{}}', { mode: 0o600 })
        ),
        /duplicate key at bundles$/,
      ],
      [
        'a duplicate file name in a receipt',
        () => (
          fs.mkdirSync(f.path('state'), { mode: 0o700 }),
          fs.writeFileSync(
            store.file,
            JSON.stringify({
              schemaVersion: 1,
              bundles: {
                [KEY]: {
                  ...entry,
                  trust: {
                    contentHash: HEX,
                    capabilityHash: HEX,
                    capabilities: {},
                    files: { 'a b': { sha256: HEX, size: 1, executable: false } },
                    reviewedAt: '2026-11-29T18:00:00.000Z',
                  },
                },
              },
            }).replace(/("a b":\{[^}]*\})/, '$1,$1'),
            { mode: 0o600 },
          )
        ),
        /duplicate key at bundles\.a+\.trust\.files\."a b"$/,
      ],
      [
        'a symlinked state directory',
        () => (fs.mkdirSync(f.path('real'), { mode: 0o700 }), fs.symlinkSync(f.path('real'), f.path('state'))),
        /directory .* is a symbolic link/,
      ],
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
        const s = index([f.path('ws')], { trust: () => store.view() });
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
    assert.deepEqual(repaired.setAside, [repaired.movedAside]);
    // A later doctor, the store healthy again, still names the file set aside until it is deleted.
    assert.deepEqual(doctor(store).setAside, [repaired.movedAside]);
    fs.rmSync(repaired.movedAside as string);
    assert.deepEqual(doctor(store).setAside, []);
  });

  it('re-reads inside the lock: two interleaved writers both land', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.mutate((s) => {
          s.bundles[i.toString(16).padStart(64, '0')] = {
            ...entry,
            system: 'codewhale',
            scope: 'workspace',
            name: `b${i}`,
          };
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
    const bad = {
      schemaVersion: 1,
      bundles: {
        [KEY]: {
          ...entry,
          trust: {
            contentHash: 'nothex',
            capabilityHash: HEX,
            capabilities: {},
            files: {},
            reviewedAt: '2026-11-29T18:00:00.000Z',
          },
        },
      },
    };
    fs.writeFileSync(store.file, JSON.stringify(bad), { mode: 0o600 });
    assert.ok(!store.read().ok);
  });
});

/**
 * trust.md "Fail closed": only a missing file is an empty store. Any other read failure,
 * and a file that is not a JSON object, makes the store unavailable: every decision
 * fails closed (not enabled, not active) and nothing overwrites the file. Tests run as
 * root, so a read failure is injected into `fs` rather than made with permissions.
 */
describe('the trust store fails closed on what it cannot read', () => {
  const nodeFs = require('node:fs') as typeof import('node:fs');
  let f: Fixture;
  let store: TrustStore;
  let restore: (() => void) | undefined;
  beforeEach(() => {
    f = new Fixture();
    store = new TrustStore(f.path('state'));
  });
  afterEach(() => {
    restore?.();
    restore = undefined;
    f.remove();
  });

  /** Makes every read of `file` fail with `code`, as a disk or network file system error would. */
  const failReadsOf = (file: string, code: string) => {
    const original = nodeFs.readFileSync;
    nodeFs.readFileSync = ((p: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
      if (p === file) throw Object.assign(new Error(`${code}: i/o error, open '${file}'`), { code });
      return (original as (...a: unknown[]) => unknown)(p, ...rest);
    }) as typeof nodeFs.readFileSync;
    restore = () => {
      nodeFs.readFileSync = original;
    };
  };

  /** A trusted and enabled example-plugin, so that failing open would show as `enabled`/active. */
  const trustedAndEnabled = async () => {
    writeW(f);
    const s = index([f.path('ws')], { trust: () => store.view() });
    const i = byName(s, 'example-plugin');
    const r = await store.mutate((state) => {
      state.bundles[i.detail.bundleKey as string] = {
        ...entry,
        name: 'example-plugin',
        path: i.path,
        enabled: true,
        trust: {
          contentHash: i.contentHash as string,
          capabilityHash: i.capabilityHash as string,
          capabilities: {},
          files: {},
          reviewedAt: '2026-11-29T18:00:00.000Z',
        },
      };
      return { ok: true, value: null };
    });
    assert.ok(r.ok);
    const active = index([f.path('ws')], { trust: () => store.view() });
    assert.deepEqual(
      [
        byName(active, 'example-plugin').enabled,
        byName(active, 'example-plugin').decision,
        byName(active, 'example-plugin').reasons,
      ],
      [true, 'registered', ['active']],
      'the setup really activates the bundle',
    );
  };

  const assertClosed = async (problem: RegExp) => {
    const read = store.read();
    assert.ok(!read.ok, 'the store is unavailable');
    assert.match(read.problem, problem);
    assert.deepEqual(store.view(), { available: false, problem: read.problem });
    const s = index([f.path('ws')], { trust: () => store.view() });
    const i = byName(s, 'example-plugin');
    assert.deepEqual(
      [i.enabled, i.decision, i.trust, i.reasons],
      [false, 'disabled', 'not-reviewed', ['trust_store_unavailable']],
    );
    assert.deepEqual(byName(s, 'example-plugin:example').reasons, ['bundle_inactive']);
    let changed = false;
    const m = await store.mutate(() => {
      changed = true;
      return { ok: true, value: null };
    });
    assert.ok(!m.ok);
    assert.match(m.message, /^The trust store is unavailable: /);
    assert.equal(changed, false, 'the change is never applied to a guessed state');
  };

  it('an unreadable state.json (EIO) is unavailable, not empty, and is never overwritten', async () => {
    await trustedAndEnabled();
    const before = fs.readFileSync(store.file);
    failReadsOf(store.file, 'EIO');
    await assertClosed(/trust store .*state\.json cannot be read: .*EIO/);
    restore?.();
    assert.deepEqual(fs.readFileSync(store.file), before);
  });

  it('a state.json that cannot be opened (EACCES, as for a user without rights) is unavailable, not empty', async () => {
    await trustedAndEnabled();
    const before = fs.readFileSync(store.file);
    failReadsOf(store.file, 'EACCES');
    await assertClosed(/cannot be read: .*EACCES/);
    restore?.();
    assert.deepEqual(fs.readFileSync(store.file), before);
  });

  it('a missing state.json (ENOENT) is the empty store', () => {
    fs.mkdirSync(f.path('state'), { mode: 0o700 });
    failReadsOf(store.file, 'ENOENT');
    const read = store.read();
    assert.ok(read.ok);
    assert.deepEqual([read.exists, read.text, Object.keys(read.state.bundles)], [false, '', []]);
  });

  it('a directory in place of state.json is unavailable and stays', async () => {
    await trustedAndEnabled();
    fs.rmSync(store.file);
    fs.mkdirSync(store.file);
    await assertClosed(/trust store .*state\.json is not a regular file/);
    assert.ok(fs.statSync(store.file).isDirectory());
  });

  for (const text of ['null', '[]', '42', '"state"', 'true', '[{"schemaVersion":1,"bundles":{}}]']) {
    it(`a state.json holding ${text} (not an object) is unavailable and never overwritten`, async () => {
      await trustedAndEnabled();
      fs.writeFileSync(store.file, text, { mode: 0o600 });
      await assertClosed(/has schema version undefined; this Skillgate reads version 1/);
      assert.equal(fs.readFileSync(store.file, 'utf8'), text);
    });
  }

  it('an empty state.json is not JSON, not an empty store', async () => {
    await trustedAndEnabled();
    fs.writeFileSync(store.file, '', { mode: 0o600 });
    await assertClosed(/is not valid JSON/);
    assert.equal(fs.readFileSync(store.file, 'utf8'), '');
  });

  it('a state.json whose schema fails names the field', async () => {
    await trustedAndEnabled();
    const raw = JSON.parse(fs.readFileSync(store.file, 'utf8'));
    const key = Object.keys(raw.bundles)[0] as string;
    raw.bundles[key].enabled = 'yes';
    fs.writeFileSync(store.file, JSON.stringify(raw), { mode: 0o600 });
    await assertClosed(new RegExp(`does not match its schema at bundles\\.${key}\\.enabled: `));
  });
});

describe('the trust store location and its repairs (trust.md "The trust store")', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  it('creates missing parent directories of the state directory on first write, the state directory itself 0700', async () => {
    const store = new TrustStore(f.path('a', 'b', 'state'));
    const r = await store.mutate((s) => {
      s.bundles[KEY] = { ...entry };
      return { ok: true, value: 'done' };
    });
    assert.deepEqual(r, { ok: true, value: 'done' });
    assert.equal(fs.statSync(f.path('a', 'b', 'state')).mode & 0o777, 0o700);
    const read = store.read();
    assert.ok(read.ok && read.exists);
    assert.deepEqual(Object.keys(read.state.bundles), [KEY]);
  });

  it('refuses a write when the state directory cannot be created, and says which', async () => {
    // A dangling link as the parent: reading finds no file (an empty store), creating fails.
    f.symlink(f.path('missing'), 'dangling');
    const store = new TrustStore(f.path('dangling', 'state'));
    assert.ok(store.read().ok);
    const r = await store.mutate(() => ({ ok: true, value: null }));
    assert.ok(!r.ok);
    assert.ok(
      r.message.startsWith(`cannot create the trust store directory ${f.path('dangling', 'state')}: `),
      r.message,
    );
    assert.ok(!fs.existsSync(f.path('missing')));
  });

  it('refuses a state directory that is a file, without touching it', async () => {
    f.write('state', 'a file');
    const store = new TrustStore(f.path('state'));
    const read = store.read();
    assert.ok(!read.ok);
    assert.match(read.problem, /^trust store directory .*state is not a directory$/);
    assert.ok(!(await store.mutate(() => ({ ok: true, value: null }))).ok);
    assert.equal(fs.readFileSync(f.path('state'), 'utf8'), 'a file');
  });

  for (const mode of [0o720, 0o702]) {
    it(`refuses a state directory writable by ${mode === 0o720 ? 'its group' : 'others'} (mode ${mode.toString(8)})`, () => {
      fs.mkdirSync(f.path('state'));
      fs.chmodSync(f.path('state'), mode);
      const read = new TrustStore(f.path('state')).read();
      assert.ok(!read.ok);
      assert.match(
        read.problem,
        new RegExp(`writable by group or others \\(mode ${mode.toString(8)}\\); make it 0700$`),
      );
    });
    it(`refuses a state file writable by ${mode === 0o720 ? 'its group' : 'others'}`, () => {
      fs.mkdirSync(f.path('state'), { mode: 0o700 });
      const store = new TrustStore(f.path('state'));
      fs.writeFileSync(store.file, '{"schemaVersion":1,"bundles":{}}');
      fs.chmodSync(store.file, mode & 0o622);
      const read = store.read();
      assert.ok(!read.ok);
      assert.match(read.problem, /writable by group or others \(mode 6[02][02]\); make it 0600$/);
    });
  }

  it('accepts a read-only 0500 directory and 0400 file (only group and other write bits matter)', () => {
    fs.mkdirSync(f.path('state'), { mode: 0o700 });
    const store = new TrustStore(f.path('state'));
    fs.writeFileSync(store.file, '{"schemaVersion":1,"bundles":{}}', { mode: 0o400 });
    fs.chmodSync(f.path('state'), 0o500);
    const read = store.read();
    fs.chmodSync(f.path('state'), 0o700);
    assert.ok(read.ok && read.exists);
  });

  it('names a duplicate key inside a list by its index', () => {
    fs.mkdirSync(f.path('state'), { mode: 0o700 });
    const store = new TrustStore(f.path('state'));
    const receipt = RECEIPT;
    const text = JSON.stringify({
      schemaVersion: 1,
      bundles: { [KEY]: { ...entry, reviewHistory: [receipt, receipt] } },
    }).replace(/"reviewedAt":"([^"]+)"\}\]/, '"reviewedAt":"$1","reviewedAt":"$1"}]');
    fs.writeFileSync(store.file, text, { mode: 0o600 });
    const read = store.read();
    assert.ok(!read.ok);
    assert.match(read.problem, new RegExp(`duplicate key at bundles\\.${KEY}\\.reviewHistory\\[1\\]\\.reviewedAt$`));
  });

  it('--repair of a store that is healthy, or bad but with no file to move, moves nothing', () => {
    const store = new TrustStore(f.path('state'));
    assert.deepEqual(store.repair(), { moved: null, problem: null });
    fs.mkdirSync(f.path('real'), { mode: 0o700 });
    fs.symlinkSync(f.path('real'), f.path('state'));
    const r = store.repair();
    assert.equal(r.moved, null);
    assert.match(r.problem ?? '', /is a symbolic link/);
    assert.deepEqual(fs.readdirSync(f.path('real')), []);
    const report = doctor(store, { repair: true });
    assert.deepEqual([report.movedAside, report.bundles], [null, 0]);
    assert.match(report.problem ?? '', /is a symbolic link/);
  });

  /** A valid store of `count` trusted bundles, written 0600 into the fixture's `dir` (created 0700). */
  const validStore = (dir: string, count: number): string => {
    fs.mkdirSync(f.path(dir), { recursive: true, mode: 0o700 });
    const receipt = RECEIPT;
    const bundles = Object.fromEntries(
      Array.from({ length: count }, (_, i) => [
        i.toString(16).padStart(64, '0'),
        { ...entry, name: `b${i}`, trust: receipt },
      ]),
    );
    const text = JSON.stringify({ schemaVersion: 1, bundles }, null, 2) + '\n';
    fs.writeFileSync(f.path(dir, 'state.json'), text, { mode: 0o600 });
    return text;
  };

  it('--repair moves nothing from a valid store refused for its directory mode, and says to chmod it', () => {
    const text = validStore('state', 21);
    fs.chmodSync(f.path('state'), 0o770);
    const store = new TrustStore(f.path('state'));
    const r = store.repair();
    assert.equal(r.moved, null);
    assert.match(
      r.problem ?? '',
      /writable by group or others \(mode 770\); make it 0700; --repair moves only a bad file/,
    );
    const report = doctor(store, { repair: true });
    assert.equal(report.movedAside, null);
    assert.match(report.problem ?? '', /make it 0700$/);
    assert.deepEqual(fs.readdirSync(f.path('state')), ['state.json']);
    assert.equal(fs.readFileSync(store.file, 'utf8'), text);
    fs.chmodSync(f.path('state'), 0o700);
    const read = store.read();
    assert.ok(read.ok);
    assert.equal(Object.keys(read.state.bundles).length, 21, 'every receipt is still in the active store');
  });

  it('--repair moves nothing from a valid store refused for its file mode', () => {
    const text = validStore('state', 3);
    const store = new TrustStore(f.path('state'));
    fs.chmodSync(store.file, 0o660);
    const r = store.repair();
    assert.equal(r.moved, null);
    assert.match(r.problem ?? '', /\(mode 660\); make it 0600; --repair moves only a bad file/);
    assert.equal(doctor(store, { repair: true }).movedAside, null);
    assert.deepEqual(fs.readdirSync(f.path('state')), ['state.json']);
    assert.equal(fs.readFileSync(store.file, 'utf8'), text);
  });

  it('--repair acts on nothing through a symbolically linked state directory, even one holding a bad file', () => {
    for (const [real, content] of [
      ['real9', validStore('real9', 2)],
      ['real10', 'garbage'],
    ] as const) {
      fs.mkdirSync(f.path(real), { recursive: true, mode: 0o700 });
      fs.writeFileSync(f.path(real, 'state.json'), content, { mode: 0o600 });
      fs.symlinkSync(f.path(real), f.path(`link-${real}`));
      const store = new TrustStore(f.path(`link-${real}`));
      const r = store.repair();
      assert.equal(r.moved, null);
      assert.match(r.problem ?? '', /is a symbolic link; Skillgate refuses it \(use the directory it points to\)/);
      assert.equal(doctor(store, { repair: true }).movedAside, null);
      assert.deepEqual(fs.readdirSync(f.path(real)), ['state.json']);
      assert.equal(fs.readFileSync(f.path(real, 'state.json'), 'utf8'), content);
    }
  });

  it('refuses a state file whose bytes are not UTF-8 as not JSON, writes nothing over it, and --repair moves it aside', async () => {
    fs.mkdirSync(f.path('state'), { mode: 0o700 });
    const store = new TrustStore(f.path('state'));
    const text = JSON.stringify({ schemaVersion: 1, bundles: { [KEY]: { ...entry, name: 'de@mo' } } });
    const bytes = Buffer.from(text, 'utf8');
    bytes[bytes.indexOf('@')] = 0xff;
    fs.writeFileSync(store.file, bytes, { mode: 0o600 });
    const read = store.read();
    assert.ok(!read.ok);
    assert.equal(read.problem, `trust store ${store.file} is not valid JSON (its bytes are not valid UTF-8)`);
    assert.equal(store.view().available, false);
    const r = await store.mutate((s) => {
      (s.bundles[KEY] as typeof entry).enabled = true;
      return { ok: true, value: null };
    });
    assert.ok(!r.ok);
    assert.ok(fs.readFileSync(store.file).equals(bytes), 'the file keeps its exact bytes');
    const report = doctor(store, { repair: true });
    assert.equal(report.problem, null);
    assert.ok(fs.readFileSync(report.movedAside as string).equals(bytes));
  });

  it('--repair names the moved file by the time it ran', () => {
    fs.mkdirSync(f.path('state'), { mode: 0o700 });
    const store = new TrustStore(f.path('state'));
    fs.writeFileSync(store.file, 'garbage', { mode: 0o600 });
    const r = store.repair(new Date('2026-11-30T01:02:03.456Z'));
    assert.deepEqual(r.moved, `${store.file}.corrupt-2026-11-30T01-02-03-456Z`);
    assert.match(r.problem ?? '', /not valid JSON/);
    assert.ok(!fs.existsSync(store.file));
    assert.ok(store.read().ok);
  });

  it('gives the decisions a view whose revision is the file text, and the empty text for no file', async () => {
    const store = new TrustStore(f.path('state'));
    const empty = store.view();
    assert.ok(empty.available);
    assert.equal(empty.revision, '');
    assert.equal(empty.lookup(KEY), undefined);
    await store.mutate((s) => {
      s.bundles[KEY] = { ...entry, enabled: true };
      return { ok: true, value: null };
    });
    const view = store.view();
    assert.ok(view.available);
    assert.equal(view.revision, fs.readFileSync(store.file, 'utf8'));
    assert.equal(view.lookup(KEY)?.enabled, true);
  });

  it('increments the generation of an entry on each change, and writes the file as indented JSON with a final newline', async () => {
    const store = new TrustStore(f.path('state'));
    await store.mutate((s) => {
      s.bundles[KEY] = touched({ ...entry });
      return { ok: true, value: null };
    });
    await store.mutate((s) => {
      s.bundles[KEY] = touched(s.bundles[KEY] as typeof entry);
      return { ok: true, value: null };
    });
    const text = fs.readFileSync(store.file, 'utf8');
    assert.equal(
      text,
      JSON.stringify({ schemaVersion: 1, bundles: { [KEY]: { ...entry, generation: 2 } } }, null, 2) + '\n',
    );
  });
});

describe('the trust store schema, closed (trust.md "The trust store")', () => {
  let f: Fixture;
  let store: TrustStore;
  beforeEach(() => {
    f = new Fixture();
    fs.mkdirSync(f.path('state'), { mode: 0o700 });
    store = new TrustStore(f.path('state'));
  });
  afterEach(() => f.remove());

  const receipt = {
    contentHash: HEX,
    capabilityHash: HEX,
    capabilities: {},
    files: { 'plugin.toml': { sha256: HEX, size: 120, executable: false } },
    reviewedAt: '2026-11-29T18:00:00.000Z',
  };
  const readWith = (state: unknown) => {
    fs.writeFileSync(store.file, JSON.stringify(state), { mode: 0o600 });
    return store.read();
  };
  const withEntry = (e: object, key = KEY) => readWith({ schemaVersion: 1, bundles: { [key]: { ...entry, ...e } } });

  it('keeps its snapshots beside state.json', () => {
    assert.equal(store.reviewedCopiesDir, f.path('state', 'snapshots'));
    assert.equal(store.file, f.path('state', 'state.json'));
  });

  it('reads every system and scope, and a receipt with its files', () => {
    for (const [system, scope] of [
      ['codewhale', 'user'],
      ['rivumi', 'workspace'],
      ['eva', 'workspace'],
    ]) {
      const r = withEntry({ system, scope, trust: receipt, reviewHistory: [receipt] });
      assert.ok(r.ok, r.ok ? '' : r.problem);
      assert.deepEqual(r.state.bundles[KEY]?.trust?.files['plugin.toml'], {
        sha256: HEX,
        size: 120,
        executable: false,
      });
    }
  });

  for (const [name, e, key] of [
    ['a bundle key with a prefix', {}, `x${KEY}`],
    ['a bundle key with a suffix', {}, `${KEY}x`],
    ['a content hash with a prefix', { trust: { ...receipt, contentHash: `x${HEX}` } }, KEY],
    ['a capability hash with a suffix', { trust: { ...receipt, capabilityHash: `${HEX}0` } }, KEY],
    [
      'a negative file size',
      { trust: { ...receipt, files: { a: { sha256: HEX, size: -1, executable: false } } } },
      KEY,
    ],
    ['a file without its executable bit', { trust: { ...receipt, files: { a: { sha256: HEX, size: 1 } } } }, KEY],
    ['an unknown system', { system: 'claude' }, KEY],
    ['a negative generation', { generation: -1 }, KEY],
    ['33 receipts of history', { reviewHistory: Array.from({ length: 33 }, () => receipt) }, KEY],
    // Closed at every level (trust.md "Shape"): an unknown field is an error, never dropped on the next write.
    ['an unknown field in a bundle entry', { note: 'x' }, KEY],
    ['an unknown field in a receipt', { trust: { ...receipt, trustedBy: 'x' } }, KEY],
    ['an unknown field in a receipt of the history', { reviewHistory: [{ ...receipt, trustedBy: 'x' }] }, KEY],
    [
      'an unknown field in a file record',
      { trust: { ...receipt, files: { a: { sha256: HEX, size: 1, executable: false, mode: 420 } } } },
      KEY,
    ],
    ['an unknown scope', { scope: 'machine' }, KEY],
    ['a review time that is not a date', { trust: { ...receipt, reviewedAt: 'yesterday' } }, KEY],
  ] as const) {
    it(`refuses ${name}`, () => {
      const r = withEntry(e, key);
      assert.ok(!r.ok);
      assert.match(r.problem, /does not match its schema/);
      assert.doesNotMatch(r.problem, /: invalid$/, 'the schema says what is wrong');
    });
  }

  it('names several unknown fields, and no path for a field at the top', () => {
    const r = readWith({ schemaVersion: 1, bundles: {}, a: 1, b: 2 });
    assert.ok(!r.ok);
    assert.equal(r.problem, `trust store ${store.file} does not match its schema: unknown field \`a\`, \`b\``);
  });

  it('gives an empty, available view when there is no store yet (EMPTY_TRUST)', () => {
    assert.equal(EMPTY_TRUST.available, true);
    assert.ok(EMPTY_TRUST.available);
    assert.equal(EMPTY_TRUST.lookup(KEY), undefined);
    assert.equal(EMPTY_TRUST.revision, '');
  });
});

/**
 * trust.md "The trust store": a writer proves it still owns the lock, and that the file
 * holds the bytes it read, immediately before the rename; otherwise it writes nothing and
 * says so. These run in this process (the cross-process cases are in trust.concurrency),
 * so each guard is seen by the tests that measure it.
 */
describe('the trust store writes only while it owns the lock (trust.md "The trust store")', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const LOST = (file: string) =>
    `the trust store ${file} changed while this update was being made (another process took over its lock or rewrote it); nothing was written; try again`;
  const add = (s: { bundles: Record<string, unknown> }) => {
    s.bundles[KEY] = { ...entry };
    return { ok: true as const, value: 'added' };
  };
  const seed = async (store: TrustStore) => {
    assert.ok(
      (
        await store.mutate((s) => {
          s.bundles[HEX] = { ...entry, name: 'seed' };
          return { ok: true, value: null };
        })
      ).ok,
    );
    return fs.readFileSync(store.file, 'utf8');
  };
  const debris = (dir: string) => fs.readdirSync(dir).filter((n) => n !== 'state.json' && n !== 'state.json.lock');

  it('writes nothing when another program rewrote state.json under its lock (compare-and-swap on the bytes read)', async () => {
    const probe = new TrustStore(f.path('state'));
    await seed(probe);
    const other = '{"schemaVersion":1,"bundles":{}}\n';
    const store = new TrustStore(f.path('state'), { beforeCommit: () => fs.writeFileSync(probe.file, other) });
    assert.deepEqual(await store.mutate(add), { ok: false, message: LOST(probe.file) });
    assert.equal(fs.readFileSync(probe.file, 'utf8'), other);
    assert.deepEqual(debris(f.path('state')), [], 'the temporary file is removed');
    assert.ok(!fs.existsSync(`${probe.file}.lock`), 'its own lock is released, not left for the stale period');
  });

  it('writes nothing when another writer took its lock over, and leaves that writer its lock', async () => {
    const probe = new TrustStore(f.path('state'));
    const before = await seed(probe);
    const lock = `${probe.file}.lock`;
    // A new directory made before the old one goes: another inode, as a takeover gives.
    const takeOver = () => {
      fs.mkdirSync(`${lock}.new`);
      fs.rmdirSync(lock);
      fs.renameSync(`${lock}.new`, lock);
    };
    const store = new TrustStore(f.path('state'), { beforeCommit: takeOver });
    assert.deepEqual(await store.mutate(add), { ok: false, message: LOST(probe.file) });
    assert.equal(fs.readFileSync(probe.file, 'utf8'), before);
    assert.ok(fs.statSync(lock).isDirectory(), 'the new owner keeps its lock');
    assert.deepEqual(debris(f.path('state')), []);
  });

  it('writes nothing when its lock was refreshed by someone else (same directory, other mtime)', async () => {
    const probe = new TrustStore(f.path('state'));
    const before = await seed(probe);
    const lock = `${probe.file}.lock`;
    const store = new TrustStore(f.path('state'), {
      beforeCommit: () => fs.utimesSync(lock, new Date(0), new Date(0)),
    });
    assert.deepEqual(await store.mutate(add), { ok: false, message: LOST(probe.file) });
    assert.equal(fs.readFileSync(probe.file, 'utf8'), before);
  });

  it('writes nothing when its lock is gone, and creates none', async () => {
    const probe = new TrustStore(f.path('state'));
    const before = await seed(probe);
    const lock = `${probe.file}.lock`;
    const store = new TrustStore(f.path('state'), { beforeCommit: () => fs.rmdirSync(lock) });
    assert.deepEqual(await store.mutate(add), { ok: false, message: LOST(probe.file) });
    assert.equal(fs.readFileSync(probe.file, 'utf8'), before);
    assert.ok(!fs.existsSync(lock));
  });

  it('reports a failure inside the write with its reason, changes nothing and leaves no temporary file', async () => {
    const probe = new TrustStore(f.path('state'));
    const before = await seed(probe);
    const store = new TrustStore(f.path('state'), {
      beforeCommit: () => {
        throw new Error('disk full');
      },
    });
    assert.deepEqual(await store.mutate(add), {
      ok: false,
      message: `failed to write the trust store ${probe.file}: Error: disk full; nothing was changed`,
    });
    assert.equal(fs.readFileSync(probe.file, 'utf8'), before);
    assert.deepEqual(debris(f.path('state')), []);
    assert.ok(!fs.existsSync(`${probe.file}.lock`));
  });

  it('commits when it still owns the lock and the file is unchanged, and releases the lock', async () => {
    const probe = new TrustStore(f.path('state'));
    await seed(probe);
    let calls = 0;
    const store = new TrustStore(f.path('state'), { beforeCommit: () => void calls++ });
    assert.deepEqual(await store.mutate(add), { ok: true, value: 'added' });
    assert.equal(calls, 1);
    const after = probe.read();
    assert.ok(after.ok && Object.hasOwn(after.state.bundles, KEY) && Object.hasOwn(after.state.bundles, HEX));
    assert.deepEqual(fs.readdirSync(f.path('state')), ['state.json']);
  });
});

describe('reviewed copies no receipt refers to (trust.md "Snapshots", doctor --prune)', () => {
  const HOUR = 60 * 60 * 1000;
  let f: Fixture;
  let store: TrustStore;
  const copy = (name: string): string => {
    fs.mkdirSync(f.path('state', 'snapshots', name), { recursive: true });
    fs.writeFileSync(f.path('state', 'snapshots', name, 'plugin.toml'), 'x', { mode: 0o444 });
    return name;
  };
  const present = (): string[] => fs.readdirSync(store.reviewedCopiesDir).sort();
  beforeEach(async () => {
    f = new Fixture();
    store = new TrustStore(f.path('state'));
    const receipt = RECEIPT;
    await store.mutate((s) => {
      s.bundles[KEY] = { ...entry, trust: receipt };
      return { ok: true, value: null };
    });
    copy(HEX);
  });
  afterEach(() => f.remove());

  it('leaves a staging directory a trust in progress is filling, and a copy it just made, neither listed nor pruned', () => {
    const staging = copy('.staging-0123456789abcdef');
    const fresh = copy('c'.repeat(64));
    assert.deepEqual(store.reviewedCopies(), { unreferenced: [], pruned: [], notPruned: null });
    assert.deepEqual(store.reviewedCopies({ prune: true }), { unreferenced: [], pruned: [], notPruned: null });
    assert.deepEqual(present(), [staging, HEX, fresh].sort());
  });

  it('prunes an abandoned staging directory and an unreferenced copy once they are old, never a referenced copy', () => {
    const staging = copy('.staging-0123456789abcdef');
    const old = copy('c'.repeat(64));
    copy('notes');
    const later = Date.now() + 2 * HOUR;
    assert.deepEqual(store.reviewedCopies({ now: later }).unreferenced, [staging, old]);
    assert.deepEqual(present(), [staging, HEX, old, 'notes'].sort(), 'listing deletes nothing');
    assert.deepEqual(store.reviewedCopies({ prune: true, now: later }), {
      unreferenced: [staging, old],
      pruned: [staging, old],
      notPruned: null,
    });
    assert.deepEqual(present(), [HEX, 'notes'].sort());
  });

  it('prunes nothing while a writer holds the lock, and decides from the receipts committed under it', async () => {
    const old = copy('c'.repeat(64));
    const later = Date.now() + 2 * HOUR;
    let during: ReviewedCopies | undefined;
    const receipt = {
      contentHash: old,
      capabilityHash: HEX,
      capabilities: {},
      files: {},
      reviewedAt: '2026-11-29T18:00:00.000Z',
    };
    const r = await store.mutate((s) => {
      // A trust committing the receipt for `old`: doctor --prune runs meanwhile.
      during = store.reviewedCopies({ prune: true, now: later });
      s.bundles[HEX] = { ...entry, trust: receipt };
      return { ok: true, value: null };
    });
    assert.ok(r.ok);
    assert.deepEqual(during?.pruned, []);
    assert.match(during?.notPruned ?? '', /is being written by another process .*; nothing was pruned; try again$/);
    assert.deepEqual(present(), [HEX, old].sort());
    assert.deepEqual(store.reviewedCopies({ prune: true, now: later }), {
      unreferenced: [],
      pruned: [],
      notPruned: null,
    });
    assert.deepEqual(present(), [HEX, old].sort());
  });

  it('keeps a copy whose receipt another process committed after the first look and before the lock', () => {
    const old = copy('c'.repeat(64));
    const later = Date.now() + 2 * HOUR;
    const read = store.read.bind(store);
    let looks = 0;
    store.read = () => {
      const r = read();
      if (looks++ === 0) {
        // Another process's trust commits the receipt for `old` now, between prune's look and its lock.
        const state = JSON.parse(fs.readFileSync(store.file, 'utf8')) as { bundles: Record<string, unknown> };
        state.bundles[HEX] = { ...entry, trust: { ...RECEIPT, contentHash: old } };
        fs.writeFileSync(store.file, JSON.stringify(state));
      }
      return r;
    };
    assert.deepEqual(store.reviewedCopies({ prune: true, now: later }), {
      unreferenced: [],
      pruned: [],
      notPruned: null,
    });
    assert.deepEqual(present(), [HEX, old].sort());
  });

  it('counts a copy renamed into place just now as fresh, however old its own modification time', () => {
    // A staging directory filled long ago (its mtime), renamed to its final name now (its ctime).
    const staging = copy('.staging-0123456789abcdef');
    const longAgo = new Date(Date.now() - 2 * HOUR);
    fs.utimesSync(f.path('state', 'snapshots', staging), longAgo, longAgo);
    const placed = 'c'.repeat(64);
    fs.renameSync(f.path('state', 'snapshots', staging), f.path('state', 'snapshots', placed));
    assert.deepEqual(store.reviewedCopies({ prune: true }), { unreferenced: [], pruned: [], notPruned: null });
    assert.deepEqual(present(), [HEX, placed].sort());
  });

  it('prunes nothing from an unavailable store', () => {
    copy('c'.repeat(64));
    fs.writeFileSync(store.file, 'garbage', { mode: 0o600 });
    const r = store.reviewedCopies({ prune: true, now: Date.now() + 2 * HOUR });
    assert.deepEqual([r.unreferenced, r.pruned], [[], []]);
    assert.match(r.notPruned ?? '', /not valid JSON/);
    assert.deepEqual(present(), [HEX, 'c'.repeat(64)].sort());
  });
});
