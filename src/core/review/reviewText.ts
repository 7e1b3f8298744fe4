import { argvText } from '../text/argvText';
import { displayText } from '../text/displayText';
import { displayPath, scopedPath } from '../report/contract';
import { FILES_REVIEWED_ONLY } from './changesView';
import { capabilitiesUnknown, hashesNotComputable } from './missingHashes';
import { serversById } from '../mcpServers';
import { systemOf } from '../systems/registry';
import { hasEnableSwitch } from '../trust/enableSwitch';
import { unitText } from './unitText';
import type { BoundSkill } from '../systems/agentSystem';
import type { Capabilities } from '../capabilities';
import type { Item } from '../model';
import type { ReviewReport } from '../trust/reviewBundle';

/**
 * The text review (`skillgate review`, and the editor's plain-text review): what a
 * reviewer must see, with every invisible character made visible. What changed since
 * the last review comes first, capability changes before file changes.
 */
export function reviewText(
  r: ReviewReport,
  workspaces: readonly string[],
  hooksOptIn: boolean,
  /** The agent's hook load fails for this unit (hookLoad.ts): with the opt-in set, none of its hooks run. */
  hookLoadFails = false,
  /**
   * The unit as the index decides it now: the review reads its own copy without the trust
   * store, so only this says whether the bundle is active. Absent, no line claims it is or is not.
   */
  current?: Pick<Item, 'decision'>,
): string {
  const v = (s: unknown) => displayText(typeof s === 'string' ? s : JSON.stringify(s));
  const item = r.item;
  const out: string[] = [];
  out.push(`Review: ${v(item.name)} (${item.system} ${item.kind}, ${item.scope})`);
  out.push(`  path: ${scopedPath(item, item.path, workspaces)}`);
  // An agent without an enable switch loads the unit whatever a stored bit says: no "enabled: false" for it.
  out.push(`  trust: ${r.status}, ${hasEnableSwitch(item) ? `enabled: ${r.enabled}` : 'no enable switch'}`);
  if (r.storeProblem)
    out.push(
      `  trust store unavailable: ${v(r.storeProblem)}; no receipt can be read, so what changed since your last review cannot be shown`,
    );
  // Files trust cannot cover get their own section just below; the refusal closes the review either way.
  if (!r.trustable && r.notCovered.length === 0)
    out.push(`  not trustable: ${v(r.trustRefusal ?? 'this bundle cannot be trusted')}`);
  if (item.detail.description) out.push(`  description: ${v(item.detail.description)}`);

  if (r.notCovered.length) {
    out.push('', 'Not covered by this trust (trust is refused until each is fixed):');
    for (const n of r.notCovered) out.push(`  not covered by this trust: ${v(n)}`);
  }

  if (r.diff) {
    out.push('', `What changed since your last review (${r.receipt?.reviewedAt ?? 'unknown'}):`);
    out.push('  Capabilities:');
    if (r.capabilities === null) out.push(`    (${capabilitiesUnknown(item)})`);
    else if (r.diff.capabilities.length === 0) out.push('    (no capability changes)');
    for (const c of r.diff.capabilities)
      out.push(`    ${c.change === 'added' ? '+' : c.change === 'removed' ? '-' : '~'} ${v(c.summary)}`);
    out.push('  Files:');
    if (r.contentHash === null) out.push(`    (${FILES_REVIEWED_ONLY})`);
    if (r.diff.files.length === 0)
      out.push(r.contentHash === null ? '    (none of them changed)' : '    (no file changes)');
    for (const f of r.diff.files) {
      const tag = f.change === 'added' ? 'A' : f.change === 'removed' ? 'D' : 'M';
      out.push(`    ${tag} ${v(f.path)}${f.note ? `  (${f.note})` : ''}`);
      if (f.unifiedDiff)
        for (const line of f.unifiedDiff.split('\n'))
          if (line !== '' && !line.startsWith('====')) out.push(`      ${v(line)}`);
    }
  }

  const contract = systemOf(item.system).reviewContract?.(item) ?? null;
  if (contract) {
    out.push('', `${contract.title}:`);
    const width = Math.max(...contract.rows.map((row) => row.label.length));
    for (const row of contract.rows) out.push(`  ${row.label.padEnd(width)}  ${v(row.value)}`);
  }

  out.push('', 'Capabilities:');
  if (r.capabilities === null) out.push(`  ${capabilitiesUnknown(item)}`);
  else for (const l of capabilityLines(r, hooksOptIn, hookLoadFails, current)) out.push(`  ${l}`);

  // Of a unit Skillgate cannot hash, every file it covers: the one that stops the hash is the one the reviewer needs.
  const files = r.coveredFiles ?? r.files ?? [];
  const unhashed = files.filter((f) => 'unhashed' in f).length;
  out.push('', `Files (${files.length}${unhashed ? `, ${unhashed} not hashed` : ''}):`);
  for (const f of files)
    out.push(
      'unhashed' in f
        ? `  ! ${'?'.padStart(9)}  ${'not hashed'.padEnd(12)}  ${v(f.path)}  (${v(f.unhashed)})`
        : `  ${f.executable ? 'x' : '-'} ${String(f.size).padStart(9)}  ${f.sha256.slice(0, 12)}  ${v(f.path)}`,
    );
  out.push('', `Diagnostics (${r.diagnostics.length}):`);
  if (r.diagnostics.length === 0) out.push('  none');
  for (const d of r.diagnostics)
    out.push(
      `  ${d.severity.padEnd(11)} ${d.code}  ${displayPath(d.file, workspaces)}:${d.range.start.line + 1}  ${v(d.message)}`,
    );
  const none = `not computable (${hashesNotComputable(item)})`;
  out.push(
    '',
    `Content hash:    ${r.contentHash ?? none}`,
    `Capability hash: ${r.capabilityHash ?? none}`,
    `Review token:    ${r.reviewToken ?? none}`,
    '',
  );
  // An agent without an enable switch has no enable to refuse (trust.md "Status"): trust alone is.
  if (!r.trustable || r.reviewToken === null)
    out.push(
      `${hasEnableSwitch(item) ? 'Trust and enable are refused' : 'Trust is refused'}: ${v(r.trustRefusal ?? 'this bundle cannot be hashed')}`,
    );
  // A line to paste into a shell: the id holds a repository's file name (`x;touch PWNED.json`), so it is quoted as a word.
  else out.push(`To trust exactly this: ${argvText(['skillgate', 'trust', item.id, r.reviewToken])}`);
  // The agent's own command for the same review, when it has one (`codewhaleTrustLine` keeps its JSON name).
  if (r.codewhaleTrustLine) out.push(`${systemOf(item.system).label} accepts the same token: ${r.codewhaleTrustLine}`);
  // Each line is one line on the screen, whatever a value held (spec: nothing reaches a terminal raw).
  return out.map((line) => displayText(line)).join('\n') + '\n';
}

/** What the unit can do, section by section as its capabilities hold them (capabilities.ts). */
function capabilityLines(
  r: ReviewReport,
  hooksOptIn: boolean,
  hookLoadFails: boolean,
  current: Pick<Item, 'decision'> | undefined,
): string[] {
  const v = (s: string) => displayText(s);
  const caps = r.capabilities as Capabilities;
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
  if (caps.hooks) {
    const hooks = Object.values(caps.hooks);
    const agent = systemOf(r.item.system);
    if (hooks.length === 0) out.push('hooks: none');
    for (const h of hooks) {
      const after = agent.hooks?.afterRun(h.argv);
      out.push(
        `hook ${h.event}: argv=${v(JSON.stringify(h.argv))} timeout=${h.timeoutSeconds}s tools=[${h.tools.join(', ')}]  runs a host command for up to ${h.timeoutSeconds}s${after ? `, ${after}` : ''}`,
      );
    }
    if (hooks.length && agent.hooks)
      out.push(
        `${agent.hooks.optIn}: ${!hooksOptIn ? `no — ${agent.label} runs no project hooks` : hookLoadFails ? `yes — but the hook load fails: ${agent.label} runs none of these hooks now` : `yes — ${agent.label} runs these hooks now`}`,
      );
  }
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
