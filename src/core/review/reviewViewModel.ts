import * as path from 'node:path';
import { DECISION_TEXT } from '../decisions/reasonText';
import { isLoadedUnreviewed } from '../decisions/loadedUnreviewed';
import { enableBlockedBy, hasEnableSwitch, noEnableSwitchNotice } from '../trust/enableSwitch';
import { displayText, hasUnsafeForDisplay } from '../text/displayText';
import { displayPath } from '../report/contract';
import { placedPath } from '../report/folderPlace';
import type { Snapshot } from '../index/snapshot';
import type { Item, ReasonCode, Severity } from '../model';
import type { ReviewReport } from '../trust/reviewBundle';

import { decodeRawName } from '../fs/rawNames';
import { unitText } from './unitText';
import { reasonTextOf, systemOf } from '../systems/registry';
import { argumentKind, mcpHost, serversById, startsProcess, timeoutsOf } from '../mcpServers';
import { relativeTime } from './relativeTime';
import { hookLoadFails } from './hookLoad';
import { capabilitiesUnknown, hashesNotComputable } from './missingHashes';
import type { HookView, McpView, ReviewViewModel, Shown } from './reviewModel';
import type { ReviewContract } from '../systems/agentSystem';

export type { FileView, HookView, McpView, ReviewViewModel, Shown, DiffLine } from './reviewModel';
/** The sentence when the manifest does not load, in the capabilities and in what changed (missingHashes.ts). */
export { CAPABILITIES_UNKNOWN } from './missingHashes';

export function shown(text: unknown): Shown {
  const s = typeof text === 'string' ? text : text === undefined || text === null ? '' : JSON.stringify(text);
  // A tab is marked like every control character, but it is ordinary whitespace in a diff, not a hidden one.
  return { text: displayText(s), hidden: hasUnsafeForDisplay(s.replace(/\t/g, ' ')) };
}

/** Shown under the buttons in Restricted Mode: what stays available and why (README "Restricted Mode"). */
export const RESTRICTED_NOTICE =
  'Restricted Mode: Trust and Enable are unavailable until you trust this workspace. Disable and Revoke stay available: they only reduce what runs.';
/** The same, when there is nothing to disable or revoke. */
export const RESTRICTED_NOTICE_NOTHING_TO_REDUCE =
  'Restricted Mode: Trust and Enable are unavailable until you trust this workspace.';
/** The same for a unit whose agent has no enable switch (Rivumi, Eva-CLI): the panel offers Trust and Revoke only. */
export const RESTRICTED_NOTICE_TRUST_ONLY =
  'Restricted Mode: Trust is unavailable until you trust this workspace. Revoke stays available: it only reduces what runs.';
/** The same, when there is nothing to revoke. */
export const RESTRICTED_NOTICE_TRUST_ONLY_NOTHING_TO_REDUCE =
  'Restricted Mode: Trust is unavailable until you trust this workspace.';

/** What a local MCP server's process may reach, where its agent's own review does not word it. */
export const LOCAL_PROCESS_AUTHORITY = "Starts a local process with your user's filesystem and network access.";

/** What the panel's button that shows a skill part's text says (the webview says the same of a command's). */
export const AGENT_TEXT_LABEL = 'Show the text the agent reads';

/**
 * A bundle that cannot be walked now (a link in it, past a limit) has no list of its files:
 * only the files the receipt names are compared, so "no file changes" would hide a file
 * added since. Said in place of it.
 */
export const FILES_REVIEWED_ONLY =
  'The bundle cannot be walked now (see Diagnostics), so only the files you reviewed are compared: a file added since is not listed.';

/**
 * Diagnostics a review lists. They are findings, not reviewed content (every file stays
 * listed and can be opened); past this many the panel would hold tens of megabytes and
 * block the extension host while it builds them.
 */
export const MAX_REVIEW_DIAGNOSTICS = 500;
const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, information: 2 };

