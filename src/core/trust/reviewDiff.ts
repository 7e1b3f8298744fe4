import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatPatch, structuredPatch } from 'diff';
import { decodeUtf8, readRegularFile, type ReadResult } from '../fs/safeFs';
import { readFromUnit, type HashedUnit } from './unitFileRead';
import { sha256Hex } from '../hashing/framing';
import { byteOrder, decodeRawName, osPath } from '../fs/rawNames';
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
  /** The file's path; a directory's ends with `/` (an empty one: Codewhale's content hash counts it). */
  readonly path: string;
  readonly change: 'added' | 'removed' | 'modified';
  readonly before?: BundleFile;
  readonly after?: BundleFile;
  /** Unified diff against the reviewed copy, for text files up to 1 MiB with few enough changed lines to diff. */
  readonly unifiedDiff?: string;
  /**
   * Why there is no unified diff (binary, too large, too many changed lines, reviewed copy
   * missing), and a change the text diff cannot show: the executable bit, an empty directory.
   */
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
 * The current side of a diff is read as the unit's hash read it (unitFileRead.ts
 * `readFromUnit`): by the unit's own `readCovered` when it has one (BundleSource: Eva's
 * skill folder), else beneath `currentRoot` or the unit's `manifest`'s directory; never
 * through a directory swapped for a link since the hash.
 */
