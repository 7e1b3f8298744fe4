import { displayText } from '../text/displayText';
import { capabilitiesUnknown } from './missingHashes';
import { serversById } from '../mcpServers';
import { systemOf } from '../systems/registry';
import { unitText } from './unitText';
import type { BoundSkill } from '../systems/agentSystem';
import type { Capabilities } from '../capabilities';
import type { Item } from '../model';
import type { ReviewReport } from '../trust/reviewBundle';

/** The text review's "Capabilities": what the unit can do, or why that is unknown. */
export function capabilitiesText(
  r: ReviewReport,
  hooksOptIn: boolean,
  hookLoadFails: boolean,
  current: Pick<Item, 'decision'> | undefined,
): string[] {
  const out = ['', 'Capabilities:'];
  if (r.capabilities === null) out.push(`  ${capabilitiesUnknown(r.item)}`);
  else for (const l of capabilityLines(r, r.capabilities, hooksOptIn, hookLoadFails, current)) out.push(`  ${l}`);
  return out;
}

/** What the unit can do, section by section as its capabilities hold them (capabilities.ts). */
function capabilityLines(
  r: ReviewReport,
  caps: Capabilities,
  hooksOptIn: boolean,
  hookLoadFails: boolean,
  current: Pick<Item, 'decision'> | undefined,
): string[] {
  const v = (s: string) => displayText(s);
  const out: string[] = [];
  // An agent with a review of its own (Codewhale's `/plugin show`) has its lines in its words.
  const own = systemOf(r.item.system).reviewLines;
  if (own) out.push(...own.lead(r.item, caps));
  if (caps.mcpServers) {
    const files = new Set((r.files ?? []).map((f) => f.path));
    const servers = serversById(caps);
    if (servers.length === 0) out.push('MCP servers: none');
    for (const [id, s] of servers)
      out.push(`MCP ${own ? own.server(id, s, files) : `${id}: transport=${s.transport} ${s.url ?? s.command ?? ''}`}`);
  }
  if (caps.components) {
    const components = Object.entries(caps.components);
    out.push(
      `components: ${components.length ? components.map(([k, p]) => `${k} [${p.join(', ')}]`).join('; ') : 'none'}`,
    );
  }
  // The unit's skill parts, then the skills it binds with no item of their own (an Eva adapter's, a lua_skill).
  const bound = systemOf(r.item.system).boundSkills?.(r.item) ?? [];
  const skills = [
    ...r.parts.filter((p) => p.kind === 'skill').map((s) => v(s.qualifiedName)),
    ...bound.map((b) => v(b.name)),
  ];
  if (own) out.push(...own.trail(r.item, current, skills));
  else out.push(`skills: ${skills.length ? skills.join(', ') : 'none'}`);
  for (const b of bound) out.push(...boundSkillLines(r, b));
  if (caps.hooks) out.push(...hookLines(r, caps.hooks, hooksOptIn, hookLoadFails));
  return out;
}

/** Each hook with what it runs, then whether the agent runs them now (its opt-in, its hook load). */
function hookLines(
  r: ReviewReport,
  hooksByName: NonNullable<Capabilities['hooks']>,
  hooksOptIn: boolean,
  hookLoadFails: boolean,
): string[] {
  const out: string[] = [];
  const hooks = Object.values(hooksByName);
  const agent = systemOf(r.item.system);
  if (hooks.length === 0) out.push('hooks: none');
  for (const h of hooks) {
    const after = agent.hooks?.afterRun(h.argv);
    out.push(
      `hook ${h.event}: argv=${displayText(JSON.stringify(h.argv))} timeout=${h.timeoutSeconds}s tools=[${h.tools.join(', ')}]  runs a host command for up to ${h.timeoutSeconds}s${after ? `, ${after}` : ''}`,
    );
  }
  if (hooks.length && agent.hooks)
    out.push(
      `${agent.hooks.optIn}: ${!hooksOptIn ? `no — ${agent.label} runs no project hooks` : hookLoadFails ? `yes — but the hook load fails: ${agent.label} runs none of these hooks now` : `yes — ${agent.label} runs these hooks now`}`,
    );
  return out;
}

/**
 * A skill the unit binds, with its text as the unit's hash read it (unitText.ts, the panel's
 * reader), each line quoted under a gutter: a line of the file never starts a line of the
 * review, so none reads as the review's own ("Review token: …").
 */
function boundSkillLines(r: ReviewReport, b: BoundSkill): string[] {
  const out = [`skill ${displayText(b.name)}: ${displayText(b.description)}`];
  if (b.file === null) return out;
  const text = unitText(r, b.file, true);
  if (text === undefined)
    out.push('  (no text to show: the file is not among those this review read; see Diagnostics)');
  else if ('note' in text) out.push(`  ${text.note}`);
  else for (const line of text.text.replace(/\n$/, '').split('\n')) out.push(`  | ${displayText(line)}`);
  return out;
}
