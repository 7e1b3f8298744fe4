import * as path from 'node:path';
import { DECISION_TEXT, REASON_TEXT } from '../decisions/reasonText';
import { displayText, hasUnsafeForDisplay } from '../text/displayText';
import { displayPath } from './contract';
import type { Snapshot } from '../index/snapshot';
import type { ReviewReport } from '../trust/lifecycle';

import type { McpView, ReviewViewModel, Shown } from './reviewModel';

export type { McpView, ReviewViewModel, Shown, DiffLine } from './reviewModel';

export function shown(text: unknown): Shown {
  const s = typeof text === 'string' ? text : text === undefined || text === null ? '' : JSON.stringify(text);
  // A tab is marked like every control character, but it is ordinary whitespace in a diff, not a hidden one.
  return { text: displayText(s), hidden: hasUnsafeForDisplay(s.replace(/\t/g, ' ')) };
}

export function reviewViewModel(r: ReviewReport, snapshot: Snapshot, hooksOptIn: boolean): ReviewViewModel {
  const item = r.item;
  const root = item.system === 'codewhale' ? item.path : (item.workspace ?? path.dirname(item.path));
  const abs = (rel: string) => path.join(root, rel);
  const caps = r.capabilities as Record<string, unknown>;
  const fileSet = new Set((r.files ?? []).map((f) => f.path));
  let hidden = 0;
  const count = <T extends Shown>(x: T): T => {
    if (x.hidden) hidden++;
    return x;
  };
  const S = (t: unknown) => count(shown(t));

  const mcp: McpView[] = Object.entries((caps.mcpServers ?? {}) as Record<string, Record<string, unknown>>)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([id, s]) => {
      let host: string | null = null;
      try {
        host = s.url ? new URL(String(s.url)).hostname : null;
      } catch {
        host = null;
      }
      return {
        id: S(id),
        transport: s.command ? 'stdio' : String(s.transport ?? 'streamable-http'),
        command: s.command ? S(s.command) : null,
        argv: ((s.args as string[]) ?? []).map((a, i) => ({ index: i + 1, kind: fileSet.has(a.replace(/^\.\//, '')) ? ('plugin-path' as const) : ('value' as const), value: S(a) })),
        cwd: s.command ? S(s.cwd ?? 'plugin root') : null,
        env: Object.entries((s.env ?? {}) as Record<string, string | null>).map(([destination, source]) => ({ destination: displayText(destination), source: displayText(source ?? '?') })),
        endpoint: s.url ? S(s.url) : null,
        host,
        authEnv: [...Object.entries((s.envHeaders ?? {}) as Record<string, string>).map(([h, src]) => `${h} ← \${${src}}`), ...(s.bearerTokenEnvVar ? [`Authorization: Bearer \${${String(s.bearerTokenEnvVar)}}`] : [])].map((t) => displayText(t)),
        timeouts: Object.entries((s.timeouts ?? {}) as Record<string, number>).map(([k, v]) => displayText(`${k.replace('_timeout', '')} ${v}s`)),
        enabledTools: ((s.enabledTools as string[]) ?? []).map(S),
        disabledTools: ((s.disabledTools as string[]) ?? []).map(S),
        enabled: s.enabled !== false,
      };
    });

  const facts = (item.detail.facts ?? {}) as { qualifiedSkills?: string[]; inactiveComponents?: string[] };
  const inactive = new Set(facts.inactiveComponents ?? []);
  const components = Object.entries((caps.components ?? {}) as Record<string, string[]>).map(([kind, paths]) => ({ kind: displayText(kind), inactive: inactive.has(kind), paths: paths.map(S) }));
  for (const kind of ['filesystem-roots', 'lifecycle-mutation']) if (inactive.has(kind)) components.push({ kind, inactive: true, paths: [] });
  const hooks = Object.values((caps.hooks ?? {}) as Record<string, { event: string; argv: string[]; timeoutSeconds: number; tools: string[] }>).map((h) => ({
    event: displayText(h.event),
    argv: h.argv.map(S),
    timeoutSeconds: h.timeoutSeconds,
    tools: h.tools.map((t) => displayText(t)),
  }));
  const skills =
    item.system === 'codewhale'
      ? snapshot.items.filter((i) => i.parent === item.id && i.kind === 'skill').map((i) => ({ name: S(i.qualifiedName), description: S(i.detail.description ?? '') }))
      : ((caps.skills as { name: string; path: string }[]) ?? []).map((s) => ({ name: S(s.name), description: S(snapshot.items.find((i) => i.parent === item.id && i.qualifiedName === s.name)?.detail.description ?? '') }));

  const changes = r.diff
    ? {
        reviewedAt: r.receipt?.reviewedAt ?? '',
        capabilities: r.diff.capabilities.map((c) => ({ change: c.change, summary: S(c.summary) })),
        files: r.diff.files.map((f) => ({
          path: S(f.path),
          file: abs(f.path),
          change: f.change,
          note: f.note ?? null,
          diff: (f.unifiedDiff ?? '')
            .split('\n')
            .filter((l) => l !== '' && !l.startsWith('====') && !l.startsWith('--- ') && !l.startsWith('+++ ') && !l.startsWith('\\'))
            .map((l) => ({ kind: l.startsWith('@@') ? ('hunk' as const) : l.startsWith('+') ? ('add' as const) : l.startsWith('-') ? ('del' as const) : ('ctx' as const), text: S(l) })),
        })),
      }
    : null;

  return {
    id: item.id,
    header: {
      name: S(item.name),
      system: item.system,
      kind: item.kind,
      scope: item.scope,
      path: displayText(item.scope === 'user' ? item.path : displayPath(item.path, snapshot.workspaces)),
      decision: snapshot.items.find((i) => i.id === item.id)?.decision ?? item.decision,
      decisionText: DECISION_TEXT[snapshot.items.find((i) => i.id === item.id)?.decision ?? item.decision],
      reasons: (snapshot.items.find((i) => i.id === item.id)?.reasons ?? item.reasons).map((code) => ({ code, text: REASON_TEXT[code] })),
      trust: r.status,
      enabled: r.enabled,
      compatibility: item.compatibility,
      description: item.detail.description ? S(item.detail.description) : null,
    },
    changes,
    capabilities: {
      mcp,
      networkHosts: ((caps.networkHosts as string[]) ?? []).map((h) => displayText(h)),
      hooks,
      hooksOptIn: item.system === 'rivumi' && hooks.length > 0 ? hooksOptIn : null,
      skills,
      components,
    },
    notCovered: r.notCovered.map(S),
    files: (r.files ?? []).map((f) => ({ path: S(f.path), file: abs(f.path), size: f.size, executable: f.executable, sha256: f.sha256 })),
    diagnostics: snapshot.diagnostics
      .filter((d) => d.itemId === item.id || snapshot.items.some((i) => i.parent === item.id && i.id === d.itemId))
      .map((d) => ({ severity: d.severity, code: d.code, message: S(d.message), file: d.file, where: displayText(`${displayPath(d.file, snapshot.workspaces)}:${d.range.start.line + 1}`), line: d.range.start.line, character: d.range.start.character })),
    hashes: { content: r.contentHash, capability: r.capabilityHash, token: r.reviewToken, codewhaleCommand: r.codewhaleTrustLine === null ? null : displayText(r.codewhaleTrustLine) },
    get hiddenCount() {
      return hidden;
    },
  };
}
