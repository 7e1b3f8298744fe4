import { strict as assert } from 'node:assert';
import { Indexer, type IndexOptions } from '../../src/core/index/indexer';
import { indexEvaFolder, indexEvaUser } from '../../src/core/systems/eva/indexEva';
import { readEvaSource, hashEvaTarget } from '../../src/core/systems/eva/trustUnit';
import { rememberReadContext } from '../../src/core/systems/eva/readContext';
import { DEFAULT_EVA_RUNTIME, type EvaRuntime } from '../../src/core/systems/eva/runtime';
import { check } from '../../src/core/trust/checkGate';
import type { Snapshot } from '../../src/core/index/snapshot';
import type { Item } from '../../src/core/model';
import { A0, EvaFixture } from './helpers/evaFixture';
import { LINUX_HOST, writeW } from './helpers/fixture';

const throwing = (message: string) => () => {
  throw new Error(message);
};

/**
 * Eva's fault boundaries (src/core/systems/eva/faults.ts): an exception while reading one
 * folder's Eva project, or the user skill folders, stays with that unit. Before them, such an
 * exception ended the whole index (the CLI: `internal error`, exit 2, nothing listed).
 */
describe("fault boundaries of Eva's index", () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
    f.adapter(A0);
    f.user('notes');
    writeW(f);
    f.write('ws/.rivumi/plugins/p.json', '{}');
  });
  afterEach(() => f.remove());

  const options = (readers: IndexOptions['readers'] = {}): IndexOptions => ({
    workspaces: [f.ws],
    codewhaleHome: null,
    evaHome: f.home,
    host: LINUX_HOST,
    readers,
  });

  const eva = (s: Snapshot) => s.items.filter((i) => i.system === 'eva');
  const others = (s: Snapshot) => s.items.filter((i) => i.system !== 'eva').map((i) => [i.name, i.decision]);

  /** The one entry that stands for a faulted project, its error, and everything else as usual. */
  const assertProjectFaulted = (s: Snapshot, message: RegExp): Item => {
    const items = eva(s);
    assert.deepEqual(
      items.map((i) => [i.kind, i.name, i.decision, i.reasons, i.trust]),
      [['skill-adapter', 'config', 'rejected', ['schema_invalid', 'not_reviewed'], 'not-reviewed']],
    );
    const standIn = items[0] as Item;
    assert.equal(standIn.path, f.path('ws/config/eva.yaml'));
    const d = s.diagnostics.find((x) => x.code === 'skillgate.internal');
    assert.ok(d, JSON.stringify(s.diagnostics));
    assert.equal(d.itemId, standIn.id);
    assert.equal(d.severity, 'error');
    assert.equal(d.file, f.path('ws/config/eva.yaml'));
    assert.match(d.message, /^internal error while reading this folder's Eva project: /);
    assert.match(d.message, message);
    // Rivumi and Codewhale are indexed as they are without the fault.
    assert.deepEqual(others(s), others(new Indexer(options()).indexAll()));
    assert.ok(others(s).length >= 3);
    // Eva registers by its own rules: what Skillgate could not read fails the gate.
    assert.deepEqual(
      check(s)
        .filter((c) => c.item.system === 'eva')
        .map((c) => [c.item.id, c.problem]),
      [[standIn.id, 'Skillgate could not read it (internal error), so it cannot say what the agent would load']],
    );
    return standIn;
  };

  it('a project whose load throws stands as one rejected, unreviewed entry that fails check', () => {
    const fresh = new Indexer(options()).indexAll();
    assert.deepEqual(
      eva(fresh).map((i) => [i.name, i.decision]),
      [
        ['review-skill', 'registered'],
        ['notes', 'display_only'],
      ],
    );
    assertProjectFaulted(
      new Indexer(options({ evaProject: throwing('simulated eva bug') })).indexAll(),
      /simulated eva bug/,
    );
  });

  it("does the same on the editor's asynchronous path", async () => {
    assertProjectFaulted(
      await new Indexer(options({ evaProject: throwing('simulated eva bug') })).indexAllAsync(),
      /simulated eva bug/,
    );
  });

  it('a stack overflow is a fault like any other', () => {
    const overflow = (): never => overflow();
    assertProjectFaulted(new Indexer(options({ evaProject: overflow })).indexAll(), /Maximum call stack size exceeded/);
  });

  it('faults and recovers when the project is re-read after a change', () => {
    let fail = false;
    const evaProject: typeof indexEvaFolder = (...args) => {
      if (fail) throw new Error('transient');
      return indexEvaFolder(...args);
    };
    const indexer = new Indexer(options({ evaProject }));
    assert.equal(eva(indexer.indexAll())[0]?.name, 'review-skill');
    fail = true;
    const adapter = f.adapter(A0 + '# edited\n');
    assertProjectFaulted(indexer.refresh([adapter]), /transient/);
    fail = false;
    const again = indexer.refresh([adapter]);
    assert.deepEqual(
      eva(again).map((i) => i.name),
      ['review-skill', 'notes'],
    );
    assert.ok(!again.diagnostics.some((d) => d.code === 'skillgate.internal'));
  });

  it('a fault in the user skill folders keeps the projects, and names the folders', () => {
    const s = new Indexer(options({ evaUser: throwing('simulated user-skill bug') })).indexAll();
    assert.deepEqual(
      eva(s).map((i) => [i.name, i.decision]),
      [['review-skill', 'registered']],
    );
    const d = s.diagnostics.filter((x) => x.code === 'skillgate.internal');
    assert.deepEqual(
      d.map((x) => [x.file, x.itemId, x.message]),
      [
        [
          f.path('home/.codex/skills'),
          null,
          'internal error while reading the user skill folders: simulated user-skill bug; Skillgate treats it as invalid',
        ],
      ],
    );
  });

  it('a user skill folder fault is cleared by the next re-read', () => {
    let fail = true;
    const evaUser: typeof indexEvaUser = (...args) => {
      if (fail) throw new Error('transient');
      return indexEvaUser(...args);
    };
    const indexer = new Indexer(options({ evaUser }));
    assert.ok(indexer.indexAll().diagnostics.some((d) => d.code === 'skillgate.internal'));
    fail = false;
    const s = indexer.refresh([f.user('notes')]);
    assert.deepEqual(
      eva(s).map((i) => i.name),
      ['review-skill', 'notes'],
    );
    assert.ok(!s.diagnostics.some((d) => d.code === 'skillgate.internal'));
  });

  describe('review and hash of a project that throws while it is read again', () => {
    /** A runtime whose every read throws: the project's decisions read it, so indexing the project fails. */
    const throwingRuntime = new Proxy({} as EvaRuntime, {
      get: () => {
        throw new Error('simulated read-again bug');
      },
    });

    it('review reads no source and says why, instead of failing the command', () => {
      const item = eva(new Indexer(options()).indexAll())[0] as Item;
      rememberReadContext(item.workspace as string, { home: f.home, runtime: throwingRuntime });
      try {
        assert.deepEqual(readEvaSource(item), {
          ok: false,
          message: 'review-skill cannot be hashed: Skillgate could not read this Eva project: simulated read-again bug',
        });
      } finally {
        rememberReadContext(item.workspace as string, { home: f.home, runtime: DEFAULT_EVA_RUNTIME });
      }
    });

    it('`skillgate hash` of a manifest answers the fault', () => {
      const item = eva(new Indexer(options()).indexAll())[0] as Item;
      rememberReadContext(item.workspace as string, { home: f.home, runtime: throwingRuntime });
      try {
        const outcome = hashEvaTarget(item.path, 'config/adapters/review.yaml');
        assert.ok(outcome && !outcome.ok);
        assert.equal(
          outcome.message,
          "config/adapters/review.yaml could not be hashed: internal error while reading this folder's Eva project: simulated read-again bug; Skillgate treats it as invalid",
        );
      } finally {
        rememberReadContext(item.workspace as string, { home: f.home, runtime: DEFAULT_EVA_RUNTIME });
      }
    });
  });
});
