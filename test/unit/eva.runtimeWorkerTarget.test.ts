import * as assert from 'node:assert/strict';
import { A0, EvaFixture } from './helpers/evaFixture';

/**
 * A runtime_worker is never registered into the normal registry (eva.md §4.2: the target is
 * TeamRuntime in a matching team runtime, DisplayOnly otherwise), so C10 (h)'s
 * allowed_runtime_gates never applies to it, in any runtime; and a user runtime_worker has
 * no gate (§3.2), so no runtime admits it and C9 holds in every runtime mode.
 */

describe('Eva runtime_worker targets (eva.md §4.2 C9, C10 h)', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  it('a runtime_worker gated to normal in normal mode is display-only, not denied by allowed_runtime_gates', () => {
    f.policy('adapter_policy:\n  skill:\n    allowed_runtime_gates: [team]\n');
    f.adapter(A0.replace('kind: workflow_skill', 'kind: runtime_worker'));
    const r = f.index();
    const item = r.item('adapters/review.yaml');
    assert.deepEqual([item.decision, item.reasons], ['display_only', ['runtime_worker_display_only', 'not_reviewed']]);
    assert.deepEqual(r.diagnostics('eva.policy.gate-denied'), []);
  });

  it('a user runtime_worker stays runtime_worker_display_only in a team runtime (it has no gate)', () => {
    f.user('worker');
    f.user('team', 'agents');
    const r = f.index({ runtime: { mode: 'team', teamWorker: false, interactiveUser: false } });
    for (const id of ['user:codex:worker', 'user:agents:team']) {
      const item = r.item(id);
      assert.deepEqual(
        [item.decision, item.reasons],
        ['display_only', ['manifest_required', 'capability_missing_schema', 'runtime_worker_display_only']],
        id,
      );
    }
  });
});