export function diffAgainstReceipt(
  receipt: Receipt,
  capabilities: Capabilities | Record<string, unknown>,
  files: readonly BundleFile[],
  currentRoot: string,
  reviewedCopy: string | undefined,
  directories: readonly string[] = [],
  manifest?: string,
  readCovered?: HashedUnit['readCovered'],
): ReviewDiff {
  const unit: HashedUnit = { root: currentRoot, item: { path: manifest }, ...(readCovered ? { readCovered } : {}) };
  const changed = fileChanges(receipt, files, unit, reviewedCopy);
  const dirs = reviewedCopy ? directoryChanges(files, directories, reviewedCopy) : [];
  return {
    capabilities: capabilityChanges(receipt.capabilities, capabilities),
    files: dirs.length ? [...changed, ...dirs].sort((a, b) => byteOrder(a.path, b.path)) : changed,
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
export function argvList(v: unknown): string {
  const s = argvText(v);
  return s.length > SHOWN_ARGV ? `${s.slice(0, SHOWN_ARGV - 3)}...` : s;
}

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

function fileChanges(
  receipt: Receipt,
  files: readonly BundleFile[],
  unit: HashedUnit,
  reviewedCopy: string | undefined,
): FileChange[] {
  const out: FileChange[] = [];
  const now = new Map(files.map((f) => [f.path, f]));
  const then = new Map(Object.entries(receipt.files).map(([p, f]) => [p, { path: p, ...f }]));
  const paths = [...new Set([...now.keys(), ...then.keys()])].sort(byteOrder);
  let editsLeft = MAX_REVIEW_EDITS;
  for (const p of paths) {
    const before = then.get(p);
    const after = now.get(p);
    if (before && after && before.sha256 === after.sha256 && before.executable === after.executable) continue;
    const kind: FileChange['change'] = !before ? 'added' : !after ? 'removed' : 'modified';
    const base = { path: p, change: kind, ...(before ? { before } : {}), ...(after ? { after } : {}) };
    // The bit is said whatever the bytes are (binary, too large, no reviewed copy): no text diff shows it.
    const bit = (f: BundleFile) => (f.executable ? 'x' : '-');
    const mode =
      before && after && before.executable !== after.executable ? `${bit(before)} → ${bit(after)}` : undefined;
    if (mode && before?.sha256 === after?.sha256) {
      out.push({ ...base, note: `only the executable bit changed (${mode})` });
      continue;
    }
    const modeNote = mode ? `executable bit changed (${mode})` : undefined;
    const withMode = (note: string) => (modeNote ? `${note}; ${modeNote}` : note);
    // Each side is shown only as the bytes its hash names: the current file is read again here, and
    // text read after the review hashed it (rewritten in between, and back before the trust) is text
    // the review token does not cover.
    // The reviewed side is Skillgate's own copy in its state directory (never a workspace:
    // stateDirectory.ts), written read-only by Skillgate and re-hashed before use: read by its path.
    // The current side is the repository's, read as its hash read it (unitFileRead.ts).
    const oldText = before
      ? textOf(
          reviewedCopy ? readRegularFile(path.join(reviewedCopy, p), MAX_DIFF_BYTES) : undefined,
          before.sha256,
          REVIEWED_COPY_DIFFERS,
        )
      : { text: '' };
    const newText = after
      ? textOf(readFromUnit(unit, after, MAX_DIFF_BYTES), after.sha256, CHANGED_WHILE_READ)
      : { text: '' };
    const note = oldText.note ?? newText.note;
    if (note !== undefined || oldText.text === undefined || newText.text === undefined) {
      out.push({ ...base, note: withMode(note ?? 'no text diff') });
    } else if (before && after && oldText.text === newText.text) {
      // The bytes were hashed apart but read alike: the file changed while it was read.
      out.push({ ...base, note: modeNote ? `only the ${modeNote}` : CHANGED_WHILE_READ });
    } else {
      const oneSided = oldText.text === '' || newText.text === '';
      const fileEdits = oneSided ? Infinity : MAX_FILE_EDITS;
      const allowed = Math.min(editsLeft, fileEdits);
      // The headers are lines of their own: a newline in a name must not start another (displayText.ts).
      // As git writes them, a/ the reviewed side and b/ the current one, with no tab-separated label
      // after the name (a terminal line escapes a tab, and the header would read `…\u{9}reviewed`).
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
      if (patch) out.push({ ...base, unifiedDiff: formatPatch(patch), ...(modeNote ? { note: modeNote } : {}) });
      else
        out.push({
          ...base,
          note: withMode(
            allowed < fileEdits
              ? 'too many changed lines in this review to show more: no text diff'
              : 'diff too large to show: no text diff',
          ),
        });
    }
  }
  return out;
}

/**
 * Empty directories added or removed since the review (Codewhale's content hash frames every
 * directory, so one holding no file changes the hash without any file changing). A directory
 * holding anything is said by what it holds; of nested empty ones, the deepest is named. The
 * reviewed side is the reviewed copy, which holds exactly the reviewed directories.
 */
function directoryChanges(
  files: readonly BundleFile[],
  directories: readonly string[],
  reviewedCopy: string,
): FileChange[] {
  const reviewed = listTree(reviewedCopy);
  if (reviewed === undefined) return [];
  const now = directories.filter((d) => d !== '');
  const nowSet = new Set(now);
  const thenSet = new Set(reviewed.directories);
  const nowHolding = ancestorsOf([...files.map((f) => f.path), ...now]);
  const thenHolding = ancestorsOf([...reviewed.files, ...reviewed.directories]);
  const out: FileChange[] = [];
  for (const d of now)
    if (!thenSet.has(d) && !nowHolding.has(d))
      out.push({ path: `${d}/`, change: 'added', note: 'new empty directory' });
  for (const d of reviewed.directories)
    if (!nowSet.has(d) && !thenHolding.has(d))
      out.push({ path: `${d}/`, change: 'removed', note: 'empty directory removed' });
  return out;
}

/** Every directory that holds one of `paths`, at any depth. */
function ancestorsOf(paths: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const p of paths)
    for (let at = p.lastIndexOf('/'); at > 0; at = p.lastIndexOf('/', at - 1)) {
      const dir = p.slice(0, at);
      if (out.has(dir)) break;
      out.add(dir);
    }
  return out;
}

/**
 * The directories and other entries under `root`, relative, each by its exact name
 * (rawNames.ts); undefined when it cannot be listed. Only ever the reviewed copy, Skillgate's
 * own (see `fileChanges`): listed by its path. The bundle's side is the list its hash walked.
 */
function listTree(root: string): { directories: string[]; files: string[] } | undefined {
  const directories: string[] = [];
  const files: string[] = [];
  const rootBytes = Buffer.from(osPath(root));
  const stack: Buffer[] = [Buffer.alloc(0)];
  try {
    for (let rel = stack.pop(); rel !== undefined; rel = stack.pop()) {
      const abs = rel.length ? Buffer.concat([rootBytes, SLASH, rel]) : rootBytes;
      for (const e of fs.readdirSync(abs, { withFileTypes: true, encoding: 'buffer' })) {
        const child = rel.length ? Buffer.concat([rel, SLASH, e.name]) : e.name;
        if (e.isDirectory()) {
          directories.push(decodeRawName(child));
          stack.push(child);
        } else files.push(decodeRawName(child));
      }
    }
  } catch {
    return undefined;
  }
  return { directories, files };
}

const SLASH = Buffer.from('/');

function isEdit(line: string): boolean {
  return line.startsWith('+') || line.startsWith('-');
}

const CHANGED_WHILE_READ = 'changed while it was read: review it again';
const REVIEWED_COPY_DIFFERS = 'the reviewed snapshot does not hold the reviewed bytes: no text diff';

// The notes keep the words users and tests know: "the reviewed snapshot" is the reviewed copy.
function textOf(read: ReadResult | undefined, sha256: string, otherBytes: string): { text?: string; note?: string } {
  if (!read) return { note: 'the reviewed snapshot is missing' };
  if (!read.ok)
    return {
      note:
        read.reason === 'too-large'
          ? 'larger than 1 MiB: no text diff'
          : read.reason === 'missing'
            ? 'the reviewed snapshot is missing'
            : 'unreadable',
    };
  if (sha256Hex(read.bytes) !== sha256) return { note: otherBytes };
  if (read.bytes.includes(0)) return { note: 'binary file: no text diff' };
  const text = decodeUtf8(read.bytes);
  return text === undefined ? { note: 'not UTF-8: no text diff' } : { text };
}
