import { strict as assert } from 'node:assert';
import { enableFlow, trustFlow, trustMeaning } from '../../src/extension/flows/trustFlow';
import { newlyDrifted } from '../../src/extension/flows/driftNotice';
import { needsReview } from '../../src/extension/tree/needsReview';
import { contextValueOf } from '../../src/extension/tree/contextValue';
import { statusCounts } from '../../src/extension/statusBar/statusCounts';
import { parseWebviewMessage } from '../../src/extension/review/reviewProtocol';
import { FullIndexRuns } from '../../src/extension/flows/fullIndexRuns';
import { loggedIndexRunAsync } from '../../src/extension/flows/indexRunLog';
import { itemDescription } from '../../src/extension/tree/itemText';
import type { GatePort, LifecyclePort, LogPort, UiPort } from '../../src/extension/flows/ports';
import type { Item } from '../../src/core/model';
import type { TrustPreview, TrustRefusal } from '../../src/core/trust/grantTrust';
import type { Snapshot } from '../../src/core/index/snapshot';
import { ITEM_TOKEN as TOKEN, itemOf, snapshotOf } from './helpers/item';

const item = itemOf;

/** The editor glue, through injected ports: the branches a real host cannot easily reach. */
describe('extension flows (ports)', () => {
  let calls: string[];
  let ui: UiPort;
  let confirmAnswer: boolean;
  let offerAnswer: boolean;
  beforeEach(() => {
    calls = [];
    confirmAnswer = true;
    offerAnswer = false;
    ui = {
      confirm: async (m, d, _a, o) => (
        calls.push(`confirm ${m} | ${d}${o?.safeDefault ? ' | safe default' : ''}`),
        confirmAnswer
      ),
      offer: async (m, a) => (calls.push(`offer ${m} [${a}]`), offerAnswer),
      info: (m) => calls.push(`info ${m}`),
      error: (m) => calls.push(`error ${m}`),
    };
  });
  const MISMATCH = {
    ok: false,
    reason: 'token-mismatch',
    message: 'Review token does not match this bundle content and capability set; review it again',
  } as const;
  /** The lifecycle as the flow sees it: one read that refuses, or confirms with `preview`, then trusts. */
  const lifecycle = (
    currentToken = TOKEN,
    trustOk = true,
    preview: Partial<TrustPreview> = {},
    refusal?: TrustRefusal,
  ): LifecyclePort => ({
    trust: async (i, t, confirm) => {
      if (refusal) return refusal;
      if (t !== currentToken) return MISMATCH;
      const shown: TrustPreview = {
        item: i,
        capabilities: { system: 'codewhale' },
        enabled: false,
        reviewedBefore: false,
        ...preview,
      };
      if (!(await confirm(shown))) return { ok: false, reason: 'cancelled', message: `${i.name} was not trusted.` };
      calls.push(`trust ${t.slice(0, 4)}`);
      return trustOk ? { ok: true, value: { item: item(), reviewedCopy: '/s', preview: shown } } : MISMATCH;
    },
    enable: async () => (calls.push('enable'), { ok: true, value: { item: item(), note: null } }),
  });
  const gate = (
    trusted = true,
    shown: string | undefined = TOKEN,
    hooks: ReturnType<GatePort['hooksOptIn']> = null,
  ): GatePort => ({
    workspaceTrusted: () => trusted,
    shownToken: () => shown,
    hooksOptIn: () => hooks,
  });

  it('refuses trust in Restricted Mode without asking', async () => {
    assert.equal(await trustFlow(item(), TOKEN, { ui, gate: gate(false), lifecycle: lifecycle() }), 'refused');
    assert.deepEqual(calls, ['error Restricted Mode: trust this workspace in VS Code before trusting its bundles.']);
  });

  it('asks for a review first when none was shown', async () => {
    const nothingShown: GatePort = {
      workspaceTrusted: () => true,
      shownToken: () => undefined,
      hooksOptIn: () => null,
    };
    assert.equal(
      await trustFlow(item(), undefined, { ui, gate: nothingShown, lifecycle: lifecycle() }),
      'review-first',
    );
    assert.deepEqual(calls, []);
  });

  it('refuses when the bundle changed since the review was shown', async () => {
    assert.equal(
      await trustFlow(item(), TOKEN, { ui, gate: gate(), lifecycle: lifecycle(`${'c'.repeat(64)}.${'b'.repeat(64)}`) }),
      'refused',
    );
    assert.deepEqual(calls, ['error demo changed since you opened this review; review it again before trusting it.']);
  });

  it('confirms with a modal naming the bundle and the shortened token, then trusts exactly that token', async () => {
    assert.equal(await trustFlow(item(), undefined, { ui, gate: gate(), lifecycle: lifecycle() }), 'trusted');
    assert.match(calls[0] ?? '', /^confirm Trust demo\? \| .*review token aaaaaaaaaaaa…bbbbbbbbbbbb/);
    assert.equal(calls[1], 'trust aaaa');
  });

  it('does nothing when the modal is cancelled', async () => {
    confirmAnswer = false;
    assert.equal(await trustFlow(item(), TOKEN, { ui, gate: gate(), lifecycle: lifecycle() }), 'cancelled');
    assert.ok(!calls.some((c) => c.startsWith('trust')));
  });

  it("reports a change between confirmation and write in the review's words", async () => {
    assert.equal(await trustFlow(item(), TOKEN, { ui, gate: gate(), lifecycle: lifecycle(TOKEN, false) }), 'refused');
    assert.equal(calls.at(-1), 'error demo changed since you opened this review; review it again before trusting it.');
  });

  it('refuses trust of a bundle that became invalid, with the reason, whatever token a stale panel sends (issue 10 #19)', async () => {
    const refusal =
      'Plugin bundle `demo` is invalid: mcp.json server `evil` has unknown type `http` (mcp.json:9). Codewhale does not load it, so it cannot be trusted or enabled until the error is fixed and it is reviewed again.';
    const invalid = lifecycle(TOKEN, true, {}, { ok: false, reason: 'invalid', message: refusal });
    assert.equal(await trustFlow(item(), TOKEN, { ui, gate: gate(), lifecycle: invalid }), 'refused');
    assert.deepEqual(calls, [`error ${refusal}`]);
  });

  it('refuses a token from the panel that is not the one it shows', async () => {
    const other = `${'c'.repeat(64)}.${'b'.repeat(64)}`;
    assert.equal(await trustFlow(item(), TOKEN, { ui, gate: gate(true, other), lifecycle: lifecycle() }), 'refused');
    assert.deepEqual(calls, ['error demo changed since you opened this review; review it again before trusting it.']);
  });

  it('lists in the confirmation what will run and what trust does for Codewhale, with a safe default for Enter (issue 14 #13)', async () => {
    const withCaps = lifecycle(TOKEN, true, {
      capabilities: {
        system: 'codewhale',
        mcpServers: {
          issues: {
            transport: 'stdio',
            command: 'node',
            args: ['mcp/server.mjs', '--mode=readonly'],
            cwd: null,
            env: {},
            url: null,
            envHeaders: {},
            bearerTokenEnvVar: null,
            timeouts: {},
            required: false,
            enabled: true,
            enabledTools: [],
            disabledTools: [],
          },
        },
        networkHosts: ['api.weather.example'],
      },
    });
    assert.equal(await trustFlow(item(), TOKEN, { ui, gate: gate(), lifecycle: withCaps }), 'trusted');
    const [confirm] = calls;
    assert.match(
      confirm ?? '',
      /Commands it will run:\n  • node mcp\/server\.mjs --mode=readonly  \(MCP server issues\)\nNetwork hosts:\n  • api\.weather\.example/,
    );
    assert.match(
      confirm ?? '',
      /Trusting starts nothing: it stays disabled until you enable it\. Any later change to it drops this trust\. \| safe default$/,
    );
  });

  it("lists a hooks file's hooks apart in the confirmation while the editor's environment lacks the opt-in", async () => {
    const withHooks = lifecycle(TOKEN, true, {
      capabilities: {
        system: 'rivumi',
        hooks: { h: { event: 'pre_tool_use', argv: ['python3', 'scan.py'] } },
      } as never,
    });
    const hooksItem = item({ system: 'rivumi', kind: 'hooks', enabled: null, decision: 'display_only' });
    const optIn = { optIn: 'RIVUMI_ENABLE_PROJECT_HOOKS=1', set: false };
    assert.equal(
      await trustFlow(hooksItem, TOKEN, { ui, gate: gate(true, TOKEN, optIn), lifecycle: withHooks }),
      'trusted',
    );
    assert.match(
      calls[0] ?? '',
      /Hooks it runs once RIVUMI_ENABLE_PROJECT_HOOKS=1 is set \(not set here\):\n  • python3 scan\.py  \(hook pre_tool_use\)/,
    );
    assert.ok(!(calls[0] ?? '').includes('Commands it will run'), calls[0]);
  });

  it('says for Rivumi that trust records the review and lets skillgate check pass', async () => {
    assert.equal(
      await trustFlow(item({ system: 'rivumi', enabled: null, decision: 'registered' }), TOKEN, {
        ui,
        gate: gate(),
        lifecycle: lifecycle(),
      }),
      'trusted',
    );
    assert.match(
      calls[0] ?? '',
      /Rivumi already loads this; trusting records your review and lets `skillgate check` pass\./,
    );
  });

  it('offers "Enable again" after re-trusting a bundle that was enabled before the change, and enables it in one step (issue 14 #14)', async () => {
    const wasOn = lifecycle(TOKEN, true, { enabled: true, reviewedBefore: true });
    offerAnswer = true;
    assert.equal(await trustFlow(item(), TOKEN, { ui, gate: gate(), lifecycle: wasOn }), 'trusted');
    assert.deepEqual(calls.slice(1), [
      'trust aaaa',
      'offer Trusted demo. It was enabled before this change; trusting turned it off, as every re-review does. Enable it again? [Enable again]',
      'enable',
      'info Enabled demo.',
    ]);
    calls = [];
    offerAnswer = false;
    await trustFlow(item(), TOKEN, { ui, gate: gate(), lifecycle: wasOn });
    assert.ok(!calls.includes('enable'), 'dismissed: nothing enabled');
    calls = [];
    await trustFlow(item(), TOKEN, { ui, gate: gate(), lifecycle: lifecycle() });
    assert.ok(!calls.some((c) => c.startsWith('offer')), 'a first trust offers nothing');
  });

  it('refuses enable in Restricted Mode', async () => {
    assert.equal(await enableFlow(item(), { ui, gate: gate(false), lifecycle: lifecycle() }), false);
    assert.deepEqual(calls, ['error Restricted Mode: trust this workspace in VS Code before enabling its bundles.']);
  });

  it('tells after trust what happens next: Codewhale waits for Enable, Rivumi loads it as before, Eva still not what its manifest disables', async () => {
    await trustFlow(item(), TOKEN, { ui, gate: gate(), lifecycle: lifecycle() });
    assert.equal(calls.at(-1), 'info Trusted demo. It stays disabled until you enable it.');
    calls = [];
    const loaded = item({ system: 'rivumi', enabled: null, decision: 'registered' });
    await trustFlow(loaded, TOKEN, { ui, gate: gate(), lifecycle: lifecycle() });
    assert.equal(
      calls.at(-1),
      'info Trusted demo. Rivumi loads it as before (it has no enable switch); Skillgate now shows it as reviewed.',
    );
    calls = [];
    const off = item({ system: 'eva', enabled: null, decision: 'disabled', reasons: ['disabled_by_manifest'] });
    await trustFlow(off, TOKEN, { ui, gate: gate(), lifecycle: lifecycle() });
    assert.equal(
      calls.at(-1),
      'info Trusted demo. Eva-CLI does not load it now, and trust does not change that (it has no enable switch); Skillgate now shows it as reviewed.',
    );
    assert.equal(
      trustMeaning(off),
      'Eva-CLI does not load this now; trusting records your review and does not switch anything on or off.',
    );
    // Enabled before, but never reviewed before (a first trust): nothing to offer back.
    calls = [];
    await trustFlow(item(), TOKEN, { ui, gate: gate(), lifecycle: lifecycle(TOKEN, true, { enabled: true }) });
    assert.ok(!calls.some((c) => c.startsWith('offer')));
    assert.equal(calls.at(-1), 'info Trusted demo. It stays disabled until you enable it.');
    // A bundle enable would refuse is never told to wait for Enable: it says why it cannot follow.
    calls = [];
    const lspOnly = item({ compatibility: 'unsupported', decision: 'display_only' });
    await trustFlow(lspOnly, TOKEN, { ui, gate: gate(), lifecycle: lifecycle() });
    assert.equal(
      calls.at(-1),
      'info Trusted demo. It stays disabled and cannot be enabled (it has no supported declarative components to activate).',
    );
    assert.equal(
      trustMeaning(item({ reasons: ['not_applicable'] })),
      'Trusting starts nothing: it stays disabled and cannot be enabled (its [when] conditions do not match this host).',
    );
  });

  it('enables with the note the lifecycle gives, and shows a refused enable as an error', async () => {
    const enabling = (result: Awaited<ReturnType<LifecyclePort['enable']>>): LifecyclePort => ({
      ...lifecycle(),
      enable: async () => result,
    });
    assert.equal(
      await enableFlow(item(), {
        ui,
        gate: gate(),
        lifecycle: enabling({ ok: true, value: { item: item(), note: 'Codewhale reads it at its next start.' } }),
      }),
      true,
    );
    assert.deepEqual(calls, ['info Enabled demo. Codewhale reads it at its next start.']);
    calls = [];
    const refused = 'demo is not trusted at its current content; review and trust it first.';
    assert.equal(
      await enableFlow(item(), {
        ui,
        gate: gate(),
        lifecycle: enabling({ ok: false, reason: 'not-trusted', message: refused } as Awaited<
          ReturnType<LifecyclePort['enable']>
        >),
      }),
      false,
    );
    assert.deepEqual(calls, [`error ${refused}`]);
  });

  it('composes context values from state so menus fit the item', () => {
    assert.equal(contextValueOf(item()), 'item kind-plugin decision-disabled bundle trust-not-reviewed token canTrust');
    assert.equal(
      contextValueOf(item({ trust: 'trusted', enabled: false })),
      'item kind-plugin decision-disabled bundle trust-trusted token canEnable hasReceipt',
    );
    assert.equal(
      contextValueOf(item({ trust: 'content-changed', enabled: true })),
      'item kind-plugin decision-disabled bundle trust-content-changed token canTrust enabled hasReceipt',
    );
    assert.equal(
      contextValueOf(item({ trust: null, enabled: null, kind: 'skill', parent: 'x', reviewToken: null })),
      'item kind-skill decision-disabled',
    );
  });

  it('offers no Enable that enable would refuse: not on this host, unsupported, a skill that cannot be loaded', () => {
    const trustedOff = { trust: 'trusted', enabled: false } as const;
    for (const blocked of [
      item({ ...trustedOff, reasons: ['not_enabled', 'not_applicable'] }),
      item({
        ...trustedOff,
        decision: 'display_only',
        reasons: ['unsupported_components'],
        compatibility: 'unsupported',
      }),
      item({ ...trustedOff, reasons: ['not_enabled', 'staged_skill_invalid'] }),
    ])
      assert.doesNotMatch(contextValueOf(blocked), /canEnable/, blocked.reasons.join());
    assert.match(contextValueOf(item({ ...trustedOff, reasons: ['not_enabled'] })), /\bcanEnable\b/);
  });

  const snap = (items: Item[]): Snapshot => snapshotOf(items);

  it('notices drift only for bundles that were trusted, and counts what needs review', () => {
    const before = snap([
      item({ trust: 'trusted', decision: 'registered', reasons: ['active'], enabled: true }),
      item({ id: 'b', trust: 'not-reviewed' }),
    ]);
    const after = snap([
      item({ trust: 'content-changed', reasons: ['content_changed'], enabled: true }),
      item({ id: 'b', trust: 'content-changed' }),
    ]);
    assert.deepEqual(
      newlyDrifted(before, after).map((i) => i.id),
      ['workspace/abc/demo'],
    );
    assert.equal(needsReview(after).length, 2);
    assert.deepEqual(statusCounts(before), { active: 1, loadedUnreviewed: 0, needsReview: 1, rejected: 0 });
    assert.deepEqual(newlyDrifted(undefined, after), [], 'a first snapshot has nothing to drift from');
  });

  it('counts drift of capabilities too, and in the status bar only top-level bundles; reviews only what can be trusted', () => {
    const trusted = { trust: 'trusted', decision: 'registered', reasons: ['active'], enabled: true } as const;
    const before = snap([item({ id: 'caps', ...trusted }), item({ id: 'same', ...trusted })]);
    const after = snap([
      item({ id: 'caps', trust: 'capabilities-changed', reasons: ['capabilities_changed'] }),
      item({ id: 'same', ...trusted }),
    ]);
    assert.deepEqual(
      newlyDrifted(before, after).map((i) => i.id),
      ['caps'],
    );
    const child = { parent: 'top', trust: null, reviewToken: null, contentHash: null } as const;
    const mixed = snap([
      item({ id: 'top', decision: 'rejected', reasons: ['manifest_invalid'] }),
      item({ id: 'shadowed', decision: 'shadowed', reasons: ['name_conflict'] }),
      item({ id: 'unhashed', contentHash: null }),
      item({ id: 'open' }),
      item({ id: 'top/skill', kind: 'skill', decision: 'registered', reasons: ['active'], ...child }),
      item({ id: 'top/broken', kind: 'skill', decision: 'rejected', reasons: ['manifest_invalid'], ...child }),
      item({ id: 'top/loaded', kind: 'skill', decision: 'registered', reasons: ['loaded_unreviewed'], ...child }),
    ]);
    assert.deepEqual(
      needsReview(mixed).map((i) => i.id),
      ['open'],
    );
    assert.deepEqual(statusCounts(mixed), { active: 0, loadedUnreviewed: 0, needsReview: 1, rejected: 1 });
    // A rejected bundle shows its token but offers no Trust; one without a token offers neither.
    assert.equal(
      contextValueOf(item({ decision: 'rejected' })),
      'item kind-plugin decision-rejected bundle trust-not-reviewed token',
    );
    assert.equal(
      contextValueOf(item({ reviewToken: null })),
      'item kind-plugin decision-disabled bundle trust-not-reviewed',
    );
  });

  it('shows what Rivumi loads unreviewed as loaded, not disabled: its own count, its description, and no Enable', () => {
    const rivumi = item({
      system: 'rivumi',
      decision: 'registered',
      reasons: ['loaded_unreviewed', 'not_reviewed'],
      enabled: null,
    });
    const snap: Snapshot = {
      generation: 1,
      workspaces: ['/ws'],
      items: [rivumi, item({ id: 'c', decision: 'registered', reasons: ['active'], trust: 'trusted', enabled: true })],
      diagnostics: [],
      trustProblem: null,
    };
    assert.deepEqual(statusCounts(snap), { active: 1, loadedUnreviewed: 1, needsReview: 1, rejected: 0 });
    assert.equal(itemDescription(rivumi), 'loaded · not reviewed');
    assert.equal(
      itemDescription({ ...rivumi, reasons: ['loaded_unreviewed', 'content_changed'] }),
      'loaded · changed since review',
    );
    assert.equal(
      contextValueOf({ ...rivumi, trust: 'trusted', decision: 'registered', reasons: ['active'] }),
      'item kind-plugin decision-registered bundle trust-trusted token hasReceipt',
    );
  });

  describe('the review panel protocol (validated on the host)', () => {
    it('accepts the known messages', () => {
      assert.deepEqual(parseWebviewMessage({ type: 'trust', token: TOKEN }), { type: 'trust', token: TOKEN });
      assert.deepEqual(parseWebviewMessage({ type: 'open', file: '/ws/a', line: 3 }), {
        type: 'open',
        file: '/ws/a',
        line: 3,
      });
      assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { type: 'ready' });
    });
    for (const bad of [
      null,
      'trust',
      { type: 'trust' },
      { type: 'trust', token: 'short' },
      { type: 'trust', token: TOKEN, extra: 1 },
      { type: 'open', file: '/a', line: -1 },
      { type: 'runCommand', command: 'workbench.action.terminal.new' },
      { type: 'enable', id: 'other' },
    ]) {
      it(`rejects ${JSON.stringify(bad)}`, () => assert.equal(parseWebviewMessage(bad), undefined));
    }
  });
});

