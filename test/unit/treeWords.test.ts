import { strict as assert } from 'node:assert';
import type { McpServer } from '../../src/core/capabilities';
import { REASON_PHRASE } from '../../src/extension/tree/reasonPhrases';
import {
  itemAriaLabel,
  itemDescription,
  itemLabel,
  itemPick,
  itemTooltipMarkdown,
  kindIcon,
  kindText,
  reviewPanelTitle,
} from '../../src/extension/tree/itemText';
import { treeRowOf } from '../../src/extension/tree/treeRow';
import {
  childNodes,
  FILTER_LABEL,
  GROUP_LABEL,
  readTreeMode,
  ROWS_PER_RANGE,
  visibleTops,
  type TreeNode,
} from '../../src/extension/tree/treeNodes';
import { needsReview } from '../../src/extension/tree/needsReview';
import { statusSummary } from '../../src/extension/statusBar/statusText';
import { Indexer } from '../../src/core/index/indexer';
import { Fixture, LINUX_HOST, writeW } from './helpers/fixture';
import type { Item, ReasonCode } from '../../src/core/model';
import type { Snapshot } from '../../src/core/index/snapshot';
import { itemOf } from './helpers/item';

const item = (over: Partial<Item> = {}): Item =>
  itemOf({ workspace: '/ws/proj', path: '/ws/proj/.codewhale/plugins/demo', ...over });
const snap = (items: Item[], trustProblem: string | null = null): Snapshot => ({
  generation: 1,
  workspaces: ['/ws/proj'],
  items,
  diagnostics: [],
  trustProblem,
});

const labels = (nodes: TreeNode[]) =>
  nodes.map((n) =>
    n.kind === 'item'
      ? n.item.name
      : n.kind === 'group'
        ? `${n.group}:${n.count}`
        : n.kind === 'system'
          ? n.system
          : n.kind === 'range'
            ? `range:${n.start}+${n.items.length}/${n.total}`
            : n.label,
  );

/** An MCP server as a Codewhale bundle's capabilities hold it; `over` sets what a test needs. */
const mcp = (over: Partial<McpServer>): McpServer => ({
  transport: 'stdio',
  command: null,
  args: [],
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
  ...over,
});

