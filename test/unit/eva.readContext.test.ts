import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import { A0, EvaFixture } from './helpers/evaFixture';
import { EvaIndex } from '../../src/core/systems/eva/evaIndex';
import { readContextOf } from '../../src/core/systems/eva/readContext';
import { DEFAULT_EVA_RUNTIME } from '../../src/core/systems/eva/runtime';

/**
 * What review, trust and `skillgate hash` read an Eva unit again with (readContext.ts):
 * the home and runtime its project was indexed with, and for a project never indexed in
 * this process Eva's own defaults — the user's home (`~` is `$HOME`, eva.md §1.3) and the
 * ordinary CLI runtime (eva.md §3.4) — never another project's settings.
 */
describe('Eva read context: the home and runtime a unit is read again with', () => {
  let f: EvaFixture;
  beforeEach(() => (f = new EvaFixture().p0()));
  afterEach(() => f.remove());

  it("reads a project never indexed with the user's home and the default runtime", () => {
    assert.deepEqual(readContextOf(f.path('never-indexed')), { home: os.homedir(), runtime: DEFAULT_EVA_RUNTIME });
  });

  it("does not lend one project's home and runtime to another", () => {
    f.adapter(A0);
    const runtime = { mode: 'team', teamWorker: true, interactiveUser: false } as const;
    const index = new EvaIndex({ workspaces: [f.ws], evaHome: f.home, evaRuntime: runtime });
    for (const load of index.scan()) load();
    assert.deepEqual(readContextOf(f.ws), { home: f.home, runtime });
    assert.deepEqual(readContextOf(f.path('other')), { home: os.homedir(), runtime: DEFAULT_EVA_RUNTIME });
  });
});