describe('the change batcher (file watcher port)', () => {
  it('turns a burst of events into one flush with every path, and a store change into a re-derive', () => {
    let pending: (() => void) | undefined;
    const timers = { setTimeout: (fn: () => void) => ((pending = fn), 1), clearTimeout: () => (pending = undefined) };
    const flushes: [string[], boolean][] = [];
    const { ChangeBatcher } =
      require('../../src/extension/flows/changeBatcher') as typeof import('../../src/extension/flows/changeBatcher');
    const b = new ChangeBatcher(150, (paths, store) => flushes.push([paths, store]), timers);
    b.path('/ws/.codewhale/plugins/a/plugin.toml');
    b.path('/ws/.codewhale/plugins/a/plugin.toml');
    b.path('/ws/.rivumi/skills/x.md');
    b.store();
    assert.deepEqual(flushes, []);
    pending?.();
    assert.deepEqual(flushes, [[['/ws/.codewhale/plugins/a/plugin.toml', '/ws/.rivumi/skills/x.md'], true]]);
    b.store();
    pending?.();
    assert.deepEqual(flushes[1], [[], true]);
    b.path('/x');
    b.dispose();
    assert.equal(pending, undefined);
  });

  it('keeps one timer for a burst, reports a store change only in the batch that had one, and runs on real timers by default', async () => {
    const { ChangeBatcher } =
      require('../../src/extension/flows/changeBatcher') as typeof import('../../src/extension/flows/changeBatcher');
    let next = 0;
    const pending = new Map<number, () => void>();
    const timers = {
      setTimeout: (fn: () => void) => (pending.set(++next, fn), next),
      clearTimeout: (h: unknown) => pending.delete(h as number),
    };
    const flushes: [string[], boolean][] = [];
    const b = new ChangeBatcher(150, (paths, store) => flushes.push([paths, store]), timers);
    const fire = () => {
      assert.equal(pending.size, 1, 'one timer for the burst');
      const [[handle, fn]] = [...pending] as [[number, () => void]];
      pending.delete(handle);
      fn();
    };
    b.path('/a');
    b.path('/b');
    fire();
    b.store();
    b.path('/c');
    fire();
    b.path('/d');
    fire();
    assert.deepEqual(flushes, [
      [['/a', '/b'], false],
      [['/c'], true],
      [['/d'], false],
    ]);

    const real: [string[], boolean][] = [];
    const withRealTimers = new ChangeBatcher(1, (paths, store) => real.push([paths, store]));
    withRealTimers.path('/r');
    const disposed = new ChangeBatcher(1, (paths, store) => real.push([paths, store]));
    disposed.path('/gone');
    disposed.dispose();
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.deepEqual(real, [[['/r'], false]]);
  });
});

