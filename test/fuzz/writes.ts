import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GlobalOptions } from '../../src/cli/options';
import { decodeRawName, osBytes } from '../../src/core/fs/rawNames';
import { Indexer } from '../../src/core/index/indexer';
import type { BundleFile, Item } from '../../src/core/model';
import { lockPath } from '../../src/core/lock/lockFile';
import { envelope } from '../../src/core/report/contract';
import { jsonText } from '../../src/core/report/jsonText';
import { TrustStore } from '../../src/core/trust/trustStore';
import { applyOpTolerant, generateOp, type FuzzInput } from './input';
import type { Op } from './mutations';
import type { Invariant, Run } from './invariants';
import { Rng, bytesText, textBytes } from './random';
import { changedEntries, changedKeys, treeState } from './treeState';

/** What the write phase needs from `checkInput`: the input, its options and its CLI runner. */
export interface WriteContext {
  readonly input: FuzzInput;
  readonly root: string;
  /** The options the CLI parses from the input's common arguments (so the in-process index is the CLI's). */
  readonly options: GlobalOptions;
  readonly env: NodeJS.ProcessEnv;
  /** The parse cache directory the cached runs share (root-relative `/cache`). */
  readonly cacheDir: string;
  /** What `list --json` printed before anything was written (empty trust store, no cache), and how `validate` exits there. */
  readonly listedBefore: string;
  readonly validateExit: number;
  readonly cli: (...args: string[]) => Promise<Run>;
  readonly fail: (invariant: Invariant, signature: string, detail: string) => void;
}

interface LockFindingView {
  status: string;
  system: string;
  name: string;
  path: string;
  reviewToken: string | null;
}

