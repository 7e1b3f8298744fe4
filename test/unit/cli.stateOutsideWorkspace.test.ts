import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { runCli } from './helpers/runCli';
import { Fixture, writeW } from './helpers/fixture';
import { TrustStore, unavailableMessage } from '../../src/core/trust/trustStore';

/**
 * The repository is hostile, and Skillgate's own state lives outside it (trust.md: the store
 * is never read from or written to the workspace; docs/parse-cache.md). A CI job that points
 * the store or the cache into the checkout (`SKILLGATE_STATE_DIR=.sg`,
 * `SKILLGATE_CACHE_DIR=.skillgate-cache` for `actions/cache`) must not let a pull request
 * commit the receipts or the cache entries the gate then reads: a git checkout made by the
 * same user passes every ownership and mode check (0755 folders, 0644 files).
 */
describe('no trust store and no cache inside a workspace folder the CLI indexes', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const ws = () => f.path('ws');
  const sg = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    runCli([...args, '--no-user'], { SKILLGATE_STATE_DIR: f.path('state'), ...env }, ws());

  /** A directory as `git checkout` leaves it: the user's own, 0755 folders and 0644 files. */
  const committed = (from: string, to: string) => {
    fs.cpSync(from, to, { recursive: true });
    for (const name of fs.readdirSync(to, { recursive: true }).map(String)) fs.chmodSync(path.join(to, name), 0o644);
    fs.chmodSync(to, 0o755);
  };

  /**
   * Rewrites every entry of the parse-cache files in `dir` as a forger would: the header
   * keeps this build's identity, the length and CRC-32 are made right again.
   */
  const forge = (dir: string, change: (bundle: Record<string, unknown>) => void) => {
    const files = fs.readdirSync(dir).filter((n) => n.endsWith('.cache'));
    assert.ok(files.length > 0, 'the honest run wrote a cache file to forge');
    for (const name of files) {
      const file = path.join(dir, name);
      const bytes = fs.readFileSync(file);
      const newline = bytes.indexOf(0x0a);
      const header = JSON.parse(bytes.toString('utf8', 0, newline)) as Record<string, unknown>;
      const lines = bytes
        .toString('utf8', newline + 1)
        .split('\n')
        .map((line) => {
          const [unit, key, ...value] = line.split('\t');
          const bundle = JSON.parse(value.join('\t')) as Record<string, unknown>;
          change(bundle);
          return `${unit}\t${key}\t${JSON.stringify(bundle)}`;
        });
      const body = Buffer.from(lines.join('\n'), 'utf8');
      const head = JSON.stringify({ ...header, length: body.length, crc: zlib.crc32(body) }).padEnd(newline);
      fs.writeFileSync(file, Buffer.concat([Buffer.from(`${head}\n`, 'utf8'), body]));
    }
  };

  /** A cache made by an honest run outside the workspace, forged, then committed at `ws/.skillgate-cache`. */
  const plantCache = async (args: string[], change: (bundle: Record<string, unknown>) => void) => {
    await sg([...args, '--cache-dir', f.path('made')]);
    forge(f.path('made'), change);
    committed(f.path('made'), f.path('ws/.skillgate-cache'));
    return f.path('ws/.skillgate-cache');
  };

  const filesUnder = (dir: string) =>
    fs
      .readdirSync(dir, { recursive: true })
      .map(String)
      .sort()
      .map((n) => [
        n,
        fs.statSync(path.join(dir, n)).isFile() ? fs.readFileSync(path.join(dir, n)).toString('hex') : 'dir',
      ]);

  const cacheWarnings = (err: string) => err.split('\n').filter((l) => l.startsWith('skillgate: warning: the cache'));

  describe('the parse cache', () => {
    it('replays no forged entry committed in the workspace: `validate` still sees the error (SKILLGATE_CACHE_DIR=<checkout>/.skillgate-cache)', async () => {
      f.write(
        'ws/.codewhale/plugins/bad/plugin.toml',
        'schema_version = 1\n[plugin]\nname = "bad"\nversion = "1.0.0"\nbogus = 3\n',
      );
      const cache = await plantCache(['validate'], (bundle) => (bundle.diagnostics = []));
      const before = filesUnder(cache);
      const r = await sg(['validate'], { SKILLGATE_CACHE_DIR: f.path('ws/.skillgate-cache') });
      assert.equal(r.code, 1, `the forged "no diagnostics" entry was replayed:\n${r.out}${r.err}`);
      assert.match(r.out, /error codewhale\.manifest\.parse/);
      assert.deepEqual(cacheWarnings(r.err), [
        `skillgate: warning: the cache directory ${cache} is inside the workspace folder ${ws()}, where the repository could plant entries; this run reads and writes no cache (choose a --cache-dir or SKILLGATE_CACHE_DIR outside every workspace folder)`,
      ]);
      assert.deepEqual(filesUnder(cache), before, 'nothing was written there either');
    });

    it("a forged entry no longer changes `check`'s verdict, and the report is the one a run without a cache prints", async () => {
      writeW(f);
      const item = JSON.parse((await sg(['list', '--json', '--no-cache'])).out).items[0] as Record<string, string>;
      assert.equal((await sg(['trust', item.id as string, item.reviewToken as string, '--no-cache'])).code, 0);
      assert.equal((await sg(['enable', item.id as string, '--no-cache'])).code, 0);
      assert.equal((await sg(['check', '--no-cache'])).code, 0);
      await plantCache(['list'], (bundle) => (bundle.valid = false));
      const env = { SKILLGATE_CACHE_DIR: f.path('ws/.skillgate-cache') };
      const r = await sg(['check'], env);
      assert.equal(r.code, 0, `the forged "invalid" entry was replayed:\n${r.out}${r.err}`);
      assert.equal(cacheWarnings(r.err).length, 1, r.err);
      assert.equal((await sg(['list', '--json'], env)).out, (await sg(['list', '--json', '--no-cache'])).out);
    });

    it('is caught through a link that leads into the workspace (--cache-dir <outside>/link/.skillgate-cache)', async () => {
      f.write(
        'ws/.codewhale/plugins/bad/plugin.toml',
        'schema_version = 1\n[plugin]\nname = "bad"\nversion = "1.0.0"\nbogus = 3\n',
      );
      await plantCache(['validate'], (bundle) => (bundle.diagnostics = []));
      f.symlink(ws(), 'elsewhere/link');
      const viaLink = f.path('elsewhere/link/.skillgate-cache');
      const r = await sg(['validate', '--cache-dir', viaLink]);
      assert.equal(r.code, 1, `the forged entry behind the link was replayed:\n${r.out}${r.err}`);
      assert.deepEqual(cacheWarnings(r.err), [
        `skillgate: warning: the cache directory ${viaLink} is inside the workspace folder ${ws()}, where the repository could plant entries; this run reads and writes no cache (choose a --cache-dir or SKILLGATE_CACHE_DIR outside every workspace folder)`,
      ]);
    });

    it('uses a cache beside the workspace as before, with no warning', async () => {
      writeW(f);
      const r = await sg(['list'], { SKILLGATE_CACHE_DIR: f.path('beside') });
      assert.equal(r.code, 0, r.err);
      assert.equal(r.err, '');
      assert.ok(fs.readdirSync(f.path('beside')).some((n) => n.endsWith('.cache')));
    });
  });

  describe('the trust store', () => {
    /** A Rivumi plugin (Rivumi loads it unasked) and a store with its receipt, as a pull request would commit it. */
    const plantStore = async (at: string) => {
      f.write('ws/.rivumi/plugins/pk.json', '{"name":"pk"}');
      const forger = { SKILLGATE_STATE_DIR: f.path('forged') };
      const item = JSON.parse((await sg(['list', '--json', '--no-cache'], forger)).out).items[0] as Record<
        string,
        string
      >;
      assert.equal((await sg(['trust', item.id as string, item.reviewToken as string, '--no-cache'], forger)).code, 0);
      assert.equal((await sg(['check', '--no-cache'], forger)).code, 0, 'the forged receipt passes where it was made');
      fs.mkdirSync(at, { recursive: true, mode: 0o755 });
      fs.copyFileSync(f.path('forged/state.json'), path.join(at, 'state.json'));
      fs.chmodSync(path.join(at, 'state.json'), 0o644);
    };

    it('refuses a store inside the workspace (SKILLGATE_STATE_DIR=.sg): `check` fails closed naming both paths', async () => {
      await plantStore(f.path('ws/.sg'));
      const r = await sg(['check', '--no-cache'], { SKILLGATE_STATE_DIR: '.sg' });
      assert.equal(r.code, 1, `the committed receipt was read:\n${r.out}${r.err}`);
      assert.match(
        r.err,
        new RegExp(
          `trust store directory ${f.path('ws/.sg')} is inside the workspace folder ${ws()}, where the repository could write its own receipts; Skillgate refuses it`,
        ),
      );
      const listed = JSON.parse((await sg(['list', '--json', '--no-cache'], { SKILLGATE_STATE_DIR: '.sg' })).out);
      assert.ok(listed.items[0].reasons.includes('trust_store_unavailable'), JSON.stringify(listed.items[0]));
      // A name the repository committed beside it is not a file an earlier --repair moved aside.
      f.write('ws/.sg/state.json.corrupt-2020-01-01T00-00-00-000Z', '{}');
      const doctor = await sg(['doctor'], { SKILLGATE_STATE_DIR: '.sg' });
      assert.equal(doctor.code, 1);
      assert.match(doctor.out + doctor.err, /is inside the workspace folder/);
      assert.doesNotMatch(doctor.out + doctor.err, /corrupt-2020/);
    });

    it('writes nothing into the workspace: trust is refused and the directory is not created', async () => {
      f.write('ws/.rivumi/plugins/pk.json', '{"name":"pk"}');
      const item = JSON.parse((await sg(['list', '--json', '--no-cache'])).out).items[0] as Record<string, string>;
      const r = await sg(['trust', item.id as string, item.reviewToken as string, '--no-cache'], {
        SKILLGATE_STATE_DIR: '.sg',
      });
      assert.equal(r.code, 1);
      assert.match(
        r.err,
        /The trust store is unavailable: trust store directory .*\/ws\/\.sg is inside the workspace folder/,
      );
      assert.equal(fs.existsSync(f.path('ws/.sg')), false);
    });

    it('is caught through a link that leads into the workspace (--state-dir <outside>/link/.sg)', async () => {
      await plantStore(f.path('ws/.sg'));
      f.symlink(ws(), 'elsewhere/link');
      const r = await sg(['check', '--no-cache', '--state-dir', f.path('elsewhere/link/.sg')]);
      assert.equal(r.code, 1, `the committed receipt behind the link was read:\n${r.out}${r.err}`);
      assert.match(r.err, /trust store directory .*\/elsewhere\/link\/\.sg is inside the workspace folder .*\/ws,/);
    });

    it('keeps a store beside the workspace as before', async () => {
      await plantStore(f.path('beside'));
      assert.equal((await sg(['check', '--no-cache'], { SKILLGATE_STATE_DIR: f.path('beside') })).code, 0);
    });
  });
});

