import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { Indexer, type IndexOptions } from '../../src/core/index/indexer';
import { loadCodewhaleBundle } from '../../src/core/systems/codewhale/bundle';
import { loadRivumiProject } from '../../src/core/systems/rivumi/load';
import { check } from '../../src/core/trust/checkGate';
import { run } from '../../src/cli/main';
import type { BundleLoader } from '../../src/core/systems/codewhale/bundleJob';
import type { RivumiProject } from '../../src/core/systems/rivumi/model';
import type { Snapshot } from '../../src/core/index/snapshot';
import { Fixture, LINUX_HOST, byName, writeW } from './helpers/fixture';

const GOOD_TOML = (name: string) => `schema_version = 1\n[plugin]\nname = "${name}"\nversion = "1.0.0"\n`;

/** A bundle loader that fails inside Skillgate for the directory named `boom`. */
const throwingFor =
  (dirName: string): BundleLoader =>
  (dir, label, ctx) => {
    if (path.basename(dir) === dirName) throw new Error('simulated loader bug');
    return loadCodewhaleBundle(dir, label, ctx);
  };

/**
 * Any exception while reading one unit becomes that unit's `skillgate.internal` error
 * (issue 10, item 12): the index never fails as a whole.
 */
describe('fault boundaries of the index', () => {
  let f: Fixture;
  beforeEach(() => {
    f = new Fixture();
    f.write('ws/.codewhale/plugins/boom/plugin.toml', GOOD_TOML('boom'));
    f.write('ws/.codewhale/plugins/good/plugin.toml', GOOD_TOML('good'));
    f.write('ws/.rivumi/plugins/p.json', '{}');
  });
  afterEach(() => f.remove());

  const options = (over: Partial<IndexOptions> = {}): IndexOptions => ({
    workspaces: [f.path('ws')],
    codewhaleHome: null,
    host: LINUX_HOST,
    ...over,
  });

  const assertBoomRejected = (s: Snapshot) => {
    const boom = byName(s, 'boom');
    assert.equal(boom.decision, 'rejected');
    assert.deepEqual(boom.reasons, ['manifest_invalid', 'not_reviewed', 'not_enabled']);
    const d = s.diagnostics.find((x) => x.itemId === boom.id && x.code === 'skillgate.internal');
    assert.ok(d, JSON.stringify(s.diagnostics));
    assert.equal(d.severity, 'error');
    assert.equal(d.file, f.path('ws/.codewhale/plugins/boom/plugin.toml'));
    assert.match(d.message, /simulated loader bug/);
    assert.equal(byName(s, 'good').decision, 'disabled');
    assert.equal(byName(s, 'p').system, 'rivumi');
  };

  it("turns an exception in one Codewhale bundle into that bundle's error, in a full index", () => {
    assertBoomRejected(new Indexer(options({ readers: { codewhaleBundle: throwingFor('boom') } })).indexAll());
  });

  it('fails check for a faulted bundle even when it is not enabled', () => {
    const s = new Indexer(options({ readers: { codewhaleBundle: throwingFor('boom') } })).indexAll();
    const boom = check(s).filter((c) => c.item.system === 'codewhale');
    assert.deepEqual(
      boom.map((c) => c.item.name),
      ['boom'],
    );
    assert.match(boom[0]?.problem ?? '', /could not read it/);
  });

  it("does the same on the editor's asynchronous path", async () => {
    assertBoomRejected(
      await new Indexer(options({ readers: { codewhaleBundle: throwingFor('boom') } })).indexAllAsync(),
    );
  });

  it('does the same when one bundle is re-read after a change', () => {
    let fail = false;
    const loader: BundleLoader = (dir, label, ctx) => {
      if (fail && path.basename(dir) === 'boom') throw new Error('simulated loader bug');
      return loadCodewhaleBundle(dir, label, ctx);
    };
    const indexer = new Indexer(options({ readers: { codewhaleBundle: loader } }));
    assert.equal(byName(indexer.indexAll(), 'boom').decision, 'disabled');
    fail = true;
    f.write('ws/.codewhale/plugins/boom/plugin.toml', GOOD_TOML('boom') + '# edited\n');
    assertBoomRejected(indexer.refresh([f.path('ws/.codewhale/plugins/boom/plugin.toml')]));
  });

  it("turns an exception in a user bundle into that bundle's error, with workspace items intact", () => {
    writeW(f, '', 'home/plugins/boom');
    const s = new Indexer(
      options({ codewhaleHome: f.path('home'), readers: { codewhaleBundle: throwingFor('boom') } }),
    ).indexAll();
    const boom = s.items.filter((i) => i.name === 'boom' || i.path.endsWith('/boom'));
    assert.ok(boom.length >= 2 && boom.every((i) => i.decision === 'rejected'));
    assert.equal(byName(s, 'good').decision, 'disabled');
  });

  describe("one workspace's .rivumi", () => {
    const assertRivumiFaulted = (s: Snapshot, message: RegExp) => {
      const rivumi = s.items.filter((i) => i.system === 'rivumi');
      assert.deepEqual(
        rivumi.map((i) => [i.name, i.decision, i.reasons, i.enabled]),
        // Rivumi has no enable switch: no enable bit, as on its other units.
        [['.rivumi', 'rejected', ['manifest_invalid', 'not_reviewed'], null]],
      );
      const d = s.diagnostics.find((x) => x.code === 'skillgate.internal');
      assert.ok(d);
      assert.equal(d.itemId, rivumi[0]?.id);
      assert.equal(d.file, f.path('ws/.rivumi'));
      assert.match(d.message, message);
      assert.equal(byName(s, 'good').decision, 'disabled');
      assert.equal(byName(s, 'boom').decision, 'disabled');
      // Rivumi loads without an enable switch: what Skillgate could not read fails the gate.
      assert.ok(check(s).some((c) => c.item.id === rivumi[0]?.id));
    };

    it('stands as one rejected entry when reading it throws, and fails check', () => {
      const readers = {
        rivumiProject: (): RivumiProject => {
          throw new Error('simulated rivumi bug');
        },
      };
      assertRivumiFaulted(new Indexer(options({ readers })).indexAll(), /simulated rivumi bug/);
    });

    it('stands as one rejected entry when deciding its items throws', () => {
      const broken = (ws: string): RivumiProject => {
        const real = loadRivumiProject(ws);
        return Object.defineProperty({ ...real }, 'plugins', {
          get: () => {
            throw new Error('simulated decision bug');
          },
        });
      };
      assertRivumiFaulted(
        new Indexer(options({ readers: { rivumiProject: broken } })).indexAll(),
        /simulated decision bug/,
      );
    });

    it('recovers on the next re-read once the fault is gone', () => {
      let fail = true;
      const readers = {
        rivumiProject: (ws: string): RivumiProject => {
          if (fail) throw new Error('transient');
          return loadRivumiProject(ws);
        },
      };
      const indexer = new Indexer(options({ readers }));
      assert.ok(indexer.indexAll().items.some((i) => i.name === '.rivumi'));
      fail = false;
      const s = indexer.refresh([f.path('ws/.rivumi/plugins/p.json')]);
      assert.equal(byName(s, 'p').decision, 'registered');
      assert.ok(!s.items.some((i) => i.name === '.rivumi'));
    });
  });

  it('the CLI answers exit 2 with one sentence when a dependency throws even before a command runs', async () => {
    let err = '';
    const env = new Proxy({} as NodeJS.ProcessEnv, {
      get: (_t, key) => {
        if (key === 'SKILLGATE_DEBUG') return undefined;
        throw new Error('environment unavailable');
      },
    });
    const code = await run(['list', '--json'], {
      out: () => undefined,
      err: (t) => (err += t),
      env,
      cwd: f.path('ws'),
    });
    assert.equal(code, 2);
    assert.equal(err, 'skillgate: internal error: environment unavailable\n');
  });
});