export function reviewViewModel(
  r: ReviewReport,
  snapshot: Snapshot,
  hooksOptIn: boolean,
  workspaceTrusted = true,
  now = new Date(),
): ReviewViewModel {
  const item = r.item;
  const agent = systemOf(item.system);
  const abs = (rel: string) => path.join(r.root, rel);
  const caps = r.capabilities;
  const fileSet = new Set((r.files ?? []).map((f) => f.path));
  let hidden = 0;
  const count = <T extends Shown>(x: T): T => {
    if (x.hidden) hidden++;
    return x;
  };
  const S = (t: unknown) => count(shown(t));
  /**
   * The text the agent reads, lines kept; bundle text, so shown with its invisible characters marked.
   * Read as unitText.ts reads it: a file the review hashed as its hash read it; with `hashedOnly`, no other.
   */
  const body = (file: string, hashedOnly = false): Shown | null => {
    const read = unitText(r, file, hashedOnly);
    if (read === undefined) return null;
    if ('note' in read) return { text: read.note, hidden: false };
    const text = read.text;
    return count({ text: displayText(text, 'multi-line'), hidden: hasUnsafeForDisplay(text.replace(/[\t\n]/g, ' ')) });
  };

  const current = snapshot.items.find((i) => i.id === item.id) ?? item;
  const bundleActive = current.decision === 'registered';
  // An agent with a review of its own (Codewhale's `/plugin show`) states the unit and its servers in its words.
  const agentReview = agent.reviewLines;
  const stated = agentReview && caps ? agentReview.contract(item, caps, current) : null;
  const mcp: McpView[] = serversById(caps).map(([id, s]) => {
    const local = startsProcess(s);
    const card = agentReview?.serverCard(s);
    return {
      id: S(id),
      transport: local ? 'stdio' : s.transport,
      command: local ? S(s.command) : null,
      argv: s.args.map((a, i) => ({ index: i + 1, kind: argumentKind(a, fileSet), value: S(a) })),
      cwd: local ? S(s.cwd ?? 'plugin root') : null,
      env: Object.entries(s.env).map(([destination, source]) => ({
        destination: displayText(destination),
        source: displayText(source ?? '?'),
      })),
      endpoint: s.url ? S(s.url) : null,
      host: mcpHost(s),
      authEnv: [
        ...Object.entries(s.envHeaders).map(([h, src]) => `${h} ← \${${src}}`),
        ...(s.bearerTokenEnvVar ? [`Authorization: Bearer \${${s.bearerTokenEnvVar}}`] : []),
      ].map((t) => displayText(t)),
      timeouts: card ? [displayText(card.timeouts)] : timeoutsOf(s).map((t) => displayText(`${t.name} ${t.seconds}s`)),
      // Said plainly first; the agent's own word for it after, as its review prints it.
      authority: card?.authority
        ? `${LOCAL_PROCESS_AUTHORITY} (${agent.label}: ${card.authority})`
        : local && !card
          ? LOCAL_PROCESS_AUTHORITY
          : null,
      facts: (card?.facts ?? []).map((f) => ({ label: f.label, value: S(f.value) })),
      enabledTools: s.enabledTools.map(S),
      disabledTools: s.disabledTools.map(S),
      enabled: s.enabled,
      state: !bundleActive
        ? { text: `not started: ${notActiveBecause(current)}`, tone: 'muted' as const }
        : !s.enabled
          ? { text: 'configured off', tone: 'off' as const }
          : { text: 'configured on', tone: 'on' as const },
    };
  });

  const inactive = new Set(item.detail.activation?.inactiveComponents ?? []);
  const component = (kind: string, paths: readonly string[]) => {
    const never = inactive.has(kind);
    return {
      kind: displayText(kind),
      inactive: never,
      active: !never && bundleActive,
      activity: never
        ? `never active: ${item.system} lists it but does not activate it`
        : bundleActive
          ? 'active: the agent loads it'
          : `not active: ${notActiveBecause(current)}`,
      paths: paths.map(S),
    };
  };
  const components = Object.entries(caps?.components ?? {}).map(([kind, paths]) => component(kind, paths));
  for (const kind of ['filesystem-roots', 'lifecycle-mutation'])
    if (inactive.has(kind)) components.push(component(kind, []));
  const hookCwd = item.workspace ?? path.dirname(item.path);
  const hooks: HookView[] = Object.values(caps?.hooks ?? {}).map((h) => {
    const coverage = agent.hooks?.argvFiles(hookCwd, h.argv) ?? { files: [], problems: [] };
    return {
      event: displayText(h.event),
      argv: h.argv.map(S),
      timeoutSeconds: h.timeoutSeconds,
      tools: h.tools.map((t) => displayText(t)),
      cwd: agent.hooks?.cwd ?? '',
      files: [
        ...coverage.files.map((f) => ({
          path: S(decodeRawName(f)),
          covered: true,
          note: 'covered: its bytes are part of the review token',
        })),
        ...coverage.problems.map((p) => ({
          path: S(h.argv[p.argIndex] ?? ''),
          covered: false,
          note: `not covered: ${p.message}`,
        })),
      ],
      afterRun: agent.hooks?.afterRun(h.argv) ?? null,
    };
  });
  // The skills as this review read them, each with the text the agent reads; then those the unit
  // binds with no item of their own (an Eva adapter's skill.path, a lua_skill's script), read only
  // as the unit's hash read them. None while the manifest does not load: what it binds is unknown.
  const skills = [
    ...r.parts
      .filter((p) => p.kind === 'skill')
      .map((p) => ({
        name: S(p.qualifiedName),
        description: S(p.detail.description ?? ''),
        body: body(p.location.file),
        bodyLabel: AGENT_TEXT_LABEL,
      })),
    ...(caps ? (agent.boundSkills?.(item) ?? []) : []).map((b) => ({
      name: S(b.name),
      description: S(b.description),
      body: b.file === null ? null : body(b.file, true),
      bodyLabel: b.textLabel,
    })),
  ];
  // Commands are the Markdown files under the bundle's `commands` component paths.
  const commandDirs = (caps?.components?.commands ?? []).map((p) => p.replace(/^\.\//, '').replace(/\/+$/, ''));
  const commands = (r.files ?? [])
    .filter((f) => f.path.endsWith('.md') && commandDirs.some((d) => f.path === d || f.path.startsWith(`${d}/`)))
    .map((f) => ({ name: S(path.basename(f.path, '.md')), body: body(abs(f.path)) }));

  const argvOf = (v: unknown): Shown[] => (Array.isArray(v) ? v.map((x) => S(String(x))) : []);
  const changes = r.diff
    ? {
        reviewedAt: r.receipt?.reviewedAt ?? '',
        reviewedAgo: r.receipt ? `reviewed ${relativeTime(r.receipt.reviewedAt, now)}` : 'reviewed at an unknown time',
        filesNote: r.contentHash === null ? FILES_REVIEWED_ONLY : null,
        capabilities: r.diff.capabilities.map((c) => ({
          change: c.change,
          summary: S(c.summary),
          argv:
            /\.(args|argv)$/.test(c.path) && c.change === 'changed'
              ? { before: argvOf(c.before), after: argvOf(c.after) }
              : null,
        })),
        files: r.diff.files.map((f) => ({
          path: S(f.path),
          file: abs(f.path),
          change: f.change,
          note: f.note ?? null,
          // `\ No newline at end of file` stays: where only the last newline changed, it is the only difference shown.
          diff: diffBody(f.unifiedDiff ?? '')
            .filter((l) => l !== '')
            .map((l) => ({
              kind: l.startsWith('@@')
                ? ('hunk' as const)
                : l.startsWith('+')
                  ? ('add' as const)
                  : l.startsWith('-')
                    ? ('del' as const)
                    : ('ctx' as const),
              text: S(l),
            })),
        })),
      }
    : null;

  const where = (d: { file: string; range: { start: { line: number } } }) =>
    displayText(`${displayPath(d.file, snapshot.workspaces)}:${d.range.start.line + 1}`);
  // The index's diagnostics for the item and its children, and any the review's own read found that the index has not caught up with.
  const own = new Set([item.id, ...snapshot.items.filter((i) => i.parent === item.id).map((i) => i.id)]);
  const indexed = snapshot.diagnostics.filter((d) => d.itemId !== null && own.has(d.itemId));
  const seen = new Set(indexed.map((d) => `${d.code}\0${where(d)}\0${d.message}`));
  const every = [...indexed, ...r.diagnostics.filter((d) => !seen.has(`${d.code}\0${where(d)}\0${d.message}`))];
  // Errors first, then the first of the rest: a manifest can declare 200,000 bad values, each its own finding.
  const diagnostics = [...every]
    .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity])
    .slice(0, MAX_REVIEW_DIAGNOSTICS);

  return {
    id: item.id,
    header: {
      name: S(item.name),
      system: item.system,
      icon: agent.icon,
      kind: item.kind,
      scope: item.scope,
      // With several workspace folders, after the folder's name: two folders can hold the same relative path.
      path: displayText(placedPath(item, item.path, snapshot.workspaces)),
      decision: current.decision,
      decisionText: DECISION_TEXT[current.decision],
      reasons: current.reasons.map((code) => ({ code, text: reasonTextOf(current, code) })),
      trust: r.status,
      enabled: hasEnableSwitch(item) ? r.enabled : null,
      loadedUnreviewed: isLoadedUnreviewed(current),
      compatibility: item.compatibility,
      description: item.detail.description ? S(item.detail.description) : null,
    },
    changes,
    capabilities: {
      mcp,
      networkHosts: (caps?.networkHosts ?? []).map((h) => displayText(h)),
      hooks,
      hooksOptIn: agent.hooks && hooks.length > 0 ? hooksOptIn : null,
      hooksOptInText:
        agent.hooks && hooks.length > 0 ? agent.hooks.optInNow(hooksOptIn, hookLoadFails(snapshot, current.id)) : null,
      hooksWhen: agent.hooks && hooks.length > 0 ? agent.hooks.when : null,
      skills,
      commands,
      components,
    },
    contract: contractOf(agent.reviewContract?.(current) ?? stated, S),
    notCovered: r.notCovered.map(S),
    files: (r.coveredFiles ?? r.files ?? []).map((f) =>
      'unhashed' in f
        ? { path: S(f.path), unhashed: S(f.unhashed) }
        : {
            path: S(f.path),
            // A covered file outside the project is named by its absolute path (eva/coveredListing.ts).
            file: path.isAbsolute(f.path) ? f.path : abs(f.path),
            size: f.size,
            executable: f.executable,
            sha256: f.sha256,
          },
    ),
    diagnostics: diagnostics.map((d) => ({
      severity: d.severity,
      code: d.code,
      message: S(d.message),
      file: d.file,
      where: where(d),
      line: d.range.start.line,
      character: d.range.start.character,
    })),
    diagnosticsNotShown: every.length - diagnostics.length,
    hashes: {
      content: r.contentHash,
      capability: r.capabilityHash,
      token: r.reviewToken,
      codewhaleCommand: r.codewhaleTrustLine === null ? null : displayText(r.codewhaleTrustLine),
      notComputable: hashesNotComputable(r.item),
    },
    // It may name a covered file (`failed to read covered file …`): repository text, escaped.
    capabilitiesUnknown: r.capabilities === null ? displayText(capabilitiesUnknown(r.item)) : null,
    actions: reviewActions(r, current, workspaceTrusted, hasEnableSwitch(item)),
    get hiddenCount() {
      return hidden;
    },
  };
}