describe('a workspace folder that holds the home directory (VS Code opened on ~)', () => {
  let f: Fixture;
  let home: string | undefined;
  beforeEach(() => {
    f = new Fixture();
    home = process.env.HOME;
  });
  afterEach(() => {
    process.env.HOME = home;
    f.remove();
  });

  it('refuses the default store in it too, and says how to go on (a job whose HOME is its checkout is the same place)', () => {
    process.env.HOME = f.path('home/me');
    const dir = f.path('home/me/.local/state/skillgate');
    for (const folder of [f.path('home/me'), f.path('home')]) {
      const store = new TrustStore(dir, { workspaces: () => [folder] });
      const read = store.read();
      assert.ok(!read.ok, folder);
      assert.match(
        unavailableMessage(read),
        /is inside the workspace folder .*; Skillgate refuses it \(this folder holds your home directory, and so the default store: open a folder inside your home directory, or set skillgate\.stateDirectory, SKILLGATE_STATE_DIR or --state-dir outside this folder\)\./,
      );
    }
    // A checkout elsewhere keeps the plain sentence.
    const inRepo = new TrustStore(f.path('repo/.sg'), { workspaces: () => [f.path('repo')] }).read();
    assert.ok(!inRepo.ok);
    assert.match(unavailableMessage(inRepo), /\(choose a state directory outside every workspace folder\)\./);
  });
});
