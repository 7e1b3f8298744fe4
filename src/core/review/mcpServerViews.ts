import { displayText } from '../text/displayText';
import type { Item } from '../model';
import type { ReviewReport } from '../trust/reviewBundle';
import { systemOf } from '../systems/registry';
import { argumentKind, mcpHost, serversById, startsProcess, timeoutsOf } from '../mcpServers';
import { notActiveBecause } from './notActiveBecause';
import type { McpView } from './reviewModel';
import type { ShowText } from './shown';

/** What a local MCP server's process may reach, where its agent's own review does not word it. */
const LOCAL_PROCESS_AUTHORITY = "Starts a local process with your user's filesystem and network access.";

/** The bundle's MCP servers, one card each; `current` is the bundle as the index sees it now. */
export function mcpServerViews(
  r: ReviewReport,
  current: Pick<Item, 'decision' | 'reasons'>,
  bundleActive: boolean,
  S: ShowText,
): McpView[] {
  const agent = systemOf(r.item.system);
  const fileSet = new Set((r.files ?? []).map((f) => f.path));
  // An agent with a review of its own (Codewhale's `/plugin show`) states the unit and its servers in its words.
  const agentReview = agent.reviewLines;
  return serversById(r.capabilities).map(([id, s]) => {
    const local = startsProcess(s);
    const card = agentReview?.serverCard(s);
    const host = mcpHost(s);
    return {
      id: S(id),
      // A remote server's is the manifest's `transport`, as written even when Codewhale refuses it.
      transport: S(local ? 'stdio' : s.transport),
      command: local ? S(s.command) : null,
      argv: s.args.map((a, i) => ({ index: i + 1, kind: argumentKind(a, fileSet), value: S(a) })),
      cwd: local ? S(s.cwd ?? 'plugin root') : null,
      env: Object.entries(s.env).map(([destination, source]) => ({
        destination: S(destination),
        source: S(source ?? '?'),
      })),
      endpoint: s.url ? S(s.url) : null,
      host: host === null ? null : S(host),
      authEnv: [
        ...Object.entries(s.envHeaders).map(([h, src]) => `${h} ← \${${src}}`),
        ...(s.bearerTokenEnvVar ? [`Authorization: Bearer \${${s.bearerTokenEnvVar}}`] : []),
      ].map(S),
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
}
