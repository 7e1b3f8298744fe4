import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { run } from '../../src/cli/main';
import { Indexer } from '../../src/core/index/indexer';
import type { Snapshot } from '../../src/core/index/snapshot';
import type { ContractEnvelope, ContractItem } from '../../src/core/report/contract';
import { generateInput, layout, PROJECT_ROOT } from '../fuzz/input';
import { Fixture, LINUX_HOST } from './helpers/fixture';
import { fsPatcher } from './helpers/fsPatch';
import { permissionDenied } from './helpers/deniedDirectory';

/**
 * A rejected item always says why: it has at least one diagnostic that names it (its
 * `itemId`) or its file; for a Rivumi item whose load another file aborts, that is the
 * warning on its own file naming the file at fault. A rejection without one leaves the
 * user, and a CI log, with a refusal and no reason to act on (decisions.md: "if not,
 * exactly why"). Held, through
 * `skillgate list --json`, over every real bundle of the corpus, the demo workspace, and
 * hostile trees made by the fuzz harness's generator (test/fuzz/input.ts: mutated corpus
 * bundles, generated `.rivumi/` trees, the Eva demo project, links, special files, modes),
 * and io failures injected at every path of the demo and of corpus bundles (tests run as
 * root, where modes deny nothing, and a root that resolves can still vanish meanwhile).
 */
