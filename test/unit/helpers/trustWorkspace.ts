import { strict as assert } from 'node:assert';
import { TrustStore } from '../../../src/core/trust/trustStore';
import { review } from '../../../src/core/trust/reviewBundle';
import { trust } from '../../../src/core/trust/grantTrust';
import type { LifecycleContext } from '../../../src/core/trust/lifecycle';
import type { Item } from '../../../src/core/model';
import type { IndexOptions } from '../../../src/core/index/indexer';
import type { Snapshot } from '../../../src/core/index/snapshot';
import type { HostFacts } from '../../../src/core/host';
import { Fixture, LINUX_HOST, byName, index } from './fixture';

/** What `trustWorkspace` gives a test: all of it new for each test. */
export interface TrustWorkspace<F extends Fixture = Fixture> {
  /** The test's files on disk, removed after it. */
  readonly f: F;
  /** The trust store in the fixture's `state` folder (or the one named). */
  readonly store: TrustStore;
  /** `{ store, host }`, for review, trust, enable and the rest of the lifecycle. */
  readonly ctx: LifecycleContext;
  /** The index of the fixture's `ws` folder as the store trusts it; `options` override any of that, `workspaces` too. */
  snapshot(options?: Partial<IndexOptions>): Snapshot;
  /** The one item of that name (or qualified name) in `snapshot()`. */
  item(name: string): Item;
  /** The review token its review shows, asserted to be there. */
  tokenOf(name: string): string;
  /** Trusts it at the token its review shows, asserted to succeed. */
  trustNow(name: string): Promise<void>;
}

export interface TrustWorkspaceOptions<F extends Fixture> {
  /** Makes the fixture of each test; a plain `Fixture` when not given. */
  fixture?: () => F;
  /** The store's folder, in the fixture: `state` when not given. */
  state?: string;
  /** The host of the context and of `snapshot`: Linux, with every binary, when not given. */
  host?: HostFacts;
}

/**
 * The preamble of a test of the trust lifecycle: registers, in the calling `describe`, a
 * `beforeEach` that makes a fixture, a store in it and the context over both, and an
 * `afterEach` that removes the fixture. Read them through the returned object's getters,
 * which give the current test's.
 */
export function trustWorkspace<F extends Fixture>(
  options: TrustWorkspaceOptions<F> & { fixture: () => F },
): TrustWorkspace<F>;
export function trustWorkspace(options?: TrustWorkspaceOptions<Fixture>): TrustWorkspace<Fixture>;
export function trustWorkspace<F extends Fixture>(options: TrustWorkspaceOptions<F> = {}): TrustWorkspace<F> {
  const host = options.host ?? LINUX_HOST;
  let current: { f: F; store: TrustStore; ctx: LifecycleContext } | undefined;
  beforeEach(() => {
    const f = options.fixture ? options.fixture() : (new Fixture() as F);
    const store = new TrustStore(f.path(options.state ?? 'state'));
    current = { f, store, ctx: { store, host } };
  });
  afterEach(() => current?.f.remove());
  const now = () => {
    if (!current) throw new Error('trustWorkspace: read outside a test (its beforeEach has not run)');
    return current;
  };
  return {
    get f() {
      return now().f;
    },
    get store() {
      return now().store;
    },
    get ctx() {
      return now().ctx;
    },
    snapshot(indexOptions = {}) {
      const { f, store } = now();
      return index([f.path('ws')], { host, trust: () => store.view(), ...indexOptions });
    },
    item(name) {
      return byName(this.snapshot(), name);
    },
    tokenOf(name) {
      const r = review(this.item(name), now().ctx);
      assert.ok(r.ok && r.value.reviewToken !== null, r.ok ? 'no review token' : r.message);
      return r.value.reviewToken;
    },
    async trustNow(name) {
      const r = await trust(this.item(name), this.tokenOf(name), now().ctx);
      assert.ok(r.ok, r.ok ? '' : r.message);
    },
  };
}
