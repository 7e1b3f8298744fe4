import { strict as assert } from 'node:assert';
import { review } from '../../src/core/trust/reviewBundle';
import { trust } from '../../src/core/trust/grantTrust';
import { check } from '../../src/core/trust/checkGate';
import { reasonTextOf } from '../../src/core/systems/registry';
import { REASON_TEXT } from '../../src/core/decisions/reasonText';
import { trustWorkspace } from './helpers/trustWorkspace';
import type { Snapshot } from '../../src/core/index/snapshot';

/**
 * `skillgate check` over Rivumi requires trust for what Rivumi loads (trust.md "Status",
 * rivumi.md §4.5, §5.1): every plugin manifest it reads — at most 16, a 17th is never read,
 * so it is shown but not required — and the hooks file only when the opt-in is exactly `1`.
 */
describe('skillgate check over Rivumi: trust required for what Rivumi loads', () => {
  const w = trustWorkspace();

  const snap = (rivumiHooksEnv?: string): Snapshot =>
    w.snapshot({ evaHome: null, ...(rivumiHooksEnv === undefined ? {} : { rivumiHooksEnv }) });

  it('asks for the 16 plugins Rivumi reads, not the 17th it never opens', () => {
    const names = Array.from({ length: 17 }, (_, i) => `p${String(i).padStart(2, '0')}`);
    for (const n of names) w.f.write(`ws/.rivumi/plugins/${n}.json`, '{}');
    const s = snap();
    const last = s.items.find((i) => i.name === 'p16');
    assert.deepEqual([last?.decision, last?.trust], ['display_only', 'not-reviewed']);
    assert.deepEqual(
      check(s).map((x) => `${x.item.name}: ${x.problem}`),
      names.slice(0, 16).map((n) => `${n}: it is not reviewed`),
    );
  });

  it('asks for the hooks file only when RIVUMI_ENABLE_PROJECT_HOOKS is exactly 1', () => {
    w.f.write('ws/.rivumi/hooks.json', '{"pre_compact":[{"command":["true"]}]}');
    for (const off of [undefined, '', '0', ' 1', 'true', '1 ']) assert.deepEqual(check(snap(off)), [], String(off));
    assert.deepEqual(
      check(snap('1')).map((x) => `${x.item.name}: ${x.problem}`),
      ['hooks.json: it is not reviewed'],
    );
  });

  it('reviews a plugin with no agent trust command, and refuses a stale token saying to review it again', async () => {
    w.f.write('ws/.rivumi/plugins/pk.json', '{}');
    const before = snap().items.find((i) => i.name === 'pk');
    assert.ok(before);
    const r = review(before, w.ctx);
    assert.ok(r.ok && r.value.reviewToken !== null);
    assert.equal(r.value.codewhaleTrustLine, null);
    w.f.write('ws/.rivumi/plugins/pk.json', '{"description": "changed"}');
    const now = snap().items.find((i) => i.name === 'pk');
    assert.ok(now);
    const t = await trust(now, r.value.reviewToken, w.ctx);
    assert.equal(
      t.ok ? null : t.message,
      'Review token does not match this bundle content and capability set; review it again',
    );
  });

  it('says in its own words that Rivumi loads an unreviewed unit whatever Skillgate says', () => {
    const text = reasonTextOf({ system: 'rivumi' }, 'loaded_unreviewed');
    assert.notEqual(text, REASON_TEXT.loaded_unreviewed);
    assert.match(
      text,
      /^Rivumi loads it whatever Skillgate says .*not trusted at its current hashes: review it, then trust it\.$/,
    );
  });
});
