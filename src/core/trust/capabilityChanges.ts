import { isJsonObject } from '../documents/jsonObject';

export interface CapabilityChange {
  /** Dotted path into the capability inventory, e.g. `mcpServers.issues.command`. */
  readonly path: string;
  readonly change: 'added' | 'removed' | 'changed';
  readonly before?: unknown;
  readonly after?: unknown;
  /** One plain sentence, e.g. "new MCP server `issues`". */
  readonly summary: string;
}

export function capabilityChanges(before: Record<string, unknown>, after: Record<string, unknown>): CapabilityChange[] {
  const out: CapabilityChange[] = [];
  // The counts in `inventory` repeat what the named entries show (servers, hosts, components).
  const { inventory: _b, ...a } = before;
  const { inventory: _a, ...b } = after;
  walk(withEmptySections(a, b), withEmptySections(b, a), [], out);
  return out;
}

/** The capability sections that list what a unit names (capabilities.ts), by their keys or members. */
const LISTING_SECTIONS = new Set(['mcpServers', 'components', 'hooks', 'networkHosts', 'filesystemRoots', 'pairs']);

/**
 * A listing section one side lacks (a receipt from another tool, a damaged one) compares
 * as empty, so each server, host or hook in the other is named one by one, as any new one is.
 */
function withEmptySections(side: Record<string, unknown>, other: Record<string, unknown>): Record<string, unknown> {
  const out = { ...side };
  for (const [k, v] of Object.entries(other)) {
    if (Object.hasOwn(side, k) || !LISTING_SECTIONS.has(k)) continue;
    if (isJsonObject(v)) out[k] = {};
    else if (Array.isArray(v)) out[k] = [];
  }
  return out;
}

function walk(a: unknown, b: unknown, at: string[], out: CapabilityChange[]): void {
  if (isJsonObject(a) && isJsonObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const p = [...at, k];
      // Own keys only: `toString` or `constructor` is a name a bundle may choose (an MCP server id).
      if (!Object.hasOwn(a, k)) out.push(change(p, 'added', undefined, b[k]));
      else if (!Object.hasOwn(b, k)) out.push(change(p, 'removed', a[k], undefined));
      else walk(a[k], b[k], p, out);
    }
    return;
  }
  // An argv is an ordered list, not a set: a reviewer reads it whole, before → after.
  if (Array.isArray(a) && Array.isArray(b) && ORDERED_LISTS.has(at.at(-1) ?? '')) {
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push(change(at, 'changed', a, b));
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && [...a, ...b].every((x) => typeof x === 'string')) {
    // Sets of names (hosts, tools, paths): report each added or removed member.
    for (const x of b as string[])
      if (!(a as string[]).includes(x)) out.push(change([...at, x], 'added', undefined, x));
    for (const x of a as string[])
      if (!(b as string[]).includes(x)) out.push(change([...at, x], 'removed', x, undefined));
    return;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push(change(at, 'changed', a, b));
}

/** Capability fields whose order matters: the argv a server or hook is started with. */
const ORDERED_LISTS = new Set(['args', 'argv']);

function change(at: string[], kind: CapabilityChange['change'], before: unknown, after: unknown): CapabilityChange {
  return {
    path: at.join('.'),
    change: kind,
    ...(before !== undefined ? { before } : {}),
    ...(after !== undefined ? { after } : {}),
    summary: summarize(at, kind, before, after),
  };
}

/** Plain words for the changes a reviewer must not miss. */
function summarize(at: string[], kind: CapabilityChange['change'], before: unknown, after: unknown): string {
  const [top, key, field] = at;
  const verb = kind === 'added' ? 'new' : kind === 'removed' ? 'removed' : 'changed';
  if (top === 'mcpServers' && at.length === 2) return `${verb} MCP server \`${key}\``;
  if (top === 'mcpServers' && (field === 'env' || field === 'envHeaders') && at.length === 4) {
    const what = field === 'env' ? 'environment mapping' : 'environment-backed header';
    // Written as the panel writes a mapping elsewhere: `GITHUB_TOKEN ← ${GITHUB_TOKEN}`.
    const mapping = (v: unknown) => `${at[3]} ← ${envSource(v)}`;
    return kind === 'changed'
      ? `changed ${what} for MCP server \`${key}\`: ${changedPair(mapping(before), mapping(after), SHOWN)}`
      : `${verb} ${what} for MCP server \`${key}\`: ${mapping(after ?? before)}`;
  }
  if (top === 'mcpServers' && field === 'args' && at.length === 3)
    return `changed arguments of MCP server \`${key}\`: ${changedPair(argvText(before), argvText(after), SHOWN_ARGV)}`;
  if (top === 'hooks' && field === 'argv' && at.length === 3)
    return `changed command of hook ${key}: ${changedPair(argvText(before), argvText(after), SHOWN_ARGV)}`;
  if (top === 'mcpServers')
    return `MCP server \`${key}\`: ${at.slice(2).join('.')} ${kind === 'changed' ? showChange(before, after) : `${kind} ${show(after ?? before)}`}`;
  if (top === 'networkHosts') return `${verb} network host \`${key}\``;
  if (top === 'components' && at.length === 2) return `${verb} component kind \`${key}\``;
  if (top === 'hooks' && at.length === 2) return `${verb} hook command: ${key}`;
  if (top === 'hooks') return `hook ${key}: ${at.slice(2).join('.')} ${showChange(before, after)}`;
  return `${at.join('.')} ${kind === 'changed' ? showChange(before, after) : `${kind}: ${show(after ?? before)}`}`;
}

/** An argv as a person writes it: each element quoted, in order. */
function argvText(v: unknown): string {
  return Array.isArray(v) ? `[${v.map((x) => JSON.stringify(String(x))).join(', ')}]` : valueText(v);
}

/** How much of one value a summary shows (an argv more): the panel and `show` have the whole. */
const SHOWN = 160;
const SHOWN_ARGV = 240;

/**
 * Before → after, each cut to `limit` from a little before where they first differ: two long
 * values cut at the same length from their start read alike, and the summary would say that
 * something changed without showing what (a URL's path past its 157th character).
 */
function changedPair(before: string, after: string, limit: number): string {
  let same = 0;
  while (same < before.length && same < after.length && before[same] === after[same]) same++;
  const from = before.length > limit || after.length > limit ? Math.max(0, same - 40) : 0;
  const cut = (s: string) => {
    const t = from > 0 ? `...${s.slice(from)}` : s;
    return t.length > limit ? `${t.slice(0, limit - 3)}...` : t;
  };
  return `${cut(before)} → ${cut(after)}`;
}

function showChange(before: unknown, after: unknown): string {
  return changedPair(valueText(before), valueText(after), SHOWN);
}

/** An environment mapping's source: the variable it is read from (`${NAME}`), or `?` when unset. */
function envSource(v: unknown): string {
  return typeof v === 'string' ? `\${${v}}` : v === null || v === undefined ? '?' : show(v);
}

function show(v: unknown): string {
  const s = valueText(v);
  return s.length > SHOWN ? `${s.slice(0, SHOWN - 3)}...` : s;
}

function valueText(v: unknown): string {
  return v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v);
}