describe('full re-index runs and the changes seen meanwhile', () => {
  it('keeps nothing while no run reads', () => {
    assert.equal(new FullIndexRuns().record(['/a'], false), false);
  });

  it('says a run is reading from its begin to its finish (a re-check then waits)', () => {
    const runs = new FullIndexRuns();
    assert.equal(runs.running, false);
    const run = runs.begin();
    assert.equal(runs.running, true);
    runs.finish(run);
    assert.equal(runs.running, false);
  });

  it('replays on the result what changed while the run read, once', () => {
    const runs = new FullIndexRuns();
    const run = runs.begin();
    assert.equal(runs.record(['/ws/.codewhale/plugins/a/SKILL.md'], false), true);
    assert.equal(runs.record(['/ws/.codewhale/plugins/a/SKILL.md', '/ws/.rivumi/hooks.json'], true), true);
    assert.deepEqual(runs.finish(run), {
      paths: ['/ws/.codewhale/plugins/a/SKILL.md', '/ws/.rivumi/hooks.json'],
      storeChanged: true,
    });
    assert.equal(runs.record(['/b'], false), false, 'after the run, changes go to the live indexer');
  });

  it('drops a run that a newer one overtook; the newer one gets only its own changes', () => {
    const runs = new FullIndexRuns();
    const first = runs.begin();
    runs.record(['/before'], false);
    const second = runs.begin();
    runs.record(['/during'], false);
    assert.equal(runs.finish(first), undefined);
    assert.deepEqual(runs.finish(second), { paths: ['/during'], storeChanged: false });
  });
});

