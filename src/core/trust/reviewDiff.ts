import * as path from 'node:path';
import { formatPatch, structuredPatch } from 'diff';
import { decodeUtf8, readRegularFile } from '../fs/safeFs';
import { displayText } from '../text/displayText';
import type { BundleFile } from '../model';
import type { Receipt } from './stateSchema';
import type { Capabilities } from '../capabilities';
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

export interface FileChange {
  readonly path: string;
  readonly change: 'added' | 'removed' | 'modified';
  readonly before?: BundleFile;
  readonly after?: BundleFile;
  /** Unified diff against the reviewed copy, for text files up to 1 MiB with few enough changed lines to diff. */
  readonly unifiedDiff?: string;
  /** Why there is no unified diff (binary, too large, too many changed lines, reviewed copy missing). */
  readonly note?: string;
}

export interface ReviewDiff {
  readonly capabilities: CapabilityChange[];
  readonly files: FileChange[];
}

const MAX_DIFF_BYTES = 1048576;

/**
 * How much line diffing one review does, in edits (lines removed plus lines added): a
 * count, not a clock, so the review says the same on every machine. The bundle's author
 * picks the files, and the diff (Myers) costs about the square of a file's edits when
 * both sides hold lines: 20,000 lines rewritten as 10,000 others took 23 s, a 1 MiB file
 * of short lines hours. Such a file is diffed up to 1,000 edits, a rewrite of 500 lines
 * in full (at most about a tenth of a second past reading it). An added or removed file
 * costs only its length, so it has no limit of its own: a new script shows whole. The
 * review as a whole stops at 10,000 edits, as the bundle also picks how many files
 * change: ten diffs stopped at the limit take a few seconds, not the minutes of 4,096.
 */
const MAX_FILE_EDITS = 1000;
const MAX_REVIEW_EDITS = 10000;

/**
 * What changed since the receipt: capability changes first (what the bundle can now
 * do), then file changes with unified diffs against the reviewed copy. Capabilities are
 * compared as stored (capabilities.ts): a receipt's record that is not the typed model
 * (another tool's, a damaged one) compares as such, every capability then shows as new.
 */
export function diffAgainstReceipt(
  receipt: Receipt,
  capabilities: Capabilities | Record<string, unknown>,
  files: readonly BundleFile[],
  currentRoot: string,
  reviewedCopy: string | undefined,
): ReviewDiff {
  return {
    capabilities: capabilityChanges(receipt.capabilities, capabilities),
    files: fileChanges(receipt, files, currentRoot, reviewedCopy),
  };
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
      ? `changed ${what} for MCP server \`${key}\`: ${mapping(before)} → ${mapping(after)}`
      : `${verb} ${what} for MCP server \`${key}\`: ${mapping(after ?? before)}`;
  }
  if (top === 'mcpServers' && field === 'args' && at.length === 3)
    return `changed arguments of MCP server \`${key}\`: ${argvList(before)} → ${argvList(after)}`;
  if (top === 'hooks' && field === 'argv' && at.length === 3)
    return `changed command of hook ${key}: ${argvList(before)} → ${argvList(after)}`;
  if (top === 'mcpServers')
    return `MCP server \`${key}\`: ${at.slice(2).join('.')} ${kind === 'changed' ? `${show(before)} → ${show(after)}` : `${kind} ${show(after ?? before)}`}`;
  if (top === 'networkHosts') return `${verb} network host \`${key}\``;
  if (top === 'components' && at.length === 2) return `${verb} component kind \`${key}\``;
  if (top === 'hooks' && at.length === 2) return `${verb} hook command: ${key}`;
  if (top === 'hooks') return `hook ${key}: ${at.slice(2).join('.')} ${show(before)} → ${show(after)}`;
  return `${at.join('.')} ${kind === 'changed' ? `${show(before)} → ${show(after)}` : `${kind}: ${show(after ?? before)}`}`;
}

/** An argv as a person writes it: each element quoted, in order. */
export function argvList(v: unknown): string {
  if (!Array.isArray(v)) return show(v);
  const s = `[${v.map((x) => JSON.stringify(String(x))).join(', ')}]`;
  return s.length > 240 ? `${s.slice(0, 237)}...` : s;
}

