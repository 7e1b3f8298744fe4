import { strict as assert } from 'node:assert';
import { Indexer } from '../../src/core/index/indexer';
import { TrustStore } from '../../src/core/trust/trustStore';
import { check, review, trust } from '../../src/core/trust/lifecycle';
import { reasonTextOf } from '../../src/core/systems/registry';
import { REASON_TEXT } from '../../src/core/decisions/reasonText';
import { Fixture, LINUX_HOST } from './helpers/fixture';
import type { Snapshot } from '../../src/core/index/snapshot';

/**
 * `skillgate check` over Rivumi requires trust for what Rivumi loads (trust.md "Status",
 * rivumi.md §4.5, §5.1): every plugin manifest it reads — at most 16, a 17th is never read,
 * so it is shown but not required — and the hooks file only when the opt-in is exactly `1`.
 */
describe('skillgate check over Rivumi: trust required for what Rivumi loads', () => {
  let f: Fixture;
  let store: TrustStore;
  beforeEach(() => {
    f = new Fixture();
    store = new TrustStore(f.path('state'));
  });
  afterEach(() => f.remove());

  const snap = (rivumiHooksEnv?: string): Snapshot =>
    new Indexer({
      workspaces: [f.path('ws')],
      codewhaleHome: null,
      evaHome: null,
      host: LINUX_HOST,
      trust: () => store.view(),
      ...(rivumiHooksEnv === undefined ? {} : { rivumiHooksEnv }),
    }).indexAll();

  it('asks for the 16 plugins Rivumi reads, not the 17th it never opens', () => {
    const names = Array.from({ length: 17 }, (_, i) => `p${String(i).padStart(2, '0')}`);
    for (const n of names) f.write(`ws/.rivumi/plugins/${n}.json`, '{}');
    const s = snap();
    const last = s.items.find((i) => i.name === 'p16');
    assert.deepEqual([last?.decision, last?.trust], ['display_only', 'not-reviewed']);
    assert.deepEqual(
      check(s).map((x) => `${x.item.name}: ${x.problem}`),
      names.slice(0, 16).map((n) => `${n}: it is not reviewed`),
    );
  });

  it('asks for the hooks file only when RIVUMI_ENABLE_PROJECT_HOOKS is exactly 1', () => {
    f.write('ws/.rivumi/hooks.json', '{"pre_compact":[{"command":["true"]}]}');
    for (const off of [undefined, '', '0', ' 1', 'true', '1 ']) assert.deepEqual(check(snap(off)), [], String(off));
    assert.deepEqual(
      check(snap('1')).map((x) => `${x.item.name}: ${x.problem}`),
      ['hooks.json: it is not reviewed'],
    );
  });

  it('reviews a plugin with no agent trust command, and refuses a stale token saying to review it again', async () => {
    f.write('ws/.rivumi/plugins/pk.json', '{}');
    const ctx = { store, host: LINUX_HOST };
    const before = snap().items.find((i) => i.name === 'pk');
    assert.ok(before);
    const r = review(before, ctx);
    assert.ok(r.ok && r.value.reviewToken !== null);
    assert.equal(r.value.codewhaleTrustLine, null);
    f.write('ws/.rivumi/plugins/pk.json', '{"description": "changed"}');
    const now = snap().items.find((i) => i.name === 'pk');
    assert.ok(now);
    const t = await trust(now, r.value.reviewToken, ctx);
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
