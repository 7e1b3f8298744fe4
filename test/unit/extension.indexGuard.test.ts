import { strict as assert } from 'node:assert';
import { guardIndexAsync } from '../../src/extension/flows/indexGuard';
import { Indexer } from '../../src/core/index/indexer';
import type { Snapshot } from '../../src/core/index/snapshot';
import { Fixture, LINUX_HOST } from './helpers/fixture';

/** The editor keeps its last view and says why when indexing throws outside the core's fault boundaries. */
describe("the editor's index guard", () => {
  let errors: string[];
  const ui = { error: (m: string) => errors.push(m) };
  beforeEach(() => (errors = []));

  it('passes a result through and reports nothing when indexing succeeds', async () => {
    assert.equal(
      await guardIndexAsync(
        async () => 1,
        () => 0,
        ui,
      ),
      1,
    );
    assert.deepEqual(errors, []);
  });

  it('reports a throw from a watcher-driven refresh and keeps the fallback instead of escaping', async () => {
    const r = await guardIndexAsync<number>(
      async () => {
        throw new Error('boom');
      },
      () => 0,
      ui,
    );
    assert.equal(r, 0);
    assert.equal(errors.length, 1);
    assert.match(errors[0] as string, /^Skillgate could not index the workspace: boom\./);
  });

  it('says what the view shows after a failure: the last complete index, or no bundles before any index was read', async () => {
    const fail = async (): Promise<number> => {
      throw new Error('boom');
    };
    await guardIndexAsync(fail, () => 0, { ...ui, showsIndex: () => true });
    await guardIndexAsync(fail, () => 0, { ...ui, showsIndex: () => false });
    // A UI that does not say falls back on the index it shows.
    await guardIndexAsync(fail, () => 0, ui);
    const last = 'The view shows the last complete index; run "Skillgate: Refresh" to try again.';
    assert.deepEqual(errors, [
      `Skillgate could not index the workspace: boom. ${last}`,
      'Skillgate could not index the workspace: boom. No index could be read, so the view shows no bundles; run "Skillgate: Refresh" to try again.',
      `Skillgate could not index the workspace: boom. ${last}`,
    ]);
  });

  it('reports a failed full index on the asynchronous path and returns the last snapshot', async () => {
    const f = new Fixture();
    try {
      f.write('ws/.codewhale/plugins/a/plugin.toml', 'schema_version = 1\n[plugin]\nname = "a"\nversion = "1.0.0"\n');
      const last: Snapshot = { generation: 7, workspaces: [], items: [], diagnostics: [], trustProblem: null };
      // A dependency outside every per-bundle boundary (the trust view) throws.
      const indexer = new Indexer({
        workspaces: [f.path('ws')],
        codewhaleHome: null,
        host: LINUX_HOST,
        trust: () => {
          throw new Error('trust view exploded');
        },
      });
      const r = await guardIndexAsync(
        () => indexer.indexAllAsync(),
        () => last,
        ui,
      );
      assert.equal(r, last);
      assert.match(errors[0] as string, /trust view exploded/);
    } finally {
      f.remove();
    }
  });
});