/** The agent's contract rows, every value the bundle wrote shown with its invisible characters marked. */
function contractOf(contract: ReviewContract | null, S: (t: unknown) => Shown): ReviewViewModel['contract'] {
  return contract === null
    ? null
    : { title: contract.title, rows: contract.rows.map((row) => ({ label: row.label, value: S(row.value) })) };
}

/** A closed gate of a disabled bundle, in the words of a component or server that does not run. */
const NOT_ACTIVE_WORDS: Partial<Record<ReasonCode, string>> = {
  workspace_untrusted: 'VS Code Restricted Mode keeps it off',
  trust_store_unavailable: 'the trust store is unreadable',
  not_reviewed: 'the bundle is not trusted',
  content_changed: 'the bundle changed since your review',
  capabilities_changed: 'the bundle changed since your review',
  not_enabled: 'the bundle is not enabled',
  not_applicable: 'its [when] conditions do not match this host',
  staged_skill_invalid: 'a SKILL.md in it does not parse',
  disabled_by_manifest: 'its manifest turns it off',
};

/**
 * Why a component or server of a bundle that is not active will not run, in words: from the
 * bundle's own reasons, as the header lists them. A trusted, enabled bundle held off by
 * Restricted Mode or its `[when]` is never said to be "not enabled" beside an "enabled" pill.
 */