describe('the log of index runs (the "Skillgate" output channel)', () => {
  const snapshot = {
    generation: 1,
    workspaces: ['/ws'],
    items: [item(), item({ id: 'b' })],
    diagnostics: [],
    trustProblem: null,
  } as unknown as Snapshot;
  const recorder = () => {
    const lines: string[] = [];
    const log: LogPort = {
      debug: (m) => lines.push(`debug ${m}`),
      info: (m) => lines.push(`info ${m}`),
      warn: (m) => lines.push(`warn ${m}`),
      error: (m) => lines.push(`error ${m}`),
    };
    return { lines, log };
  };
  const ticks =
    (...times: number[]) =>
    () =>
      times.shift() ?? 0;

  it('logs an incremental run with its items, diagnostics and duration, and returns its snapshot', async () => {
    const { lines, log } = recorder();
    assert.equal(
      await loggedIndexRunAsync(log, 'incremental index', async () => snapshot, ticks(100, 112.4)),
      snapshot,
    );
    assert.deepEqual(lines, ['info incremental index: 2 item(s), 0 diagnostic(s) in 12 ms']);
  });

  it('logs a full run once it has read every bundle', async () => {
    const { lines, log } = recorder();
    const run = loggedIndexRunAsync(log, 'full index', async () => snapshot, ticks(0, 1500));
    assert.deepEqual(lines, [], 'nothing before the run ends');
    assert.equal(await run, snapshot);
    assert.deepEqual(lines, ['info full index: 2 item(s), 0 diagnostic(s) in 1500 ms']);
  });

  it("times a run on the process's monotonic clock unless given one", async () => {
    const { lines, log } = recorder();
    await loggedIndexRunAsync(log, 'full index', async () => snapshot);
    assert.equal(lines.length, 1);
    assert.match(lines[0] as string, /^info full index: 2 item\(s\), 0 diagnostic\(s\) in \d+ ms$/);
  });

  it('logs nothing for a run that throws (the index guard reports it)', async () => {
    const { lines, log } = recorder();
    await assert.rejects(
      loggedIndexRunAsync(log, 'decisions re-derived', async () => {
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.deepEqual(lines, []);
  });
});
