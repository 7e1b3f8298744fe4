import { strict as assert } from 'node:assert';
import { Indexer, type IndexOptions } from '../../src/core/index/indexer';
import type { ReceiptView, TrustView } from '../../src/core/decisions/trustView';
import type { Snapshot } from '../../src/core/index/snapshot';
import type { Item } from '../../src/core/model';
import { A0, EvaFixture } from './helpers/evaFixture';
import { LINUX_HOST } from './helpers/fixture';

/**
 * decisions.md "Reason codes" (every reason that holds, primary first) on Eva's trust units
 * (eva.md §4.6): Skillgate's gate is asked of each as of Codewhale's and Rivumi's bundles
 * (decisions/gates.ts `trustGate`), whatever Eva decides and whether or not Skillgate could read it.
 */
describe('every gate reason that holds on an Eva bundle', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  type States = Record<string, { enabled: boolean; trust: ReceiptView | null }>;
  const snapshot = (states: States = {}, over: Partial<IndexOptions> = {}): Snapshot => {
    const trust: TrustView = { available: true, lookup: (key) => states[key] };
    return new Indexer({
      workspaces: [f.ws],
      codewhaleHome: null,
      evaHome: f.home,
      host: LINUX_HOST,
      trust: () => trust,
      ...over,
    }).indexAll();
  };
  const UNAVAILABLE = { trust: (): TrustView => ({ available: false, problem: 'state.json is not JSON' }) };
  const RESTRICTED = { workspaceTrusted: false };
  const trustedAsNow = (item: Item): States => ({
    [String(item.detail.bundleKey)]: {
      enabled: false,
      trust: { contentHash: item.contentHash as string, capabilityHash: item.capabilityHash as string },
    },
  });
  const adapter = (s: Snapshot, rel = 'adapters/review.yaml') => s.items.find((i) => i.id === f.id(rel)) as Item;
  const fate = (i: Item) => [i.decision, i.reasons, i.trust];

  describe('Restricted Mode, as trustGate lists it', () => {
    it('is listed on a bundle Eva does not register even when it is trusted, before the trust reason otherwise', () => {
      f.adapter(A0.replace('network: false', 'network: true'));
      const denied = adapter(snapshot());
      assert.deepEqual(fate(denied), ['rejected', ['policy_denied', 'not_reviewed'], 'not-reviewed']);
      assert.deepEqual(fate(adapter(snapshot(trustedAsNow(denied), RESTRICTED))), [
        'rejected',
        ['policy_denied', 'workspace_untrusted'],
        'trusted',
      ]);
      assert.deepEqual(fate(adapter(snapshot({}, RESTRICTED))), [
        'rejected',
        ['policy_denied', 'workspace_untrusted', 'not_reviewed'],
        'not-reviewed',
      ]);
      assert.deepEqual(adapter(snapshot({}, { ...RESTRICTED, ...UNAVAILABLE })).reasons, [
        'policy_denied',
        'workspace_untrusted',
        'trust_store_unavailable',
      ]);
    });

    it('changes nothing Eva registers: a trusted one stays registered, an untrusted one lists it last, as Rivumi', () => {
      f.adapter(A0);
      const loaded = adapter(snapshot());
      assert.deepEqual(fate(adapter(snapshot(trustedAsNow(loaded), RESTRICTED))), [
        'registered',
        ['registered'],
        'trusted',
      ]);
      assert.deepEqual(adapter(snapshot({}, RESTRICTED)).reasons, [
        'loaded_unreviewed',
        'not_reviewed',
        'workspace_untrusted',
      ]);
    });
  });

  // eva.md §4.6: trust reasons are appended "for every bundle whose C1 succeeded"; §7.2 cases 52-54,
  // 57 and 58 keep Eva's reasons alone ("same"). A manifest that does not read has no trust status.
  describe("a manifest that does not read (C1) keeps Eva's reasons alone (§4.6)", () => {
    it('lists no trust reason, whatever the store holds', () => {
      f.adapter(A0.replace('routing: {priority: 10}', 'routing: {priority: 10'));
      const everyKey: TrustView = {
        available: true,
        lookup: () => ({ enabled: false, trust: { contentHash: 'a'.repeat(64), capabilityHash: 'b'.repeat(64) } }),
      };
      for (const s of [snapshot(), snapshot({}, { trust: () => everyKey })])
        assert.deepEqual(fate(adapter(s)), ['rejected', ['schema_invalid'], null]);
    });

    it('over the size cap too, in Restricted Mode with the store unreadable as well', () => {
      f.adapter(A0 + '#' + 'x'.repeat(1_048_577) + '\n', 'big.yaml');
      for (const s of [snapshot(), snapshot({}, { ...RESTRICTED, ...UNAVAILABLE })])
        assert.deepEqual(fate(adapter(s, 'adapters/big.yaml')), ['rejected', ['manifest_too_large'], null]);
    });
  });

  describe('a project Skillgate failed to read', () => {
    const readers = {
      evaProject: (): never => {
        throw new Error('simulated eva bug');
      },
    };
    const standIn = (s: Snapshot) => s.items.find((i) => i.system === 'eva' && i.name === 'config') as Item;

    it('is not reviewed, and in Restricted Mode says so before the trust reason', () => {
      f.adapter(A0);
      assert.deepEqual(fate(standIn(snapshot({}, { readers }))), [
        'rejected',
        ['schema_invalid', 'not_reviewed'],
        'not-reviewed',
      ]);
      assert.deepEqual(standIn(snapshot({}, { readers, ...RESTRICTED })).reasons, [
        'schema_invalid',
        'workspace_untrusted',
        'not_reviewed',
      ]);
    });

    it('with the store unreadable says that, not not_reviewed (fail closed)', () => {
      f.adapter(A0);
      assert.deepEqual(standIn(snapshot({}, { readers, ...UNAVAILABLE })).reasons, [
        'schema_invalid',
        'trust_store_unavailable',
      ]);
    });
  });
});
