import { strict as assert } from 'node:assert';
import { review } from '../../src/core/trust/reviewBundle';
import { trust } from '../../src/core/trust/grantTrust';
import { check } from '../../src/core/trust/checkGate';
import { reasonTextOf } from '../../src/core/systems/registry';
import { REASON_TEXT } from '../../src/core/decisions/reasonText';
import { A0, EvaFixture } from './helpers/evaFixture';
import { trustWorkspace } from './helpers/trustWorkspace';
import type { Snapshot } from '../../src/core/index/snapshot';

/**
 * `skillgate check` for Eva (eva.md §4.6): it fails for an Eva bundle whose Eva decision is
 * `registered` and whose trust status is not `trusted` — and only for those: a skill Eva
 * does not register (its manifest says `enabled: false`) is not loaded, so the gate does
 * not ask for its trust; a user skill is no trust unit at all.
 */
describe('skillgate check over Eva: trust required for what Eva registers (eva.md §4.6)', () => {
  const w = trustWorkspace({ fixture: () => new EvaFixture().p0() });

  const snap = (): Snapshot => w.snapshot({ workspaces: [w.f.ws], evaHome: w.f.home });
  const failures = () => check(snap()).map((x) => `${x.item.name}: ${x.problem}`);
  const trustNow = async (name: string) => {
    const item = snap().items.find((i) => i.name === name);
    assert.ok(item);
    const r = review(item, w.ctx);
    assert.ok(r.ok && r.value.reviewToken !== null);
    const t = await trust(item, r.value.reviewToken, w.ctx);
    assert.ok(t.ok, t.ok ? '' : t.message);
  };
  const OFF = A0.replace('enabled: true', 'enabled: false').replace('id: review-skill', 'id: off-skill');

  it('fails for a registered adapter until it is trusted, and again once it changes', async () => {
    w.f.adapter(A0);
    assert.deepEqual(failures(), ['review-skill: it is not reviewed']);
    await trustNow('review-skill');
    assert.deepEqual(failures(), []);
    w.f.adapter(A0.replace('priority: 10', 'priority: 11'));
    assert.deepEqual(failures(), ['review-skill: it changed since it was trusted (content-changed)']);
  });

  it('refuses a token the adapter no longer matches, saying how to review it again', async () => {
    w.f.adapter(A0);
    const before = snap().items[0];
    assert.ok(before);
    const r = review(before, w.ctx);
    assert.ok(r.ok && r.value.reviewToken !== null);
    assert.equal(r.value.codewhaleTrustLine, null, 'Eva has no trust command of its own');
    w.f.adapter(A0.replace('priority: 10', 'priority: 11'));
    const now = snap().items[0];
    assert.ok(now);
    const t = await trust(now, r.value.reviewToken, w.ctx);
    assert.deepEqual(
      t.ok ? null : t.message,
      'Review token does not match this bundle content and capability set; run `skillgate review review-skill` again',
    );
  });

  it('does not ask for the trust of an adapter Eva does not register', () => {
    w.f.adapter(OFF, 'off.yaml');
    const s = snap();
    assert.deepEqual(
      s.items.map((i) => [i.name, i.decision, i.trust]),
      [['off-skill', 'disabled', 'not-reviewed']],
    );
    assert.deepEqual(check(s), []);
  });

  it('asks only for the registered one of two, and never for a user skill', () => {
    w.f.adapter(A0);
    w.f.adapter(OFF, 'off.yaml');
    w.f.user('foo');
    const s = snap();
    assert.ok(
      s.items.some((i) => i.trust === null && i.system === 'eva'),
      'a user skill is listed without trust',
    );
    assert.deepEqual(
      check(s).map((x) => x.item.name),
      ['review-skill'],
    );
  });

  it('says in its own words that Eva registers an unreviewed unit whatever Skillgate says', () => {
    const text = reasonTextOf({ system: 'eva' }, 'loaded_unreviewed');
    assert.notEqual(text, REASON_TEXT.loaded_unreviewed);
    assert.match(text, /^Eva-CLI registers it by its own rules whatever Skillgate says, .*review it, then trust it\.$/);
  });
});
