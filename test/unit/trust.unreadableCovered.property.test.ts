import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TrustStore } from '../../src/core/trust/trustStore';
import { review } from '../../src/core/trust/reviewBundle';
import { trust } from '../../src/core/trust/grantTrust';
import type { LifecycleContext } from '../../src/core/trust/lifecycle';
import type { Snapshot } from '../../src/core/index/snapshot';
import type { Item } from '../../src/core/model';
import { PROJECT_ROOT } from '../fuzz/input';
import { Fixture, LINUX_HOST, index } from './helpers/fixture';
import { fsPatcher } from './helpers/fsPatch';
import { permissionDenied } from './helpers/deniedDirectory';

/**
 * Nothing a trust unit covers is hashed as absent because Skillgate may not read it (trust.md:
 * trust binds a unit's exact bytes, and "never drop silently what cannot be covered by trust").
 * Skillgate may run as a user who cannot read a file that the agent, run as another user, reads:
 * a hash that leaves such a file out stays the same while it changes, and a receipt made on it
 * stays valid. For each agent's trust units over the demo workspace and corpus bundles, every
 * file the unit's review lists (what its content hash covers) is made unreadable in turn, in
 * each of four ways: its open is refused (a file of another owner at mode 600), a read of it
 * once open fails (EIO, a failing disk), or its folder may be listed but not searched (744), so
 * that inspecting or opening anything in it is refused, or the folder itself may not be
 * inspected (a parent this user may not search). Then:
 * - the unit, trusted before the failure, is no longer `trusted`: its token is not the one the
 *   receipt was made on, so `check` does not pass it;
 * - its review offers no token to trust: there is none, or trust is refused with a sentence.
 * Tests run as root, where modes deny nothing: the failures are injected in-process.
 */
