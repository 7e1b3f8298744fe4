import * as os from 'node:os';
import * as path from 'node:path';
import { DECISION_TEXT } from '../../core/decisions/reasonText';
import { displayText } from '../../core/text/displayText';
import { argvText } from '../../core/text/argvText';
import { escapeMarkdown } from '../text/markdownEscape';
import { quickPickText } from '../text/uiText';
import { DECISION_WORD, KIND_WORD, REASON_PHRASE } from './reasonPhrases';
import { itemById, type Snapshot } from '../../core/index/snapshot';
import type { Diagnostic, Item, Severity } from '../../core/model';
import { reasonTextOf, systemOf } from '../../core/systems/registry';
import { folderName, itemFolderName, placedPath } from '../../core/report/folderPlace';
import { isLoadedUnreviewed } from '../../core/decisions/loadedUnreviewed';

/** How an item reads in the tree and the QuickPick; every repository string is escaped for its surface. */

export function itemLabel(item: Item): string {
  // A hook is named by its event; what it runs follows its decision in the description, so the decision stays in sight.
  const event = item.detail.hook?.event;
  if (event !== undefined) return displayText(event);
  return displayText(item.parent ? item.name : item.qualifiedName);
}

/**
 * The tree's description: the reason in words (reasonPhrases.ts), then what an MCP
 * server or a hook runs. With the snapshot, a shadowed
 * bundle names where the winner lives: its folder (Codewhale) or its file (Eva).
 */
export function itemDescription(item: Item, snapshot?: Snapshot): string {
  const runs =
    item.kind === 'mcp-server' && snapshot ? mcpServerRuns(item, snapshot) : item.kind === 'hook' ? hookRuns(item) : '';
  return displayText(runs ? `${reasonPhrase(item, snapshot)} · ${runs}` : reasonPhrase(item, snapshot));
}

/** The primary reason in words; what the agent loads unreviewed reads as loaded, never as disabled (decisions.md). */
function reasonPhrase(item: Item, snapshot?: Snapshot): string {
  const first = item.reasons[0];
  if (first === undefined) return DECISION_WORD[item.decision];
  if (isLoadedUnreviewed(item)) {
    const why = item.reasons[1];
    return why === undefined || why === 'not_reviewed'
      ? REASON_PHRASE.loaded_unreviewed
      : `loaded · ${REASON_PHRASE[why]}`;
  }
  const winner = item.shadowedBy && snapshot ? itemById(snapshot, item.shadowedBy) : undefined;
  if (first === 'name_conflict' && winner && snapshot) {
    // Codewhale bundles of one name differ by where they live: the winner's folder, or the user's.
    if (winner.scope === 'user') return 'shadowed by your user bundle';
    if (winner.workspace) return `shadowed by ${folderName(winner.workspace, snapshot.workspaces)}`;
  }
  if (first === 'duplicate_id_shadowed' && winner && snapshot) {
    // Eva units of one id mostly share a folder: the winner's file tells the two rows apart.
    return `shadowed by ${shownPath(winner, snapshot.workspaces)} (same id)`;
  }
  return REASON_PHRASE[first];
}

/** What the item is, in words: "Codewhale plugin", "MCP server", "inactive lsp component". */
export function kindText(item: Item): string {
  if (item.kind === 'component') return `${item.decision === 'display_only' ? 'inactive ' : ''}${item.name} component`;
  if (item.kind === 'plugin' || item.kind === 'hooks') return `${systemOf(item.system).label} ${KIND_WORD[item.kind]}`;
  return KIND_WORD[item.kind];
}

/**
 * A codicon per kind (the decision is the icon's colour, not its shape). Components are
 * named by what they declare; an inactive one has its own icon whatever it declares.
 */
export function kindIcon(item: Item): string {
  switch (item.kind) {
    case 'plugin':
      return systemOf(item.system).bundleIcon;
    case 'skill':
      return 'book';
    case 'hooks':
      return 'json';
    case 'hook':
      return 'zap';
    case 'mcp-server':
      return 'server';
    case 'component':
      if (item.decision === 'display_only') return 'circle-slash';
      return COMPONENT_ICON[item.name] ?? 'symbol-misc';
    case 'skill-adapter':
    case 'lua-skill':
      return systemOf(item.system).bundleIcon;
    case 'skill-binding':
      return 'link';
  }
}