/** An environment mapping's source: the variable it is read from (`${NAME}`), or `?` when unset. */
function envSource(v: unknown): string {
  return typeof v === 'string' ? `\${${v}}` : v === null || v === undefined ? '?' : show(v);
}

function show(v: unknown): string {
  if (v === undefined) return '—';
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > 160 ? `${s.slice(0, 157)}...` : s;
}

function fileChanges(
  receipt: Receipt,
  files: readonly BundleFile[],
  currentRoot: string,
  reviewedCopy: string | undefined,
): FileChange[] {
  const out: FileChange[] = [];
  const now = new Map(files.map((f) => [f.path, f]));
  const then = new Map(Object.entries(receipt.files).map(([p, f]) => [p, { path: p, ...f }]));
  const paths = [...new Set([...now.keys(), ...then.keys()])].sort();
  let editsLeft = MAX_REVIEW_EDITS;
  for (const p of paths) {
    const before = then.get(p);
    const after = now.get(p);
    if (before && after && before.sha256 === after.sha256 && before.executable === after.executable) continue;
    const kind: FileChange['change'] = !before ? 'added' : !after ? 'removed' : 'modified';
    const oldText = before ? textOf(reviewedCopy ? path.join(reviewedCopy, p) : undefined) : { text: '' };
    const newText = after ? textOf(path.join(currentRoot, p)) : { text: '' };
    const note = oldText.note ?? newText.note;
    const base = { path: p, change: kind, ...(before ? { before } : {}), ...(after ? { after } : {}) };
    if (note !== undefined || oldText.text === undefined || newText.text === undefined) {
      out.push({ ...base, note: note ?? 'no text diff' });
    } else if (before && after && oldText.text === newText.text) {
      out.push({
        ...base,
        note: `only the executable bit changed (${before.executable ? 'x' : '-'} → ${after.executable ? 'x' : '-'})`,
      });
    } else {
      const oneSided = oldText.text === '' || newText.text === '';
      const fileEdits = oneSided ? Infinity : MAX_FILE_EDITS;
      const allowed = Math.min(editsLeft, fileEdits);
      // The headers are lines of their own: a newline in a name must not start another (displayText.ts).
      // As git writes them, a/ the reviewed side and b/ the current one, with no tab-separated label
      // after the name (a terminal line escapes a tab, and the header would read `…⟦U+0009⟧reviewed`).
      const patch =
        allowed > 0
          ? structuredPatch(
              displayText(`a/${p}`),
              displayText(`b/${p}`),
              oldText.text,
              newText.text,
              undefined,
              undefined,
              {
                context: 3,
                maxEditLength: allowed,
              },
            )
          : undefined;
      // A diff stopped at the limit still did that much work.
      editsLeft -= patch ? patch.hunks.reduce((n, h) => n + h.lines.filter(isEdit).length, 0) : allowed;
      if (patch) out.push({ ...base, unifiedDiff: formatPatch(patch) });
      else
        out.push({
          ...base,
          note:
            allowed < fileEdits
              ? 'too many changed lines in this review to show more: no text diff'
              : 'diff too large to show: no text diff',
        });
    }
  }
  return out;
}

function isEdit(line: string): boolean {
  return line.startsWith('+') || line.startsWith('-');
}

// The notes keep the words users and tests know: "the reviewed snapshot" is the reviewed copy.
function textOf(file: string | undefined): { text?: string; note?: string } {
  if (!file) return { note: 'the reviewed snapshot is missing' };
  const read = readRegularFile(file, MAX_DIFF_BYTES);
  if (!read.ok)
    return {
      note:
        read.reason === 'too-large'
          ? 'larger than 1 MiB: no text diff'
          : read.reason === 'missing'
            ? 'the reviewed snapshot is missing'
            : 'unreadable',
    };
  if (read.bytes.includes(0)) return { note: 'binary file: no text diff' };
  const text = decodeUtf8(read.bytes);
  return text === undefined ? { note: 'not UTF-8: no text diff' } : { text };
}