describe('every rejected item says why (property)', function () {
  this.timeout(300000);
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  /** `list --json` of `ws` (with `home` as the Codewhale and Eva home, when given). */
  const listed = async (ws: string, home: string | null, env: NodeJS.ProcessEnv = {}, twice?: string) => {
    let out = '';
    let err = '';
    const argv = [
      'list',
      '--json',
      '--state-dir',
      f.path('state'),
      '--workspace',
      ws,
      ...(twice ? ['--workspace', twice] : []),
      ...(home ? ['--codewhale-home', home, '--eva-home', home] : ['--no-user']),
    ];
    const code = await run(argv, {
      out: (t) => (out += t),
      err: (t) => (err += t),
      env: { PATH: process.env.PATH, ...env },
      cwd: f.root,
    });
    assert.equal(code, 0, err);
    return JSON.parse(out) as ContractEnvelope;
  };

  /** Each rejected item without a diagnostic naming it or its file, as `kind id (reasons)`. */
  const unexplained = (doc: ContractEnvelope): string[] =>
    doc.items
      .filter((i) => i.decision === 'rejected')
      .filter(
        (i: ContractItem) =>
          !doc.diagnostics.some((d) => d.itemId === i.id || (d.workspace === i.workspace && d.file === i.path)),
      )
      .map((i) => `${i.kind} ${i.id} (${i.reasons.join(', ')})`);

  it('holds over the corpus (test/fixtures/corpus: the Codewhale bundles, the Eva configuration)', async () => {
    fs.cpSync(path.join(PROJECT_ROOT, 'test/fixtures/corpus/codewhale'), f.path('ws/.codewhale/plugins'), {
      recursive: true,
    });
    fs.cpSync(path.join(PROJECT_ROOT, 'test/fixtures/corpus/eva/config'), f.path('ws/config'), { recursive: true });
    const doc = await listed(f.path('ws'), null);
    assert.ok(
      doc.items.some((i) => i.decision === 'rejected'),
      'the corpus holds rejected bundles',
    );
    assert.deepEqual(unexplained(doc), []);
  });

  it('holds over the demo workspace and home, with and without the hooks opt-in', async () => {
    fs.cpSync(path.join(PROJECT_ROOT, 'examples/demo-workspace'), f.path('ws'), { recursive: true });
    fs.cpSync(path.join(PROJECT_ROOT, 'examples/demo-home'), f.path('home'), { recursive: true });
    for (const env of [{}, { RIVUMI_ENABLE_PROJECT_HOOKS: '1' }]) {
      const doc = await listed(f.path('ws'), f.path('home'), env);
      assert.ok(
        doc.items.some((i) => i.decision === 'rejected'),
        'the demo holds rejected items',
      );
      assert.deepEqual(unexplained(doc), []);
    }
  });

  const INPUTS = 200;
  it(`holds over ${INPUTS} hostile trees of the fuzz generator (seed "rejected-says-why")`, async () => {
    const found: string[] = [];
    let rejected = 0;
    for (let index = 0; index < INPUTS; index++) {
      const root = f.mkdir(`input-${index}`);
      const input = generateInput('rejected-says-why', index, root);
      const l = layout(root);
      const doc = await listed(
        l.ws,
        input.home.length || input.evaDemo ? l.home : null,
        input.hooksOptIn ? { RIVUMI_ENABLE_PROJECT_HOOKS: '1' } : {},
        input.workspaceTwice ? l.wsLink : undefined,
      );
      rejected += doc.items.filter((i) => i.decision === 'rejected').length;
      for (const u of unexplained(doc)) found.push(`input ${index}: ${u}`);
      fs.rmSync(root, { recursive: true, force: true });
    }
    assert.ok(rejected > INPUTS / 4, `the inputs reject items (${rejected})`);
    assert.deepEqual(found, []);
  });

  describe('with an io failure injected at each path', () => {
    const fsPatch = fsPatcher();
    /** The calls through which the core inspects, opens, lists and resolves a path (safeFs.ts). */
    const CALLS = ['lstatSync', 'statSync', 'openSync', 'readdirSync', 'realpath'] as const;
    /** How the call fails: this user may not reach the path, it vanished meanwhile, or the disk failed. */
    const ERRORS = [
      permissionDenied,
      (syscall: string, p: string) =>
        Object.assign(new Error(`ENOENT: no such file or directory, ${syscall} '${p}'`), { code: 'ENOENT', errno: -2 }),
      (syscall: string, p: string) =>
        Object.assign(new Error(`EIO: i/o error, ${syscall} '${p}'`), { code: 'EIO', errno: -5 }),
    ];
    /** The one call that fails, at the one path, in the run under way: every other call goes through. */
    let denied: { call: (typeof CALLS)[number]; target: string; error: (typeof ERRORS)[number] } | undefined;
    const deny = (call: (typeof CALLS)[number], p: unknown) => {
      if (denied?.call === call && path.resolve(String(p)) === denied.target)
        throw denied.error(call.replace(/Sync$/, ''), String(p));
    };
    beforeEach(() => {
      denied = undefined;
      for (const call of CALLS)
        if (call === 'realpath')
          fsPatch.replace('realpathSync', (real) =>
            Object.assign((...a: unknown[]) => (real as (...b: unknown[]) => unknown)(...a), {
              native: (p: fs.PathLike, ...rest: unknown[]) => {
                deny(call, p);
                return (real.native as (...b: unknown[]) => unknown)(p, ...rest);
              },
            }),
          );
        else
          fsPatch.replace(call, (original) => (p: fs.PathLike, ...rest: unknown[]) => {
            deny(call, p);
            return (original as (...a: unknown[]) => unknown)(p, ...rest);
          });
    });
    /** Each rejected item of a snapshot without a diagnostic naming it or its file. */
    const silent = (s: Snapshot): string[] =>
      s.items
        .filter((i) => i.decision === 'rejected')
        .filter((i) => !s.diagnostics.some((d) => d.itemId === i.id || d.file === i.path))
        .map((i) => `${i.kind} ${i.id} (${i.reasons.join(', ')})`);

    it('holds for every path of the demo and of corpus bundles in each manifest format, each call failing there', () => {
      fs.cpSync(path.join(PROJECT_ROOT, 'examples/demo-workspace'), f.path('ws'), { recursive: true });
      fs.cpSync(path.join(PROJECT_ROOT, 'examples/demo-home'), f.path('home'), { recursive: true });
      for (const bundle of ['claude-sample', 'whalewiki', 'loop'])
        fs.cpSync(
          path.join(PROJECT_ROOT, 'test/fixtures/corpus/codewhale', bundle),
          f.path('ws/.codewhale/plugins', bundle),
          { recursive: true },
        );
      const paths = [f.path('ws'), f.path('home')];
      for (const top of paths.slice())
        for (const rel of fs.readdirSync(top, { recursive: true, encoding: 'utf8' })) paths.push(path.join(top, rel));
      const indexed = (hooksOptIn: boolean) =>
        new Indexer({
          workspaces: [f.path('ws')],
          codewhaleHome: f.path('home'),
          evaHome: f.path('home'),
          host: LINUX_HOST,
          rivumiHooksEnv: hooksOptIn ? '1' : undefined,
        }).indexAll();
      const rejectedIn = (s: Snapshot) => s.items.filter((i) => i.decision === 'rejected').length;
      const unharmed = [rejectedIn(indexed(false)), rejectedIn(indexed(true))];
      const found: string[] = [];
      let runs = 0;
      let rejecting = 0;
      for (const target of paths)
        for (const call of CALLS) {
          // Both of Rivumi's loads by turns, and each kind of failure at each call across the paths.
          const hooksOptIn = runs % 2 === 0;
          denied = { call, target, error: ERRORS[runs % ERRORS.length] as (typeof ERRORS)[number] };
          runs++;
          const s = indexed(hooksOptIn);
          if (rejectedIn(s) > (unharmed[hooksOptIn ? 1 : 0] as number)) rejecting++;
          for (const u of silent(s)) found.push(`${call} fails at ${path.relative(f.root, target)}: ${u}`);
        }
      assert.ok(rejecting > runs / 10, `the failures reject what loads unharmed (${rejecting} of ${runs} runs)`);
      assert.deepEqual(found, []);
    });
  });
});