/** One change of a covered file's bytes, as a user's editor or a pull request makes it. */
interface Edit {
  readonly how: 'flip' | 'insert' | 'truncate' | 'delete';
  /** Absolute path, raw bytes; `real`: the same through no link (a unit's root may be one its agent follows, `.rivumi`). */
  readonly file: Buffer;
  readonly real: Buffer;
  readonly at: number;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * The commands that write, and a change after them: `lock`, then `trust` of one trust
 * unit at its token, then one byte change (or the deletion) of a file that unit covers,
 * then one more op of the input generator (a rename, link, deletion, new entry). Checks
 * that the lock and the trust follow the bytes, that an incremental re-index and a warm
 * parse cache give what a fresh index gives, and that nothing is written but the trust
 * store, the cache and the lock.
 */
export async function checkWrites(c: WriteContext): Promise<void> {
  const { cli, fail, root } = c;
  const before = treeState(root);

  // The parse cache: a cold run that writes it, then a warm one that reads it, print what no cache prints.
  for (const args of [
    ['list', '--json'],
    ['validate', '--format', 'json'],
  ]) {
    const r = await cli(...args, '--cache-dir', c.cacheDir);
    if (r.code !== 0 && r.code !== 1) continue;
    if (r.out !== c.listedBefore)
      fail(
        'cache-equals-fresh',
        `${args[0]} ${fs.existsSync(c.cacheDir) ? 'with' : 'without'} a cache file`,
        `\`${args.join(' ')} --cache-dir\` differs from \`list --json\`: ${difference(r.out, c.listedBefore)}`,
      );
    if (r.code !== (args[0] === 'list' ? 0 : c.validateExit))
      fail('exit-codes', `${args[0]} cached: ${r.code}`, `\`${args.join(' ')} --cache-dir\` exited ${r.code}`);
  }
  const store = new TrustStore(c.options.stateDir as string);
  const indexer = () =>
    new Indexer({
      workspaces: c.options.workspaces,
      codewhaleHome: c.options.codewhaleHome,
      evaHome: c.options.evaHome,
      evaUserSkills: c.options.evaUserSkills,
      evaRuntime: c.options.evaRuntime,
      rivumiHooksEnv: c.env.RIVUMI_ENABLE_PROJECT_HOOKS,
      trust: () => store.view(),
    });

  // The lock of unchanged files passes: every bundle pinned, but those `lock` could not pin.
  const locked = await cli('lock');
  const pre = lockReport(await cli('check', '--lock', '--format', 'json'), fail);
  if (pre) {
    const odd = pre.bundles.filter((b) => b.status !== 'pinned' && b.status !== 'unpinnable');
    const unpinnable = pre.bundles.some((b) => b.status === 'unpinnable');
    if (odd.length || pre.code !== (unpinnable ? 1 : 0) || (locked.code === 0 && pre.code !== 0))
      fail(
        'lock-check',
        `unchanged: ${odd[0]?.status ?? `exit ${pre.code}`}`,
        `\`lock\` exited ${locked.code}, then \`check --lock\` on the same files exited ${pre.code}: ${odd.map((b) => `${b.status} ${b.system} ${JSON.stringify(b.path)}`).join('; ')}`,
      );
  }

  // The in-process index the incremental check starts from is the CLI's own (a harness check).
  const incremental = indexer();
  const first = incremental.indexAll();
  const firstText = jsonText(envelope(first));
  if (firstText !== c.listedBefore)
    fail(
      'incremental-equals-fresh',
      'harness',
      `the in-process index differs from \`list --json\`: ${difference(firstText, c.listedBefore)}`,
    );

  const rng = new Rng(`${c.input.seed}:${c.input.index}:edit`);
  const picked = pickCovered(first.items, c.options, rng);
  if (!picked) return confined(c, before, []);
  const { unit, file } = picked;

  // Trust the unit at its token: the next snapshot (decisions re-derived, nothing read) shows it trusted.
  const trusted = (await cli('trust', unit.id, unit.reviewToken as string)).code === 0;
  if (trusted) {
    const now = incremental.snapshot().items.find((i) => i.id === unit.id);
    if (now?.trust !== 'trusted')
      fail(
        'trust-follows-bytes',
        `trust: ${now?.trust ?? 'gone'}`,
        `\`trust\` of ${unit.kind} ${JSON.stringify(unit.id)} exited 0, yet it is ${now?.trust ?? 'gone'} with nothing changed`,
      );
  }

  const edit = applyEdit(file, rng);
  const rel = edit.file.subarray(Buffer.byteLength(root) + 1);
  const what = `after the ${edit.how} of ${bytesText(rel)} at ${edit.at} (covered by ${unit.kind} ${JSON.stringify(unit.id)})`;
  const refreshed = jsonText(envelope(incremental.refresh([decodeRawName(edit.file)])));
  const fresh = await cli('list', '--json');
  const cached = await cli('list', '--json', '--cache-dir', c.cacheDir);
  if (fresh.code === 0) {
    if (refreshed !== fresh.out)
      fail(
        'incremental-equals-fresh',
        `${edit.how} ${unit.system} ${unit.kind}`,
        `${what}, refresh([file]) differs from a fresh index: ${difference(refreshed, fresh.out)}`,
      );
    if (cached.code === 0 && cached.out !== fresh.out)
      fail(
        'cache-equals-fresh',
        `warm after ${edit.how} ${unit.system}`,
        `${what}, \`list --json\` with the warm parse cache differs from one without: ${difference(cached.out, fresh.out)}`,
      );
  }

  const items = listedItems(fresh);
  if (trusted)
    for (const i of items.filter((x) => x.trust === 'trusted'))
      fail(
        'trust-follows-bytes',
        `stale trust ${edit.how} ${unit.system} ${unit.kind}`,
        `${what}, ${JSON.stringify(i.id)} is still trusted`,
      );

  // A pinned bundle whose covered bytes changed fails `check --lock`, by its path.
  // (Found by its path too: a copy of a bundle elsewhere has the same token.)
  const pinned =
    unit.scope === 'workspace' && unit.workspace !== null
      ? pre?.bundles.find(
          (b) =>
            b.status === 'pinned' &&
            b.system === unit.system &&
            b.reviewToken === unit.reviewToken &&
            b.path === lockPath(unit, unit.workspace as string),
        )
      : undefined;
  if (pinned) {
    const post = lockReport(await cli('check', '--lock', '--format', 'json'), fail);
    if (post && (post.code !== 1 || !post.failing.some((f) => f.path === pinned.path && f.system === pinned.system)))
      fail(
        'lock-check',
        `edit not named: ${edit.how} ${unit.system}`,
        `${what}, \`check --lock\` exited ${post.code} and names ${JSON.stringify(post.failing.map((f) => `${f.status} ${f.path}`))}, not ${JSON.stringify(pinned.path)}`,
      );
  }

  // Any change the harness makes (renames to hostile names, links, deletions, new entries):
  // refresh of every path it touched, as a file watcher reports them, equals a fresh index.
  const touched: string[] = [];
  let latest = items;
  const op = sparingHome(generateOp(rng, root), c);
  if (op) {
    const beforeOp = treeState(root);
    applyOpTolerant(root, op);
    touched.push(...changedKeys(beforeOp, treeState(root), [], true));
    // As a watcher reports a directory created, removed or renamed in one go: the directory, not what is in it.
    const all = new Set(touched);
    const reported = touched.filter((k) => !all.has(k.slice(0, k.lastIndexOf('/'))));
    const again = jsonText(
      envelope(
        incremental.refresh(
          reported.map((k) => decodeRawName(Buffer.concat([Buffer.from(root), Buffer.from(k, 'latin1')]))),
        ),
      ),
    );
    const fresh2 = await cli('list', '--json');
    latest = listedItems(fresh2);
    if (fresh2.code === 0 && again !== fresh2.out)
      fail(
        'incremental-equals-fresh',
        `op ${op.op}`,
        `after the op ${JSON.stringify(op)} (${what}), refresh(${JSON.stringify(reported.slice(0, 5))}${reported.length > 5 ? ', …' : ''}) differs from a fresh index: ${difference(again, fresh2.out)}`,
      );
  }

  // The faces that show a receipt and a diff since it (their text is checked with every other run's).
  if (latest.some((i) => i.id === unit.id)) await cli('review', unit.id);
  const doctor = await cli('doctor');
  if (doctor.code !== 0)
    fail(
      'exit-codes',
      'doctor',
      `\`doctor\` exited ${doctor.code} on the store trust wrote: ${doctor.err.slice(0, 300)}`,
    );
  confined(c, before, [`/${edit.real.subarray(Buffer.byteLength(root) + 1).toString('latin1')}`, ...touched]);
}

/**
 * No op at or above a Codewhale home inside the tree (a workspace opened at the home,
 * codewhaleDuplicateRoot.ts), nor at or above the directory it leads to when it is a link
 * (codewhaleLinkedRoot.ts: `cw -> ws/.codewhale`): the CLI refuses a `--codewhale-home` that is
 * gone as a usage error (exit 2), so every later command would fail `no-crash` for the harness's
 * own doing.
 */
function sparingHome(op: Op | undefined, c: WriteContext): Op | undefined {
  const home = c.options.codewhaleHome;
  if (!op || home === null) return op;
  const at = textBytes(op.path);
  const spares = (dir: Buffer, root: Buffer) => {
    if (dir.length <= root.length || dir[root.length] !== 0x2f || !dir.subarray(0, root.length).equals(root))
      return false;
    const rel = dir.subarray(root.length + 1);
    return (
      at.equals(rel) || (rel.length > at.length && rel[at.length] === 0x2f && rel.subarray(0, at.length).equals(at))
    );
  };
  const real = (p: Buffer) => {
    try {
      return fs.realpathSync.native(p, { encoding: 'buffer' });
    } catch {
      return undefined;
    }
  };
  const root = osBytes(c.root);
  const realHome = real(osBytes(home));
  const realRoot = real(root);
  return spares(osBytes(home), root) || (realHome && realRoot && spares(realHome, realRoot)) ? undefined : op;
}

function listedItems(r: Run): { id: string; trust: string | null }[] {
  try {
    return (JSON.parse(r.out) as { items: { id: string; trust: string | null }[] }).items;
  } catch {
    return []; // json-valid reports the document; nothing to check here
  }
}

/** `lock`, `trust`, `review` and `doctor` write the trust store, the cache and the lock only (and the harness its edit). */
function confined(c: WriteContext, before: ReadonlyMap<string, string>, edited: readonly string[]): void {
  const allowed = [
    '/state',
    '/cache',
    ...c.options.workspaces.map((w) => `/${path.relative(c.root, w)}/skillgate.lock`),
    ...edited,
  ];
  for (const change of changedEntries(before, treeState(c.root), allowed, true).slice(0, 3))
    c.fail('writes-confined', 'tree', `lock, trust, review or doctor: ${change}`);
}

function lockReport(
  r: Run,
  fail: WriteContext['fail'],
): { code: number; bundles: LockFindingView[]; failing: LockFindingView[] } | undefined {
  if (r.code !== 0 && r.code !== 1) return undefined;
  try {
    const doc = JSON.parse(r.out) as { bundles: LockFindingView[]; failing: LockFindingView[] };
    return { code: r.code, bundles: doc.bundles, failing: doc.failing };
  } catch (e) {
    fail('json-valid', 'check --lock: parse', `check --lock --format json is not JSON: ${(e as Error).message}`);
    return undefined;
  }
}

/** A trust unit with a token and one file it covers, found on disk by its hash (paths are bundle- or workspace-relative). */
function pickCovered(items: readonly Item[], o: GlobalOptions, rng: Rng): { unit: Item; file: Buffer } | undefined {
  const units = items.filter((i) => i.trust !== null && i.reviewToken !== null && (i.detail.files ?? []).length > 0);
  if (!units.length) return undefined;
  const unit = rng.pick(units);
  const bases = [unit.path, unit.workspace, o.codewhaleHome, o.evaHome].filter((b): b is string => b !== null);
  const files = (unit.detail.files ?? []).flatMap((f) => {
    const abs = onDisk(f, bases);
    return abs ? [abs] : [];
  });
  return files.length ? { unit, file: rng.pick(files) } : undefined;
}

function onDisk(f: BundleFile, bases: readonly string[]): Buffer | undefined {
  const rel = f.rawPath ?? Buffer.from(f.path, 'utf8');
  for (const base of bases) {
    const abs = Buffer.concat([osBytes(base), Buffer.from('/'), rel]);
    try {
      if (fs.lstatSync(abs).isFile() && sha256(fs.readFileSync(abs)) === f.sha256) return abs;
    } catch {
      // not under this base
    }
  }
  return undefined;
}

/** Changes the file's bytes (never to the same bytes), or deletes it. */
function applyEdit(file: Buffer, rng: Rng): Edit {
  const slash = file.lastIndexOf(0x2f);
  // The native realpath(3): fs.realpathSync walks the path as a string, so a name that is not UTF-8 became its U+FFFD spelling.
  const real = Buffer.concat([
    fs.realpathSync.native(file.subarray(0, slash), { encoding: 'buffer' }),
    file.subarray(slash),
  ]);
  const bytes = fs.readFileSync(file);
  const how = rng.weighted<Edit['how']>([
    [bytes.length ? 5 : 0, 'flip'],
    [3, 'insert'],
    [bytes.length ? 2 : 0, 'truncate'],
    [1, 'delete'],
  ]);
  const at = rng.int(bytes.length + (how === 'insert' ? 1 : 0));
  if (how === 'delete') fs.rmSync(file);
  else if (how === 'truncate') fs.writeFileSync(file, bytes.subarray(0, at));
  else if (how === 'insert') {
    const add = rng.pick([
      Buffer.from('\x1b[2K'),
      Buffer.from('\u202e'),
      Buffer.from([0xff]),
      Buffer.from('\n'),
      Buffer.from('x'),
    ]);
    fs.writeFileSync(file, Buffer.concat([bytes.subarray(0, at), add, bytes.subarray(at)]));
  } else {
    const b = Buffer.from(bytes);
    b[at] = ((b[at] as number) + rng.range(1, 255)) & 0xff;
    fs.writeFileSync(file, b);
  }
  return { how, file, real, at };
}

/** Where two texts first differ, with a little of each. */
export function difference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const line = a.slice(0, i).split('\n').length;
  return `at line ${line}: ${JSON.stringify(a.slice(Math.max(0, i - 60), i + 60))} vs ${JSON.stringify(b.slice(Math.max(0, i - 60), i + 60))}`;
}