describe('the tree in words (issue 14 items 1-4)', () => {
  describe('descriptions: a short phrase per reason, never a code', () => {
    it('has a phrase for every reason, in words (no snake_case code)', () => {
      for (const [code, phrase] of Object.entries(REASON_PHRASE)) {
        assert.ok(phrase.length > 0 && phrase.length <= 36, `${code}: ${phrase}`);
        assert.doesNotMatch(phrase, /_/, `${code}: ${phrase}`);
      }
    });

    const cases: [Partial<Item>, string][] = [
      [{ reasons: ['not_reviewed'] }, 'needs review'],
      [{ reasons: ['content_changed'], trust: 'content-changed' }, 'changed since review'],
      [{ reasons: ['capabilities_changed'], trust: 'capabilities-changed' }, 'capabilities changed'],
      [{ decision: 'rejected', reasons: ['manifest_invalid'] }, 'invalid manifest'],
      [{ reasons: ['not_enabled'], trust: 'trusted' }, 'not enabled'],
      [{ decision: 'registered', reasons: ['active'], trust: 'trusted', enabled: true }, 'active'],
      [{ reasons: ['not_applicable'] }, 'not on this host'],
      [
        { system: 'rivumi', kind: 'hooks', reasons: ['hooks_not_opted_in', 'not_reviewed'] },
        'hooks off (opt-in not set)',
      ],
      [
        { system: 'rivumi', decision: 'registered', reasons: ['loaded_unreviewed', 'not_reviewed'], enabled: null },
        'loaded · not reviewed',
      ],
      [
        { system: 'rivumi', decision: 'registered', reasons: ['loaded_unreviewed', 'content_changed'], enabled: null },
        'loaded · changed since review',
      ],
      [{ decision: 'display_only', reasons: ['unsupported_components', 'not_reviewed'] }, 'shown only (unsupported)'],
      [{ reasons: ['workspace_untrusted'] }, 'off in Restricted Mode'],
    ];
    for (const [over, phrase] of cases) {
      it(`reads "${phrase}" for ${over.decision ?? 'disabled'} · ${(over.reasons ?? []).join(', ')}`, () => {
        assert.equal(itemDescription(item(over)), phrase);
      });
    }

    it('reads as its decision with no reason, and as loaded · not reviewed with no reason after loaded_unreviewed', () => {
      const bare = item({ decision: 'shadowed', reasons: [] });
      assert.equal(itemDescription(bare), 'shadowed');
      assert.equal(itemAriaLabel(bare), 'demo, Codewhale plugin, shadowed', 'the decision said once');
      const loaded = item({ system: 'rivumi', decision: 'registered', reasons: ['loaded_unreviewed'], enabled: null });
      assert.equal(itemDescription(loaded), 'loaded · not reviewed');
    });

    it('says only the reason for a shadowed bundle whose winner is not in the snapshot, or an MCP server whose bundle declares it no more', () => {
      const shadowed = item({ decision: 'shadowed', reasons: ['name_conflict'], shadowedBy: 'workspace/gone/demo' });
      assert.equal(itemDescription(shadowed, snap([shadowed])), 'shadowed by another bundle');
      const server = item({
        id: 'workspace/abc/demo#mcp/issues',
        kind: 'mcp-server',
        name: 'issues',
        parent: 'workspace/abc/demo',
        decision: 'registered',
        reasons: ['component_active'],
        trust: null,
      });
      assert.equal(itemDescription(server, snap([server])), 'active', 'its bundle not in the snapshot');
      const bare = item({ decision: 'registered', reasons: ['active'] });
      assert.equal(itemDescription(server, snap([bare, server])), 'active', 'a bundle without capabilities');
    });

    it('names where the winner of a name conflict lives: your user bundle, or its workspace folder', () => {
      const user = item({
        id: 'user/demo',
        scope: 'user',
        workspace: null,
        decision: 'registered',
        reasons: ['active'],
      });
      const other = item({ id: 'workspace/other/demo', workspace: '/ws/other' });
      const shadowed = item({ decision: 'shadowed', reasons: ['name_conflict'], shadowedBy: 'user/demo' });
      assert.equal(itemDescription(shadowed, snap([user, shadowed])), 'shadowed by your user bundle');
      assert.equal(
        itemDescription({ ...shadowed, shadowedBy: other.id }, snap([other, shadowed])),
        'shadowed by other',
      );
      assert.equal(itemDescription(shadowed), 'shadowed by another bundle');
    });

    it('names the file of the Eva unit that wins by the same id, in the folder and across folders', () => {
      const eva = (over: Partial<Item>) =>
        item({ system: 'eva', kind: 'skill-adapter', name: 'review-skill', qualifiedName: 'review-skill', ...over });
      const winner = eva({ id: 'a', decision: 'registered', path: '/ws/proj/config/adapters/a.yaml' });
      const shadowed = eva({
        id: 'b',
        decision: 'shadowed',
        reasons: ['duplicate_id_shadowed', 'not_reviewed'],
        shadowedBy: 'a',
        path: '/ws/proj/config/adapters/b.yaml',
      });
      assert.equal(itemDescription(shadowed, snap([winner, shadowed])), 'shadowed by config/adapters/a.yaml (same id)');
      // A user skill folder loses to a project adapter: with two folders, the winner's folder is named.
      const user = eva({
        id: 'u',
        kind: 'skill',
        scope: 'user',
        workspace: null,
        decision: 'shadowed',
        reasons: ['duplicate_id_shadowed'],
        shadowedBy: 'a',
        path: '/home/me/.agents/skills/review-skill',
      });
      const two = { ...snap([winner, user]), workspaces: ['/ws/proj', '/ws/other'] };
      assert.equal(itemDescription(user, two), 'shadowed by proj • config/adapters/a.yaml (same id)');
      // No winner to name (shadowedBy null, eva.md case 35; or gone from the snapshot): the reason alone.
      assert.equal(itemDescription({ ...shadowed, shadowedBy: null }, snap([winner, shadowed])), 'shadowed (same id)');
      assert.equal(itemDescription(shadowed, snap([shadowed])), 'shadowed (same id)');
      assert.equal(itemDescription(shadowed), 'shadowed (same id)');
    });

    it('names two workspace folders of one name by their whole paths, on every surface that names a folder', () => {
      const apps = ['/a/app', '/b/app'];
      const winner = item({ id: 'winner', workspace: '/a/app', path: '/a/app/.codewhale/plugins/demo' });
      const shadowed = item({
        id: 'loser',
        workspace: '/b/app',
        path: '/b/app/.codewhale/plugins/demo',
        decision: 'shadowed',
        reasons: ['name_conflict'],
        shadowedBy: winner.id,
      });
      const s: Snapshot = { ...snap([winner, shadowed]), workspaces: apps };
      assert.deepEqual(labels(childNodes(s)), ['/a/app', '/b/app']);
      assert.equal(itemDescription(shadowed, s), 'shadowed by /a/app');
      assert.equal(itemPick(shadowed, apps, s).description, 'Codewhale plugin · shadowed by /a/app');
      // The tooltip (Markdown-escaped) and the panel's title already named them so (core/report/folderPlace.ts).
      const tooltip = itemTooltipMarkdown(shadowed, { diagnostics: [], winner, workspaces: apps });
      assert.ok(tooltip.includes('from \\/a\\/app • '), tooltip);
      assert.equal(reviewPanelTitle(shadowed, apps), 'Review: demo (/b/app)');
      // Folders of distinct names read by their last segment, as before.
      const distinct: Snapshot = {
        ...snap([
          { ...winner, workspace: '/a/web' },
          { ...shadowed, workspace: '/b/app' },
        ]),
        workspaces: ['/a/web', '/b/app'],
      };
      assert.deepEqual(labels(childNodes(distinct)), ['web', 'app']);
      assert.equal(itemDescription({ ...shadowed, workspace: '/b/app' }, distinct), 'shadowed by web');
    });

    it('shows what an MCP server runs beside its decision: command and args, or its URL', () => {
      const parent = item({
        decision: 'registered',
        reasons: ['active'],
        detail: {
          capabilities: {
            system: 'codewhale',
            mcpServers: {
              issues: mcp({ command: 'npx', args: ['-y', 'issues-mcp', '--mode=read'] }),
              weather: mcp({ transport: 'streamable-http', url: 'https://api.weather.example/mcp' }),
            },
          },
        },
      });
      const stdio = item({
        id: 'workspace/abc/demo#mcp/issues',
        kind: 'mcp-server',
        name: 'issues',
        parent: parent.id,
        decision: 'registered',
        reasons: ['component_active'],
        trust: null,
      });
      const remote = { ...stdio, id: 'workspace/abc/demo#mcp/weather', name: 'weather' };
      const s = snap([parent, stdio, remote]);
      assert.equal(itemDescription(stdio, s), 'active · npx -y issues-mcp --mode=read');
      assert.equal(itemDescription(remote, s), 'active · https://api.weather.example/mcp');
    });

    it('names a hook by its event and shows its argv after its decision', () => {
      const hook = item({
        id: 'rivumi:/ws#hooks/pre_tool_use/0',
        system: 'rivumi',
        kind: 'hook',
        name: 'pre_tool_use: python3 scripts/deny.py',
        parent: 'h',
        decision: 'disabled',
        reasons: ['hooks_not_opted_in'],
        trust: null,
        detail: {
          hook: { event: 'pre_tool_use', argv: ['python3', 'scripts/deny.py'], timeoutSeconds: 30, tools: [] },
        },
      });
      assert.equal(itemLabel(hook), 'pre_tool_use');
      assert.equal(itemDescription(hook), 'hooks off (opt-in not set) · python3 scripts/deny.py');
      assert.equal(
        itemDescription(hook, snap([hook])),
        'hooks off (opt-in not set) · python3 scripts/deny.py',
        'with the snapshot, as the tree asks',
      );
    });
  });

  describe('screen-reader labels and kinds', () => {
    it('labels a row with its name, kind, decision and reason, all in words', () => {
      assert.equal(
        itemAriaLabel(item({ name: 'repo-tools', qualifiedName: 'repo-tools' })),
        'repo-tools, Codewhale plugin, disabled, needs review',
      );
      assert.equal(
        itemAriaLabel(
          item({
            system: 'rivumi',
            name: 'test-pack',
            qualifiedName: 'test-pack',
            decision: 'registered',
            reasons: ['loaded_unreviewed', 'not_reviewed'],
            enabled: null,
          }),
        ),
        // The decision once: the reason's words begin with it.
        'test-pack, Rivumi plugin, loaded · not reviewed',
      );
      for (const code of Object.keys(REASON_PHRASE) as ReasonCode[])
        assert.doesNotMatch(itemAriaLabel(item({ reasons: [code] })), /_/, code);
    });

    it('gives each kind its own icon, and an inactive component one of its own', () => {
      const kinds: Item[] = [
        item({ kind: 'plugin' }),
        item({ kind: 'plugin', system: 'rivumi' }),
        item({ kind: 'skill' }),
        item({ kind: 'hooks', system: 'rivumi' }),
        item({ kind: 'hook', system: 'rivumi' }),
        item({ kind: 'mcp-server' }),
        item({ kind: 'component', name: 'commands', decision: 'registered', reasons: ['component_active'] }),
        item({ kind: 'component', name: 'agents', decision: 'registered', reasons: ['component_active'] }),
        item({ kind: 'component', name: 'lsp', decision: 'display_only', reasons: ['component_inactive'] }),
      ];
      const icons = kinds.map(kindIcon);
      assert.equal(new Set(icons).size, icons.length, icons.join(', '));
      assert.equal(kindText(kinds[8] as Item), 'inactive lsp component');
      assert.equal(kindText(kinds[5] as Item), 'MCP server');
    });

    it('gives each kind its codicon, a component the one of what it declares', () => {
      const component = (name: string) =>
        item({ kind: 'component', name, decision: 'registered', reasons: ['component_active'] });
      const icons: [Item, string][] = [
        [item({ kind: 'skill' }), 'book'],
        [item({ kind: 'hooks', system: 'rivumi' }), 'json'],
        [item({ kind: 'hook', system: 'rivumi' }), 'zap'],
        [item({ kind: 'mcp-server' }), 'server'],
        [component('commands'), 'terminal'],
        [component('agents'), 'hubot'],
        [component('lsp'), 'symbol-interface'],
        [component('filesystem-roots'), 'folder-opened'],
        [component('lifecycle-mutation'), 'history'],
        [component('themes'), 'symbol-misc'],
        [{ ...component('lsp'), decision: 'display_only' }, 'circle-slash'],
        [item({ kind: 'skill-adapter', system: 'eva' }), kindIcon(item({ kind: 'plugin', system: 'eva' }))],
        [item({ kind: 'lua-skill', system: 'eva' }), kindIcon(item({ kind: 'plugin', system: 'eva' }))],
        [item({ kind: 'skill-binding', system: 'eva' }), 'link'],
      ];
      for (const [unit, icon] of icons) assert.equal(kindIcon(unit), icon, `${unit.kind} ${unit.name}`);
      assert.notEqual(kindIcon(item({ kind: 'plugin', system: 'eva' })), '');
    });

    it('names each kind in words, a bundle with its agent', () => {
      const kinds: [Partial<Item>, string][] = [
        [{ kind: 'plugin' }, 'Codewhale plugin'],
        [{ kind: 'plugin', system: 'rivumi' }, 'Rivumi plugin'],
        [{ kind: 'skill' }, 'skill'],
        [{ kind: 'hooks', system: 'rivumi' }, 'Rivumi hooks file'],
        [{ kind: 'hook', system: 'rivumi' }, 'hook'],
        [{ kind: 'mcp-server' }, 'MCP server'],
        [{ kind: 'component', name: 'commands', decision: 'registered' }, 'commands component'],
        [{ kind: 'skill-adapter', system: 'eva' }, 'skill adapter'],
        [{ kind: 'lua-skill', system: 'eva' }, 'Lua skill'],
        [{ kind: 'skill-binding', system: 'eva' }, 'skill binding'],
      ];
      for (const [over, words] of kinds) assert.equal(kindText(item(over)), words, over.kind);
    });
  });

  describe("the bundle pick: the tree row's words, not codes", () => {
    // The codes the tree's words replace: snake_case reasons and `display_only` (anywhere); the kinds'
    // and agents' ids only in the description (the path in `detail` holds `.codewhale`).
    const CODES = new RegExp(
      `\\b(${[...Object.keys(REASON_PHRASE).filter((c) => c.includes('_')), 'display_only'].join('|')})\\b`,
    );
    const IDS = /\b(skill-adapter|lua-skill|codewhale|rivumi|eva)\b/;
    const two = ['/ws/app', '/ws/lib'];
    const winner = item({ id: 'winner', workspace: '/ws/app', path: '/ws/app/.codewhale/plugins/demo' });
    const bundles: Item[] = [
      item({ id: 'cw', workspace: '/ws/lib', path: '/ws/lib/.codewhale/plugins/cw' }),
      item({
        id: 'rv',
        system: 'rivumi',
        workspace: '/ws/lib',
        decision: 'registered',
        reasons: ['loaded_unreviewed', 'not_reviewed'],
        enabled: null,
      }),
      item({
        id: 'ev',
        system: 'eva',
        kind: 'skill-adapter',
        workspace: '/ws/lib',
        decision: 'registered',
        reasons: ['loaded_unreviewed', 'content_changed'],
        trust: 'content-changed',
        enabled: null,
      }),
      item({
        id: 'lua',
        system: 'eva',
        kind: 'lua-skill',
        workspace: '/ws/lib',
        decision: 'rejected',
        reasons: ['skill_invalid'],
      }),
      item({
        id: 'hk',
        system: 'rivumi',
        kind: 'hooks',
        workspace: '/ws/lib',
        reasons: ['hooks_not_opted_in', 'not_reviewed'],
      }),
      item({ id: 'cap', workspace: '/ws/lib', decision: 'display_only', reasons: ['plugin_limit_exceeded'] }),
      item({ id: 'sh', workspace: '/ws/lib', decision: 'shadowed', reasons: ['name_conflict'], shadowedBy: 'winner' }),
      item({
        id: 'on',
        workspace: '/ws/lib',
        decision: 'registered',
        reasons: ['active'],
        trust: 'trusted',
        enabled: true,
      }),
    ];
    const s: Snapshot = { ...snap([winner, ...bundles]), workspaces: two };

    it("says each bundle's kind, decision and reason as its row does, with the agent the row sits under", () => {
      const described = bundles.map((b) => itemPick(b, two, s).description);
      assert.deepEqual(described, [
        'Codewhale plugin · disabled · needs review',
        'Rivumi plugin · loaded · not reviewed',
        'Eva-CLI skill adapter · loaded · changed since review',
        'Eva-CLI Lua skill · rejected · invalid skill',
        'Rivumi hooks file · disabled · hooks off (opt-in not set)',
        'Codewhale plugin · shown only · past the 16-plugin cap',
        'Codewhale plugin · shadowed by app',
        'Codewhale plugin · loaded · active',
      ]);
    });

    it("carries no reason or decision code, and ends with the row's own description", () => {
      for (const b of bundles) {
        const pick = itemPick(b, two, s);
        for (const text of Object.values(pick)) assert.doesNotMatch(text, CODES, `${b.id}: ${text}`);
        assert.doesNotMatch(pick.description, IDS, b.id);
        assert.ok(pick.description.endsWith(treeRowOf(b, s).description), `${b.id}: ${pick.description}`);
        // The row's name, and the whole path that tells two folders' bundles apart.
        assert.equal(pick.label, treeRowOf(b, s).label);
        assert.equal(pick.detail, b.path);
      }
      for (const code of Object.keys(REASON_PHRASE) as ReasonCode[])
        assert.doesNotMatch(itemPick(item({ reasons: [code] })).description, CODES, code);
      for (const decision of ['registered', 'rejected', 'display_only', 'disabled', 'shadowed'] as const)
        assert.doesNotMatch(itemPick(item({ decision })).description, /registered|display_only/, decision);
    });
  });

  describe('filter and group by decision', () => {
    const rejected = item({ id: 'r', name: 'broken', decision: 'rejected', reasons: ['manifest_invalid'] });
    const pending = item({ id: 'p', name: 'repo-tools' });
    const active = item({
      id: 'a',
      name: 'ok',
      decision: 'registered',
      reasons: ['active'],
      trust: 'trusted',
      enabled: true,
    });
    const loaded = item({
      id: 'l',
      system: 'rivumi',
      name: 'test-pack',
      decision: 'registered',
      reasons: ['loaded_unreviewed', 'not_reviewed'],
      enabled: null,
    });
    const child = item({
      id: 'a#skill/s',
      name: 's',
      kind: 'skill',
      parent: 'a',
      decision: 'registered',
      reasons: ['component_active'],
      trust: null,
    });
    const s = snap([rejected, pending, active, loaded, child]);
    const items = (filter: 'all' | 'needsReview' | 'rejected') => {
      const [folder] = childNodes(s, undefined, { filter, groupByDecision: false });
      return folder
        ? childNodes(s, folder, { filter, groupByDecision: false }).flatMap((sys) =>
            labels(childNodes(s, sys, { filter, groupByDecision: false })),
          )
        : [];
    };

    it('keeps only what needs review (what Rivumi loads unreviewed too), only what is rejected, or everything', () => {
      assert.deepEqual(items('needsReview'), ['test-pack', 'repo-tools']);
      assert.deepEqual(items('rejected'), ['broken']);
      assert.deepEqual(items('all'), ['test-pack', 'broken', 'repo-tools', 'ok']);
    });

    it("groups the top level by decision, worst first, with counts, and keeps a bundle's parts under it", () => {
      const mode = { filter: 'all', groupByDecision: true } as const;
      const groups = childNodes(s, undefined, mode);
      assert.deepEqual(labels(groups), ['rejected:1', 'loadedUnreviewed:1', 'needsReview:1', 'active:1']);
      const activeGroup = groups[3] as TreeNode;
      const [ok] = childNodes(s, activeGroup, mode);
      assert.deepEqual(labels(childNodes(s, ok, mode)), ['s']);
      assert.equal(new Set(groups.map((g) => g.id)).size, groups.length);
    });

    it('shows more than 250 items under one node as ranges of 250, in order, every item one click away', () => {
      const many = (n: number) =>
        Array.from({ length: n }, (_, i) => item({ id: `p${i}`, name: `p${String(i).padStart(4, '0')}` }));
      const under = (s: Snapshot, mode = { filter: 'all', groupByDecision: false } as const) => {
        const [folder] = childNodes(s, undefined, mode);
        const [system] = childNodes(s, folder, mode);
        return childNodes(s, system, mode);
      };
      assert.equal(ROWS_PER_RANGE, 250);
      assert.deepEqual(
        labels(under(snap(many(250)))),
        many(250).map((i) => i.name),
      );
      const s = snap(many(601));
      const ranges = under(s);
      assert.deepEqual(labels(ranges), ['range:0+250/601', 'range:250+250/601', 'range:500+101/601']);
      assert.deepEqual(
        ranges.flatMap((r) => labels(childNodes(s, r))),
        many(601).map((i) => i.name),
      );
      // Ids are unique, and the same for the same place in the next snapshot (an opened range stays open).
      assert.equal(new Set(ranges.map((r) => r.id)).size, 3);
      assert.deepEqual(
        under(snap(many(700)))
          .map((r) => r.id)
          .slice(0, 3),
        ranges.map((r) => r.id),
      );
      // Grouped by decision, and a bundle's own parts, the same way.
      const grouped = { filter: 'all', groupByDecision: true } as const;
      const [group] = childNodes(s, undefined, grouped);
      assert.deepEqual(labels(childNodes(s, group, grouped)), labels(ranges));
      const parts = Array.from({ length: 251 }, (_, i) =>
        item({ id: `big#skill/${i}`, name: `s${i}`, kind: 'skill', parent: 'big', trust: null }),
      );
      const withParts = snap([item({ id: 'big', name: 'big' }), ...parts]);
      const [big] = under(withParts);
      assert.deepEqual(labels(childNodes(withParts, big)), ['range:0+250/251', 'range:250+1/251']);
    });

    it('groups what is disabled, shown only and shadowed apart, after what is active', () => {
      const others = snap([
        item({ id: 'sh', name: 'hidden', decision: 'shadowed', reasons: ['name_conflict'] }),
        item({ id: 'do', name: 'elsewhere', decision: 'display_only', reasons: ['not_applicable'], trust: 'trusted' }),
        item({ id: 'd', name: 'off', trust: 'trusted', reasons: ['not_enabled'] }),
        active,
      ]);
      const mode = { filter: 'all', groupByDecision: true } as const;
      const groups = childNodes(others, undefined, mode);
      assert.deepEqual(labels(groups), ['disabled:1', 'active:1', 'displayOnly:1', 'shadowed:1']);
      assert.deepEqual(
        groups.map((g) => labels(childNodes(others, g, mode))),
        [['off'], ['ok'], ['elsewhere'], ['hidden']],
      );
      assert.deepEqual(GROUP_LABEL, {
        rejected: 'Rejected',
        loadedUnreviewed: 'Loaded · not reviewed',
        needsReview: 'Needs review',
        disabled: 'Disabled',
        active: 'Active',
        displayOnly: 'Shown only',
        shadowed: 'Shadowed',
      });
    });

    it('shows a folder only with bundles of its own, each agent only where it has bundles, and user bundles apart', () => {
      const user = item({
        id: 'u',
        name: 'mine',
        scope: 'user',
        workspace: null,
        path: '/home/u/.codewhale/plugins/mine',
      });
      const rivumi = item({ id: 'rv', name: 'pack', system: 'rivumi', workspace: '/ws/other' });
      const three: Snapshot = { ...snap([rejected, rivumi, user]), workspaces: ['/ws/proj', '/ws/other', '/ws/empty'] };
      const mode = { filter: 'all', groupByDecision: false } as const;
      const folders = childNodes(three, undefined, mode);
      assert.deepEqual(
        folders.map((n) => [n.id, labels([n])[0]]),
        [
          ['folder:/ws/proj', 'proj'],
          ['folder:/ws/other', 'other'],
          ['folder:user', 'User bundles'],
        ],
      );
      assert.deepEqual(
        folders.map((n) => labels(childNodes(three, n, mode))),
        [['codewhale'], ['rivumi'], ['codewhale']],
      );
      assert.deepEqual(labels(childNodes(three, folders[2], mode).flatMap((n) => childNodes(three, n, mode))), [
        'mine',
      ]);
      // The rejected filter keeps only the folder that holds a rejected bundle.
      assert.deepEqual(
        childNodes(three, undefined, { filter: 'rejected', groupByDecision: false }).map((n) => n.id),
        ['folder:/ws/proj'],
      );
    });

    it('reads a remembered mode back, and falls back to all, by folder, for anything it did not write', () => {
      assert.deepEqual(readTreeMode({ filter: 'rejected', groupByDecision: true }), {
        filter: 'rejected',
        groupByDecision: true,
      });
      assert.deepEqual(readTreeMode({ filter: 'everything', groupByDecision: 'yes' }), {
        filter: 'all',
        groupByDecision: false,
      });
      assert.deepEqual(readTreeMode(undefined), { filter: 'all', groupByDecision: false });
      assert.deepEqual(readTreeMode(null), { filter: 'all', groupByDecision: false });
      for (const filter of ['all', 'needsReview', 'rejected'] as const)
        assert.deepEqual(readTreeMode({ filter, groupByDecision: false }), { filter, groupByDecision: false });
      assert.deepEqual(FILTER_LABEL, { all: '', needsReview: 'needs review', rejected: 'rejected' });
    });
  });

  describe('the status bar: coloured by the worst state, counts in words', () => {
    const active = item({ id: 'a', decision: 'registered', reasons: ['active'], trust: 'trusted', enabled: true });
    it('is plain when everything is trusted and active', () => {
      const s = statusSummary(snap([active]));
      assert.equal(s.level, 'plain');
      assert.equal(s.filter, 'all');
      assert.equal(s.text, '$(shield) 1 $(eye) 0 $(error) 0');
      assert.equal(s.tooltip, 'Skillgate\n1 active\n0 need review\n0 rejected\n\nClick to show Skillgate.');
    });
    it('is warning-coloured when a bundle needs review or Rivumi loads one unreviewed, and a click shows those', () => {
      assert.equal(statusSummary(snap([active, item({ id: 'p' })])).level, 'warning');
      const loaded = statusSummary(
        snap([
          active,
          item({
            id: 'l',
            system: 'rivumi',
            decision: 'registered',
            reasons: ['loaded_unreviewed', 'not_reviewed'],
            enabled: null,
          }),
        ]),
      );
      assert.equal(loaded.level, 'warning');
      assert.equal(loaded.filter, 'needsReview');
      // What the agent loads unreviewed has its own warning count beside the active ones.
      assert.equal(loaded.text, '$(shield) 1 $(warning) 1 $(eye) 1 $(error) 0');
      assert.equal(
        loaded.tooltip,
        'Skillgate\n1 active\n1 loaded although not reviewed\n1 needs review\n0 rejected\n\nClick to show the bundles that need review.',
      );
    });
    it('points the badge, the filter and a click at a loaded unit Skillgate cannot hash, as its colour does', () => {
      // Eva registers an adapter past Skillgate's hashing limits (eva.md §6.1): loaded, covered by no review, never trustable.
      const unhashable = item({
        id: 'u',
        system: 'eva',
        kind: 'skill-adapter',
        name: 'big-adapter',
        decision: 'registered',
        reasons: ['loaded_unreviewed', 'not_reviewed'],
        enabled: null,
        contentHash: null,
        capabilityHash: null,
        reviewToken: null,
      });
      // Trusted once, unhashable since: the receipt's hashes are not its (null) ones.
      const drifted = {
        ...unhashable,
        reasons: ['loaded_unreviewed', 'capabilities_changed'],
        trust: 'capabilities-changed',
      } as const;
      for (const u of [unhashable, drifted]) {
        const s = snap([active, u]);
        const summary = statusSummary(s);
        assert.equal(summary.level, 'warning');
        assert.equal(summary.filter, 'needsReview', String(u.trust));
        assert.match(summary.tooltip, /\n1 needs review\n/);
        assert.deepEqual(
          needsReview(s).map((i) => i.id),
          ['u'],
          'the badge counts it',
        );
        assert.deepEqual(
          visibleTops(s, 'needsReview').map((i) => i.id),
          ['u'],
          'the filter keeps it',
        );
      }
    });
    it('is error-coloured when a bundle is rejected or the trust store fails closed', () => {
      const s = statusSummary(
        snap([
          active,
          item({ id: 'p' }),
          item({ id: 'p2' }),
          item({ id: 'r', decision: 'rejected', reasons: ['manifest_invalid'] }),
        ]),
      );
      assert.equal(s.level, 'error');
      assert.equal(s.filter, 'rejected');
      assert.equal(s.tooltip, 'Skillgate\n1 active\n2 need review\n1 rejected\n\nClick to show the rejected bundles.');
      assert.equal(s.text, '$(shield) 1 $(eye) 2 $(error) 1');
      const failsClosed = statusSummary(snap([active], 'malformed'));
      assert.equal(failsClosed.level, 'error');
      assert.equal(
        failsClosed.tooltip,
        'Skillgate\n1 active\n0 need review\n0 rejected\nthe trust store is unreadable: everything fails closed\n\nClick to show Skillgate.',
      );
    });
  });

  describe('loading: progress until the first snapshot', () => {
    let f: Fixture;
    beforeEach(() => (f = new Fixture()));
    afterEach(() => f.remove());

    it('reports bundles loaded out of the total while indexing, ending at the total', async () => {
      for (let i = 0; i < 40; i++) writeW(f, '', `ws/.codewhale/plugins/p${i}`);
      const seen: [number, number][] = [];
      const s = await new Indexer({
        workspaces: [f.path('ws')],
        codewhaleHome: f.path('home'),
        host: LINUX_HOST,
      }).indexAllAsync((done, total) => seen.push([done, total]));
      assert.equal(s.items.filter((i) => i.parent === null).length, 40);
      assert.deepEqual(seen[0], [0, 40]);
      // 40 is no multiple of a slice: the last report still says every bundle is loaded.
      assert.deepEqual(seen.at(-1), [40, 40]);
      assert.ok(seen.length >= 3, JSON.stringify(seen));
      assert.ok(
        seen.every(
          ([done, total], k) =>
            total === 40 && done <= total && (k === 0 || done > (seen[k - 1] as [number, number])[0]),
        ),
        JSON.stringify(seen),
      );
    });
  });
});