const COMPONENT_ICON: Readonly<Record<string, string>> = {
  commands: 'terminal',
  agents: 'hubot',
  lsp: 'symbol-interface',
  'filesystem-roots': 'folder-opened',
  'lifecycle-mutation': 'history',
};

/** An MCP server's command and args, or its URL, as its bundle declares them. */
function mcpServerRuns(item: Item, snapshot: Snapshot): string {
  const parent = item.parent ? itemById(snapshot, item.parent) : undefined;
  const servers = parent?.detail.capabilities?.mcpServers;
  const server = servers && Object.hasOwn(servers, item.name) ? servers[item.name] : undefined;
  if (!server) return '';
  if (server.command !== null) return argvText([server.command, ...server.args]);
  return server.url ?? '';
}

/** A hook's argv, as its agent runs it. */
function hookRuns(item: Item): string {
  return item.detail.hook ? argvText(item.detail.hook.argv) : '';
}

/** The screen-reader label: name, kind, decision and reason, all in words (no `not_reviewed`). */
export function itemAriaLabel(item: Item, snapshot?: Snapshot): string {
  return displayText([itemLabel(item), kindText(item), ...decisionAndReason(item, snapshot)].join(', '));
}

/**
 * The decision in a word, then the row's description, the decision said once: a reason
 * whose words begin with it ("loaded · not reviewed", "shadowed by …") already says it.
 */
function decisionAndReason(item: Item, snapshot: Snapshot | undefined): string[] {
  const reason = itemDescription(item, snapshot);
  const decision = decisionWord(item);
  return reason === decision || reason.startsWith(`${decision} `) ? [reason] : [decision, reason];
}

/** The decision in a word or two; what the agent loads unreviewed is loaded (decisions.md `loaded_unreviewed`). */
function decisionWord(item: Item): string {
  return isLoadedUnreviewed(item) ? 'loaded' : DECISION_WORD[item.decision];
}

/**
 * The review panel's tab title; in a multi-root workspace (`workspaces`: the snapshot's), with
 * the bundle's folder: two folders' `tools` would otherwise open two tabs of one title.
 */
export function reviewPanelTitle(item: Item, workspaces: readonly string[] = []): string {
  const folder = itemFolderName(item, item.path, workspaces);
  return `Review: ${displayText(item.name)}${folder === undefined ? '' : ` (${displayText(folder)})`}`;
}

/** The one command a tooltip may run: its Markdown is otherwise untrusted, and no bundle text ever becomes a link. */
export const TOOLTIP_COMMANDS = ['workbench.actions.view.problems'] as const;

/** What the tooltip needs beyond the item: its own diagnostics, when shadowed the bundle that wins, and the workspace folders. */
export interface TooltipContext {
  readonly diagnostics: readonly Diagnostic[];
  readonly winner?: Item;
  /** The snapshot's folders: with several, a path names its folder (core/report/folderPlace.ts). */
  readonly workspaces?: readonly string[];
}

const SHOWN_DIAGNOSTICS = 3;
const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, information: 2 };

/**
 * The tooltip's Markdown: every reason in plain words, who wins over a shadowed bundle,
 * trust and the hashes (shortened once; Copy Review Token copies them in full), the
 * workspace-relative path, and the first diagnostics' messages with a link to the Problems panel.
 */