describe('a file a trust unit covers that Skillgate cannot read is never hashed as absent (property)', function () {
  this.timeout(300000);
  const fsPatch = fsPatcher();
  let f: Fixture;
  let store: TrustStore;
  let ctx: LifecycleContext;
  beforeEach(() => {
    f = new Fixture();
    store = new TrustStore(f.path('state'));
    ctx = { store, host: LINUX_HOST };
    failing = undefined;
    installFailures();
  });
  afterEach(() => f.remove());

  type Failure = 'EACCES at open' | 'EIO at read' | 'EACCES in its folder' | 'EACCES at its folder';
  const FAILURES: readonly Failure[] = [
    'EACCES at open',
    'EIO at read',
    'EACCES in its folder',
    'EACCES at its folder',
  ];
  /** The one failure in force, at one file: every other call goes through. */
  let failing: { readonly failure: Failure; readonly file: string } | undefined;

  const eio = (syscall: string) =>
    Object.assign(new Error(`EIO: i/o error, ${syscall}`), { code: 'EIO', errno: -5, syscall });
  const isFile = (p: unknown) => failing !== undefined && path.resolve(String(p)) === failing.file;
  /**
   * Inside the failing file's folder, what a folder at 744 keeps this user from reaching; or
   * the folder itself too, whose own lstat fails as under a parent this user may not search.
   */
  const inFolder = (p: unknown) => {
    if (failing?.failure !== 'EACCES in its folder' && failing?.failure !== 'EACCES at its folder') return false;
    const rel = path.relative(path.dirname(failing.file), path.resolve(String(p)));
    if (rel === '') return failing.failure === 'EACCES at its folder';
    return !rel.startsWith('..') && !path.isAbsolute(rel);
  };

  /** One patch per call, driven by `failing`: the open of the file, its reads once open, or every call inside its folder. */
  function installFailures(): void {
    const opened = new Set<number>();
    fsPatch.replace('openSync', (original) => (p: fs.PathLike, ...rest: unknown[]) => {
      if ((failing?.failure === 'EACCES at open' && isFile(p)) || inFolder(p))
        throw permissionDenied('open', String(p));
      const fd = (original as (...a: unknown[]) => number)(p, ...rest);
      if (failing?.failure === 'EIO at read' && isFile(p)) opened.add(fd);
      return fd;
    });
    fsPatch.replace('readSync', (original) => (fd: number, ...rest: unknown[]) => {
      if (opened.has(fd)) throw eio('read');
      return (original as (...a: unknown[]) => number)(fd, ...rest);
    });
    // A closed descriptor's number is given to the next file opened: only the failing file's reads fail.
    fsPatch.replace('closeSync', (original) => (fd: number) => {
      opened.delete(fd);
      return (original as (fd: number) => void)(fd);
    });
    for (const name of ['lstatSync', 'statSync', 'readdirSync'] as const)
      fsPatch.replace(name, (original) => (p: fs.PathLike, ...rest: unknown[]) => {
        if (inFolder(p)) throw permissionDenied(name.replace(/Sync$/, '').replace('readdir', 'scandir'), String(p));
        return (original as (...a: unknown[]) => unknown)(p, ...rest);
      });
    fsPatch.replace('realpathSync', (real) =>
      Object.assign((...a: unknown[]) => (real as (...b: unknown[]) => unknown)(...a), {
        native: (p: fs.PathLike, ...rest: unknown[]) => {
          if (inFolder(p)) throw permissionDenied('realpath', String(p));
          return (real.native as (...b: unknown[]) => unknown)(p, ...rest);
        },
      }),
    );
  }

  const snapshot = (workspaces: readonly string[]): Snapshot =>
    index([...workspaces], {
      host: LINUX_HOST,
      trust: () => store.view(),
      // Hooks opted in: Rivumi runs a plugin's hooks even where its skill load fails.
      rivumiHooksEnv: '1',
      evaHome: f.path('home'),
    });

  /** A unit's covered files, from its review: each absolute, with its unit's id and the token trusted. */
  interface Covered {
    readonly unit: string;
    readonly name: string;
    readonly token: string;
    readonly file: string;
  }

  /** Trusts every unit that can be trusted as it stands, and lists the files each one's hash covers. */
  async function trustEveryUnit(workspaces: readonly string[]): Promise<Covered[]> {
    const out: Covered[] = [];
    for (const unit of snapshot(workspaces).items.filter((i) => i.trust !== null)) {
      const r = review(unit, ctx);
      if (!r.ok || !r.value.trustable || r.value.reviewToken === null) continue;
      const token = r.value.reviewToken;
      const done = await trust(unit, token, ctx);
      assert.ok(done.ok, done.ok ? '' : done.message);
      const files = r.value.files;
      assert.ok(files && files.length > 0, `${unit.qualifiedName} lists the files it covers`);
      for (const file of files)
        out.push({ unit: unit.id, name: unit.qualifiedName, token, file: path.join(r.value.root, file.path) });
    }
    return out;
  }

  /** What is wrong with the unit once `failing` is in force, or undefined when it holds. */
  function broken(workspaces: readonly string[], c: Covered): string | undefined {
    const now = snapshot(workspaces).items.find((i: Item) => i.id === c.unit);
    // A unit no longer listed has no token: nothing can be trusted, and no receipt applies.
    if (!now) return undefined;
    if (now.trust === 'trusted') return `still trusted (decision ${now.decision}: ${now.reasons.join(', ')})`;
    if (now.reviewToken === c.token) return 'the index keeps the token the receipt was made on';
    const r = review(now, ctx);
    if (!r.ok) return r.message.length > 0 ? undefined : 'its review fails without a word';
    if (r.value.reviewToken === c.token) return 'its review shows the token the receipt was made on';
    if (r.value.reviewToken !== null && r.value.trustable)
      return `its review offers token ${r.value.reviewToken.slice(0, 12)}… to trust`;
    if (!r.value.trustRefusal) return 'trust is refused without a sentence';
    return undefined;
  }

  async function holds(workspaces: readonly string[], systems: readonly string[]): Promise<void> {
    const covered = await trustEveryUnit(workspaces);
    for (const system of systems)
      assert.ok(
        covered.some((c) => c.unit.includes(system) || c.file.includes(system)),
        `the fixture holds a trusted ${system} unit`,
      );
    const found: string[] = [];
    for (const c of covered)
      for (const failure of FAILURES) {
        failing = { failure, file: c.file };
        let why: string | undefined;
        try {
          why = broken(workspaces, c);
        } finally {
          failing = undefined;
        }
        if (why) found.push(`${c.name}, ${failure} at ${path.relative(f.root, c.file)}: ${why}`);
      }
    assert.deepEqual(found, []);
  }

  it('holds over the demo workspace: Rivumi hooks and plugin, Codewhale bundles, Eva skills', async () => {
    fs.cpSync(path.join(PROJECT_ROOT, 'examples/demo-workspace'), f.path('ws'), { recursive: true });
    await holds([f.path('ws')], ['.rivumi/hooks.json', '.rivumi/plugins', '.codewhale/plugins', 'config/']);
  });

  it('holds over corpus bundles: Codewhale bundles of each manifest format, the Eva configuration', async () => {
    const corpus = path.join(PROJECT_ROOT, 'test/fixtures/corpus/codewhale');
    for (const bundle of ['claude-sample', 'whalewiki', 'loop', 'chromewhale'])
      fs.cpSync(path.join(corpus, bundle), f.path('ws/.codewhale/plugins', bundle), { recursive: true });
    fs.cpSync(path.join(PROJECT_ROOT, 'test/fixtures/corpus/eva/config'), f.path('ws/config'), { recursive: true });
    await holds([f.path('ws')], ['.codewhale/plugins', 'config/']);
  });
});
