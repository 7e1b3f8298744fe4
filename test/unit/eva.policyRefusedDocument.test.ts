import * as assert from 'node:assert/strict';
import { A0, EvaFixture } from './helpers/evaFixture';

/**
 * A policy document the shipped loader refuses — one that does not parse, and as well one
 * that parses but is empty or has a padded domain key — leaves Eva-CLI no policy gate
 * (eva.md §3.3, §4.5). Skipping only the latter dropped the denials it holds, so a skill
 * its adapter_policy denies was shown as registered: every one fails closed.
 */
describe('Eva policy documents the loader refuses fail closed (eva.md §3.3)', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
    f.adapter(A0);
  });
  afterEach(() => f.remove());

  const DENY = 'adapter_policy:\n  deny_capabilities: [workflow.review]\n';

  for (const [what, text] of [
    ['a padded domain key', `${DENY}" retry": {}\n`],
    ['an empty domain key', `${DENY}"": 1\n`],
    ['a YAML syntax error', `${DENY}retry: [\n`],
  ] as const) {
    it(`denies every skill when the policy file has ${what}`, () => {
      f.policy(text);
      const r = f.index();
      const item = r.item('adapters/review.yaml');
      assert.deepEqual([item.decision, item.detail.eva.evaReasons], ['rejected', ['policy_denied']]);
      assert.deepEqual(
        r.diagnostics('eva.policy.fail-closed').map((d) => d.itemId),
        [item.id],
      );
    });
  }

  it('denies every skill for an empty policy document beside a valid one', () => {
    f.write('ws/config/policies/0.yaml', '{}\n');
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').detail.eva.evaReasons, ['policy_denied']);
  });

  it('aborts the load at the first refused policy file in path order, whatever made it fail', () => {
    f.write('ws/config/policies/0.yaml', '{}\n');
    f.write('ws/config/policies/1.yaml', Buffer.from([0xff, 0x0a]));
    const r = f.index();
    assert.deepEqual(
      r.diagnostics('eva.project.load-aborted').map((d) => r.rel(d.file)),
      ['config/policies/0.yaml'],
    );
  });
});