export function itemTooltipMarkdown(item: Item, context: TooltipContext): string {
  // Blocks apart by a blank line: a line right after a bullet would join it (a lazy continuation).
  const blocks = [
    `**${escapeMarkdown(item.qualifiedName, true)}** — ${escapeMarkdown(kindText(item), true)} — ${DECISION_TEXT[item.decision]}`,
  ];
  if (item.reasons.length > 0) blocks.push(item.reasons.map((r) => `- \`${r}\`: ${reasonTextOf(item, r)}`).join('\n'));
  if (context.winner) {
    const w = context.winner;
    // The shadowed item's own agent (Codewhale by name precedence, Eva by manifest order), in its
    // reason text's terms: the other one wins, whatever that one's own decision.
    blocks.push(
      `$(arrow-right) ${systemOf(item.system).label} takes the ${w.scope} ${KIND_WORD[w.kind]} **${escapeMarkdown(w.qualifiedName, true)}** from ${escapeMarkdown(shownPath(w, context.workspaces), true)} in its place.`,
    );
  }
  if (item.trust) {
    blocks.push(
      `$(shield) Trust: \`${item.trust}\` · ${item.enabled === null ? noSwitchText(item) : `enabled: \`${String(item.enabled)}\``}`,
    );
    if (item.contentHash)
      blocks.push(
        `Content \`${item.contentHash.slice(0, 12)}…\` · capabilities \`${(item.capabilityHash ?? '').slice(0, 12)}…\` (Copy Review Token copies them in full)`,
      );
  }
  blocks.push(`$(file) ${escapeMarkdown(shownPath(item, context.workspaces), true)}`);
  const diagnostics = [...context.diagnostics].sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  if (diagnostics.length === 0) return [...blocks, '$(pass) no diagnostics'].join('\n\n');
  blocks.push(`$(warning) ${diagnostics.length} diagnostic${diagnostics.length === 1 ? '' : 's'}:`);
  const shown = diagnostics
    .slice(0, SHOWN_DIAGNOSTICS)
    .map(
      (d) =>
        `- ${SEVERITY_ICON[d.severity]} ${escapeMarkdown(d.message, true)} (${escapeMarkdown(path.basename(d.file), true)}:${d.range.start.line + 1})`,
    );
  if (diagnostics.length > SHOWN_DIAGNOSTICS) shown.push(`- and ${diagnostics.length - SHOWN_DIAGNOSTICS} more`);
  blocks.push(shown.join('\n'), `[Show in Problems](command:${TOOLTIP_COMMANDS[0]})`);
  return blocks.join('\n\n');
}

/**
 * The trust line of a unit whose agent has no enable switch. "Loads it whatever Skillgate says"
 * only where the decision says the agent loads it: hooks without the opt-in, a plugin past the
 * cap or a rejected unit it does not load (the reasons above say why), as `explain` puts it.
 */
function noSwitchText(item: Item): string {
  const label = systemOf(item.system).label;
  return item.decision === 'registered'
    ? `no enable switch: ${label} loads it whatever Skillgate says`
    : `no enable switch (${label} has none)`;
}

const SEVERITY_ICON: Record<Severity, string> = { error: '$(error)', warning: '$(warning)', information: '$(info)' };

/** A workspace item's path relative to its folder (after the folder's name with several); a user bundle's under `~`. */
function shownPath(item: Item, workspaces: readonly string[] = []): string {
  if (item.workspace && workspaces.length > 1) return placedPath(item, item.path, workspaces);
  if (item.workspace) return path.relative(item.workspace, item.path) || '.';
  const home = os.homedir();
  return home && (item.path === home || item.path.startsWith(home + path.sep))
    ? `~${item.path.slice(home.length)}`
    : item.path;
}

/**
 * A bundle in a QuickPick (which bundle to act on, which drifted one to review), in its tree
 * row's words: the row's name, then what the screen-reader label says (kind, decision, the row's
 * own description), never a code. The pick is flat where the tree is not, so what the tree says
 * by a row's place is said here: the agent with the kind ("Eva-CLI skill adapter"; "Codewhale
 * plugin" names it already), the folder by the path (`detail`, whole with several folders).
 * The decision is said once: "loaded · not reviewed" and "shadowed by app" begin with it.
 * With `matchOnDescription`, typing "review" or "shadowed" finds a bundle by those words; a
 * reason code does not, as in the tree (codes are in the tooltip, Explain and the CLI).
 * With the snapshot, a shadowed bundle names where the winner lives, as its row does.
 */
export function itemPick(
  item: Item,
  workspaces: readonly string[] = [],
  snapshot?: Snapshot,
): { label: string; description: string; detail: string } {
  // With several workspace folders, two worktrees hold the same relative path: the whole path tells them apart.
  const where =
    item.scope === 'user' || workspaces.length > 1 ? item.path : path.relative(item.workspace ?? '', item.path);
  const kind = kindText(item);
  const agent = systemOf(item.system).label;
  const words = [kind.startsWith(`${agent} `) ? kind : `${agent} ${kind}`, ...decisionAndReason(item, snapshot)];
  return {
    label: quickPickText(item.qualifiedName),
    description: quickPickText(words.join(' · ')),
    detail: quickPickText(where),
  };
}
