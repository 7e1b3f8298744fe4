import * as z from 'zod';
import { systemIdSchema } from '../systems/registry';
import { unreadUnitProblem } from '../trust/checkGate';
import { displayPath } from '../report/contract';
import { byteOrder } from '../fs/rawNames';
import { firstDuplicateKey } from '../documents/duplicateKeys';
import type { Snapshot } from '../index/snapshot';
import type { Item, System } from '../model';

/**
 * `skillgate.lock`: a repository's pin file, reviewed like a lockfile (cli.md `lock`).
 * It records, for every bundle in one workspace folder, the review token a team agreed
 * on; `check --lock` compares against it in CI. It never grants trust: nothing in the
 * trust store or the editor's decisions reads it (trust.md: a repository must never
 * grant itself trust).
 */
export const LOCK_FILE_NAME = 'skillgate.lock';
const LOCK_VERSION = 1;
const NOTE =
  'Written by `skillgate lock`. It pins the review token of every agent bundle in this repository so that CI (`skillgate check --lock`) fails when one changes; it grants no trust on any machine.';

export interface LockEntry {
  /** Workspace-relative path with `/` separators, as in the CLI contract. */
  readonly path: string;
  readonly system: System;
  readonly name: string;
  readonly reviewToken: string;
}

const TOKEN = /^[0-9a-f]{64}\.[0-9a-f]{64}$/;

const entrySchema = z.strictObject({
  path: z
    .string()
    .min(1)
    .refine(
      (p) => !p.startsWith('/') && !/^[A-Za-z]:/.test(p) && !p.split('/').includes('..'),
      'a workspace-relative path without ..',
    ),
  system: systemIdSchema,
  name: z.string(),
  reviewToken: z.string().regex(TOKEN, 'a review token <contentHash>.<capabilityHash> (64 hex each)'),
});

const lockSchema = z.strictObject({
  note: z.string().optional(),
  lockVersion: z.literal(LOCK_VERSION),
  bundles: z.array(entrySchema),
});

/**
 * The trust units of one workspace folder, whatever this machine's trust store, user
 * bundles or environment say (those differ per machine; the lock must not): a bundle
 * shadowed here by a user bundle, or hooks not opted in here, load on a teammate's machine.
 * A Rivumi plugin past Rivumi's cap is left out: which plugins pass the cap follows from
 * the repository's file names alone, so no machine reads it, and it is never hashed (a
 * token it has not could only make every lock fail). One that a change moves under the
 * cap is new then. A unit Skillgate left unread by a limit of its own that the agent does
 * not have is one too (it has no hashes, so no trust): it is `unpinnable`, never left out.
 */
export function workspaceBundles(snapshot: Snapshot, workspace: string): Item[] {
  // Every agent's items carry their folder exactly as the index keeps it (Eva's too: eva/givenFolder.ts),
  // so a folder given through a link holds its Eva bundles here as well.
  return snapshot.items.filter(
    (i) =>
      (i.trust !== null || unreadUnitProblem(i) !== null) &&
      i.scope === 'workspace' &&
      i.workspace === workspace &&
      !i.reasons.includes('plugin_limit_exceeded'),
  );
}

/** The workspace-relative path a lock names a bundle by. */
export function lockPath(item: Item, workspace: string): string {
  return displayPath(item.path, [workspace]);
}

/**
 * The bundles of one workspace that share their system and path with another: a lock
 * names a bundle by those two (cli.md), so two trust units of one file (an Eva manifest
 * read both as a skill adapter and as a lua_skill) would be one entry, which `check --lock`
 * refuses as pinned twice. Neither can be pinned.
 */
export function samePlaceBundles(items: readonly Item[], workspace: string): Set<Item> {
  const places = items.map((item) => `${item.system}\u0000${lockPath(item, workspace)}`);
  const count = new Map<string, number>();
  for (const place of places) count.set(place, (count.get(place) ?? 0) + 1);
  return new Set(items.filter((_, i) => (count.get(places[i] as string) ?? 0) > 1));
}

/**
 * Why a bundle cannot be pinned (it shares its place with another, has no token, or runs
 * files its token does not cover), else null.
 */
export function unpinnable(item: Item, sharesPlace = false): string | null {
  const unread = unreadUnitProblem(item);
  if (unread !== null) return unread;
  if (sharesPlace)
    return `another ${item.system} bundle has the same path, and a lock names a bundle by its system and path`;
  const notCovered = item.detail.notCovered ?? [];
  if (notCovered.length > 0) return `its review token does not cover what it runs: ${notCovered.join('; ')}`;
  if (item.reviewToken === null) return 'it has no review token (it could not be hashed; see `skillgate validate`)';
  return null;
}

/**
 * Entries sorted by path, then system, in byte order of the path as the file system
 * names it (a name that is not UTF-8 sorts by its real bytes, as `git` and `sort` list
 * them), the same on every machine; not UTF-16 order, which puts U+1F600 before U+FF21.
 */
export function sortEntries<T extends Pick<LockEntry, 'path' | 'system'>>(entries: readonly T[]): T[] {
  return [...entries].sort((a, b) => byteOrder(a.path, b.path) || byteOrder(a.system, b.system));
}

/** The lock text: stable key order, one field per line, a trailing newline; the same bundles give the same bytes. */
export function lockText(entries: readonly LockEntry[]): string {
  const bundles = sortEntries(entries).map((e) => ({
    path: e.path,
    system: e.system,
    name: e.name,
    reviewToken: e.reviewToken,
  }));
  return JSON.stringify({ note: NOTE, lockVersion: LOCK_VERSION, bundles }, null, 2) + '\n';
}

export type LockParse =
  { readonly ok: true; readonly entries: LockEntry[] } | { readonly ok: false; readonly problem: string };

/** Reads a lock's text; a malformed lock is an error, never an empty lock (fail closed). */
export function parseLock(text: string): LockParse {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { ok: false, problem: `it is not JSON (${(e as Error).message})` };
  }
  // JSON.parse keeps a repeated key's last value, while a reviewer reading the diff sees the first.
  const repeated = firstDuplicateKey(text);
  if (repeated !== undefined) return { ok: false, problem: `at ${repeated.join('.')}: the key is given twice` };
  const version = (raw as { lockVersion?: unknown } | null)?.lockVersion;
  if (typeof version === 'number' && version !== LOCK_VERSION)
    return {
      ok: false,
      problem: `it has lockVersion ${version}, and this Skillgate reads lockVersion ${LOCK_VERSION}: write it again with \`skillgate lock\`, or use the Skillgate version that wrote it`,
    };
  const parsed = lockSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      problem: `${issue?.path.length ? `at ${issue.path.join('.')}: ` : ''}${issue?.message ?? 'it does not match the lock format'}`,
    };
  }
  const seen = new Set<string>();
  for (const e of parsed.data.bundles) {
    const key = `${e.system} ${e.path}`;
    if (seen.has(key)) return { ok: false, problem: `it pins ${e.system} bundle ${e.path} twice` };
    seen.add(key);
  }
  return { ok: true, entries: parsed.data.bundles };
}
