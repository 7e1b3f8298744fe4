import { displayText } from '../text/displayText';
import { displayPath, scopedPath } from './contract';
import { CAPABILITIES_UNKNOWN } from './reviewViewModel';
import type { ReviewReport } from '../trust/lifecycle';

/**
 * The text review (`skillgate review`, and the editor's plain-text review): what a
 * reviewer must see, with every invisible character made visible. What changed since
 * the last review comes first, capability changes before file changes.
 */
export function reviewText(r: ReviewReport, workspaces: readonly string[], hooksOptIn: boolean): string {
  const v = (s: unknown) => displayText(typeof s === 'string' ? s : JSON.stringify(s));
  const item = r.item;
  const out: string[] = [];
  out.push(`Review: ${v(item.name)} (${item.system} ${item.kind}, ${item.scope})`);
  out.push(`  path: ${scopedPath(item, item.path, workspaces)}`);
  out.push(`  trust: ${r.status}, enabled: ${r.enabled}`);
  // Files trust cannot cover get their own section just below; the refusal closes the review either way.
  if (!r.trustable && r.notCovered.length === 0) out.push(`  not trustable: ${v(r.trustRefusal ?? 'this bundle cannot be trusted')}`);
  if (item.detail.description) out.push(`  description: ${v(item.detail.description)}`);

  if (r.notCovered.length) {
    out.push('', 'Not covered by this trust (trust is refused until each is fixed):');
    for (const n of r.notCovered) out.push(`  not covered by this trust: ${v(n)}`);
  }

  if (r.diff) {
    out.push('', `What changed since your last review (${r.receipt?.reviewedAt ?? 'unknown'}):`);
    out.push('  Capabilities:');
    if (r.capabilities === null) out.push(`    (${CAPABILITIES_UNKNOWN})`);
    else if (r.diff.capabilities.length === 0) out.push('    (no capability changes)');
    for (const c of r.diff.capabilities) out.push(`    ${c.change === 'added' ? '+' : c.change === 'removed' ? '-' : '~'} ${v(c.summary)}`);
    out.push('  Files:');
    if (r.diff.files.length === 0) out.push('    (no file changes)');
    for (const f of r.diff.files) {
      const tag = f.change === 'added' ? 'A' : f.change === 'removed' ? 'D' : 'M';
      out.push(`    ${tag} ${v(f.path)}${f.note ? `  (${f.note})` : ''}`);
      if (f.unifiedDiff) for (const line of f.unifiedDiff.split('\n')) if (line !== '' && !line.startsWith('====')) out.push(`      ${v(line)}`);
    }
  }

  const caps = r.capabilities ?? {};
  out.push('', 'Capabilities:');
  if (r.capabilities === null) out.push(`  ${CAPABILITIES_UNKNOWN}`);
  else if (caps.system === 'codewhale') {
    const servers = Object.entries((caps.mcpServers ?? {}) as Record<string, Record<string, unknown>>);
    if (servers.length === 0) out.push('  MCP servers: none');
    for (const [id, s] of servers.sort(([a], [b]) => (a < b ? -1 : 1))) {
      const files = new Set((r.files ?? []).map((f) => f.path));
      if (s.command) {
        const argv = ((s.args as string[]) ?? []).map((a, i) => `#${i + 1} ${files.has(a.replace(/^\.\//, '')) ? 'plugin-path' : 'value'}=${JSON.stringify(v(a))}`).join(' | ');
        const env = Object.entries((s.env ?? {}) as Record<string, string | null>).map(([dest, src]) => `${dest} <- ${src ?? '?'}`).join(', ');
        out.push(`  MCP ${v(id)}: stdio  command=${v(s.command)}  argv=[${argv}]  cwd=${v(s.cwd ?? 'plugin-root')}  env=[${env}]${timeouts(s)}${tools(s)}  runs a local process with your user's filesystem and network authority`);
      } else {
        let host = '';
        try {
          host = new URL(String(s.url)).hostname;
        } catch {
          host = '?';
        }
        const headers = Object.entries((s.envHeaders ?? {}) as Record<string, string>).map(([h, src]) => `${h} <- ${src}`).join(', ');
        out.push(`  MCP ${v(id)}: ${String(s.transport ?? 'http')}  endpoint=${v(s.url)}  host=${host}  env_headers=[${headers}]  bearer_env=${v(s.bearerTokenEnvVar ?? 'none')}${timeouts(s)}${tools(s)}`);
      }
    }
    const hosts = (caps.networkHosts as string[]) ?? [];
    out.push(`  network hosts: ${hosts.length ? hosts.join(', ') : 'none'}`);
    const components = Object.entries((caps.components ?? {}) as Record<string, string[]>);
    out.push(`  components: ${components.length ? components.map(([k, p]) => `${k} [${p.join(', ')}]`).join('; ') : 'none'}`);
    const facts = (item.detail.facts ?? {}) as { qualifiedSkills?: string[]; inactiveComponents?: string[] };
    out.push(`  skills: ${facts.qualifiedSkills?.length ? facts.qualifiedSkills.map(v).join(', ') : 'none'}`);
    if (facts.inactiveComponents?.length) out.push(`  inactive (inventoried, never activated): ${facts.inactiveComponents.join(', ')}`);
    if ((caps.filesystemRoots as string[])?.length) out.push(`  filesystem roots: ${(caps.filesystemRoots as string[]).join(', ')}`);
    if (caps.lifecycleMutation) out.push('  lifecycle mutation: yes');
  } else {
    const hooks = Object.values((caps.hooks ?? {}) as Record<string, { event: string; argv: string[]; timeoutSeconds: number; tools: string[] }>);
    const skills = (caps.skills as { name: string; path: string }[]) ?? [];
    if (skills.length) out.push(`  skills: ${skills.map((s) => `${v(s.name)} (${s.path})`).join(', ')}`);
    if (hooks.length === 0) out.push('  hooks: none');
    for (const h of hooks) out.push(`  hook ${h.event}: argv=${v(JSON.stringify(h.argv))} timeout=${h.timeoutSeconds}s tools=[${h.tools.join(', ')}]  runs a host command for up to ${h.timeoutSeconds}s`);
    if (hooks.length) out.push(`  RIVUMI_ENABLE_PROJECT_HOOKS=1: ${hooksOptIn ? 'yes — Rivumi runs these hooks now' : 'no — Rivumi runs no project hooks'}`);
  }

  const files = r.files ?? [];
  out.push('', `Files (${files.length}):`);
  for (const f of files) out.push(`  ${f.executable ? 'x' : '-'} ${String(f.size).padStart(9)}  ${f.sha256.slice(0, 12)}  ${v(f.path)}`);
  out.push('', `Diagnostics (${r.diagnostics.length}):`);
  if (r.diagnostics.length === 0) out.push('  none');
  for (const d of r.diagnostics) out.push(`  ${d.severity.padEnd(11)} ${d.code}  ${displayPath(d.file, workspaces)}:${d.range.start.line + 1}  ${v(d.message)}`);
  const none = 'not computable (the manifest does not load)';
  out.push('', `Content hash:    ${r.contentHash ?? none}`, `Capability hash: ${r.capabilityHash ?? none}`, `Review token:    ${r.reviewToken ?? none}`, '');
  if (!r.trustable || r.reviewToken === null) out.push(`Trust and enable are refused: ${v(r.trustRefusal ?? 'this bundle cannot be hashed')}`);
  else out.push(`To trust exactly this: skillgate trust ${item.id} ${r.reviewToken}`);
  if (r.codewhaleTrustLine) out.push(`Codewhale accepts the same token: ${r.codewhaleTrustLine}`);
  // Each line is one line on the screen, whatever a value held (spec: nothing reaches a terminal raw).
  return out.map((line) => displayText(line)).join('\n') + '\n';
}

function timeouts(s: Record<string, unknown>): string {
  const t = Object.entries((s.timeouts ?? {}) as Record<string, number>);
  return t.length ? `  timeouts=${t.map(([k, x]) => `${k.replace('_timeout', '')}=${x}s`).join('/')}` : '';
}

function tools(s: Record<string, unknown>): string {
  const en = (s.enabledTools as string[]) ?? [];
  const dis = (s.disabledTools as string[]) ?? [];
  return `${en.length ? `  enabled_tools=[${en.join(', ')}]` : ''}${dis.length ? `  disabled_tools=[${dis.join(', ')}]` : ''}`;
}