function notActiveBecause(item: { readonly decision: string; readonly reasons: readonly ReasonCode[] }): string {
  if (item.decision === 'rejected') return 'the agent does not load this bundle (it is rejected)';
  if (item.decision === 'shadowed') return 'another bundle with this name wins';
  if (item.decision === 'display_only') return 'the agent only lists this bundle';
  const said = [...new Set(item.reasons.flatMap((r) => NOT_ACTIVE_WORDS[r] ?? []))];
  const untrusted = said.indexOf(NOT_ACTIVE_WORDS.not_reviewed as string);
  const off = said.indexOf(NOT_ACTIVE_WORDS.not_enabled as string);
  if (untrusted >= 0 && off >= 0) {
    said[untrusted] = 'the bundle is not trusted and enabled';
    said.splice(off, 1);
  }
  return said.length > 0 ? said.join('; ') : 'the bundle is not active';
}

/**
 * Which of the panel's buttons work, and why not. Trust and enable add what runs: refused
 * in Restricted Mode and for a unit that cannot be trusted (an invalid manifest), with a
 * visible sentence. Disable and revoke only reduce what runs: available whenever there
 * is something to disable or revoke, in Restricted Mode too.
 */
function reviewActions(
  r: ReviewReport,
  current: Pick<Item, 'decision' | 'reasons'>,
  workspaceTrusted: boolean,
  enableSwitch: boolean,
): ReviewViewModel['actions'] {
  const restricted = workspaceTrusted ? null : 'Restricted Mode: trust this workspace first';
  // The refusal names the bundle and quotes its first error: repository text, shown as a notice and a tooltip.
  const refused = r.trustable ? null : displayText(r.trustRefusal ?? 'This bundle cannot be trusted.');
  const blocked = restricted ?? refused;
  const trustWhy =
    blocked ??
    (r.status === 'trusted'
      ? 'Already trusted at these hashes'
      : r.reviewToken === null
        ? 'No review token: the bundle cannot be hashed'
        : current.decision === 'rejected'
          ? `Rejected (${current.reasons.join(', ')}): see Diagnostics`
          : null);
  // A trusted bundle that enable would refuse: said in a notice too, since a disabled button's tooltip is not read by keyboard or touch.
  const stateBlock =
    blocked === null && enableSwitch && !r.enabled && r.status === 'trusted'
      ? enableBlockedBy({ reasons: current.reasons, compatibility: r.item.compatibility })
      : null;
  const enableWhy =
    blocked ??
    (r.enabled ? 'Already enabled' : r.status !== 'trusted' ? 'Trust exactly this review first' : stateBlock);
  return {
    trust: { enabled: trustWhy === null, why: trustWhy },
    // Rivumi has no enable switch (decisions/enableSwitch.ts): Trust only, and a sentence on how it is switched off.
    enable: enableSwitch ? { enabled: enableWhy === null, why: enableWhy } : null,
    disable: enableSwitch ? { enabled: r.enabled, why: r.enabled ? null : 'Not enabled' } : null,
    revoke: {
      enabled: r.receipt !== null,
      why: r.receipt !== null ? null : 'Not reviewed: there is no trust to revoke',
    },
    notices: [
      refused,
      restricted ? restrictedNotice(enableSwitch, r.enabled || r.receipt !== null) : null,
      stateBlock === null ? null : `Trusted, but it cannot be enabled. ${stateBlock}.`,
      // Said of the unit as the index sees it now: whether the agent loads it is its current decision.
      enableSwitch ? null : noEnableSwitchNotice({ ...r.item, decision: current.decision }),
    ].filter((n): n is string => n !== null),
  };
}

/** The Restricted Mode notice: it names the buttons the panel has, and offers to reduce what runs only when there is something to. */
function restrictedNotice(enableSwitch: boolean, canReduce: boolean): string {
  if (enableSwitch) return canReduce ? RESTRICTED_NOTICE : RESTRICTED_NOTICE_NOTHING_TO_REDUCE;
  return canReduce ? RESTRICTED_NOTICE_TRUST_ONLY : RESTRICTED_NOTICE_TRUST_ONLY_NOTHING_TO_REDUCE;
}

/**
 * A unified diff's lines from its first hunk on: the header (`===`, `---`, `+++`) names the
 * files, which the panel shows apart. Only lines before the first `@@` are the header: a
 * removed line `-- x` (a Lua or SQL comment) reads `--- x`, an added `++ x` reads `+++ x`,
 * and filtering those by their start hid them from the review.
 */
function diffBody(unifiedDiff: string): string[] {
  const lines = unifiedDiff.split('\n');
  const first = lines.findIndex((l) => l.startsWith('@@'));
  return first < 0 ? [] : lines.slice(first);
}
