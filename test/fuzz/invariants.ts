import * as fs from 'node:fs';
import * as path from 'node:path';
import { run } from '../../src/cli/main';
import { osPath } from '../../src/core/fs/rawNames';
import { layout, type FuzzInput } from './input';
import { Rng } from './random';
import { SENTINEL_ENV, SENTINEL_GLOBAL, SENTINEL_RELATIVE } from './payloads';
import { childProcessCalls } from './spy';

/**
 * What must hold for every input, stated exactly; a failure names one of these.
 * The harness never relaxes them to pass: a failure is a bug (or a gap in the spec).
 */
export const INVARIANTS = {
  'no-crash': 'no command exits 2 or prints "internal error", and run() itself never throws',
  'bounded-time': 'each input (all its commands) finishes within the time bound, in CPU time of its worker',
  'json-valid':
    '`list --json` and `validate --format sarif` print one JSON document (`schemaVersion: 1`; SARIF `version: 2.1.0`)',
  'ids-unique': 'no two items of `list --json` share an id',
  'refs-exist':
    "every item's `parent` and `shadowedBy`, and every diagnostic's `itemId`, is null or the id of an item in the same output",
  'ranges-in-file':
    "every diagnostic range is start <= end, with 0-based line < the number of lines of its file and character <= that line's length in UTF-16 units (text decoded as UTF-8, or UTF-16 after a BOM; lines split at \\r\\n, \\r, \\n); a diagnostic on a directory, link or missing file points at 0:0-0:0",
  'review-token':
    'every non-null reviewToken is `<contentHash>.<capabilityHash>` (64 lowercase hex each) and is non-null whenever both hashes are; `review <id>` prints exactly that token and those hashes',
  'untrusted-not-registered':
    'with an empty trust store no trust unit is trusted or enabled, and nothing under a trust unit is `registered` unless its agent loads it whatever Skillgate says (Rivumi, Eva-CLI: `loaded_unreviewed` first)',
  'text-controls':
    'no text output (stdout or stderr of any command, JSON aside) holds a C0 control other than \\n, DEL or a C1 control (U+0000-U+0009, U+000B-U+001F, U+007F-U+009F)',
  'json-controls':
    'no JSON output holds a raw C0, DEL or C1 control character (JSON.stringify escapes C0 but not DEL or C1)',
  'nothing-executed':
    'no front matter engine, hook or MCP command runs: the sentinel file and global flag never appear, no child process is started',
  'read-only':
    'list, validate, check, review, show and explain write nothing: the trust store directory is not created and no file under the input root changes',
  'sarif-uri': "every SARIF artifactLocation.uri holds only RFC 3986 pchar characters, '/' and percent-escapes",
} as const;

export type Invariant = keyof typeof INVARIANTS;

export interface Failure {
  readonly invariant: Invariant;
  /** Groups failures of one kind across inputs (a message shape, a code point). */
  readonly signature: string;
  readonly detail: string;
}

interface Run {
  readonly argv: readonly string[];
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

interface ContractItem {
  id: string;
  system: string;
  kind: string;
  name: string;
  parent: string | null;
  shadowedBy: string | null;
  decision: string;
  reasons: string[];
  trust: string | null;
  enabled: boolean | null;
  contentHash: string | null;
  capabilityHash: string | null;
  reviewToken: string | null;
}

interface ContractDiagnostic {
  file: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  code: string;
  message: string;
  itemId: string | null;
}

const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/u;
const HEX64 = /^[0-9a-f]{64}$/;

/** Replaces paths and numbers so one bug in many inputs gives one signature. */
function shape(text: string, root: string): string {
  return text
    .split(root)
    .join('<root>')
    .replace(/[0-9a-f]{12,}/g, '<hex>')
    .replace(/\d+/g, 'N')
    .slice(0, 160);
}

function quote(text: string, at: number): string {
  return JSON.stringify(text.slice(Math.max(0, at - 40), at + 40));
}

function codePoint(ch: string): string {
  return `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Root-relative entry → size, mode and mtime, to prove a read-only command wrote nothing. */
function treeState(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (abs: Buffer, rel: string) => {
    let names: Buffer[];
    try {
      names = fs.readdirSync(abs, { encoding: 'buffer' });
    } catch {
      return;
    }
    for (const n of names) {
      const a = Buffer.concat([abs, Buffer.from('/'), n]);
      const r = `${rel}/${n.toString('latin1')}`;
      try {
        const st = fs.lstatSync(a, { bigint: true });
        out.set(r, `${st.mode}:${st.size}:${st.mtimeNs}`);
        if (st.isDirectory()) walk(a, r);
      } catch {
        out.set(r, 'gone');
      }
    }
  };
  walk(Buffer.from(root), '');
  return out;
}

function decodeText(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return bytes.toString('utf8');
}

export interface CheckOptions {
  /** Soft bound per input; the supervisor kills a worker well past it. */
  readonly timeLimitMs: number;
}

/** Runs the CLI over an input tree under `root` and checks every invariant. */
export async function checkInput(input: FuzzInput, root: string, options: CheckOptions): Promise<Failure[]> {
  // The soft bound counts this worker's CPU time, not the wall clock: on a loaded machine
  // (other jobs sharing two cores) an input waits for a core without doing more work. An input
  // that waits forever is the supervisor's wall-clock watchdog's (`hangMs`).
  const started = process.cpuUsage();
  const l = layout(root);
  const failures: Failure[] = [];
  const fail = (invariant: Invariant, signature: string, detail: string) => {
    if (!failures.some((f) => f.invariant === invariant && f.signature === signature))
      failures.push({ invariant, signature, detail });
  };
  const sentinel = path.join(root, 'sentinel');
  process.env[SENTINEL_ENV] = sentinel;
  const g = globalThis as Record<string, unknown>;
  delete g[SENTINEL_GLOBAL];
  const spawnsBefore = childProcessCalls().length;
  const before = treeState(root);

  const common = [
    '--state-dir',
    l.state,
    '--workspace',
    l.ws,
    ...(input.workspaceTwice ? ['--workspace', l.wsLink] : []),
    ...(input.home.length || input.evaDemo ? ['--codewhale-home', l.home, '--eva-home', l.home] : ['--no-user']),
  ];
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    ...(input.hooksOptIn ? { RIVUMI_ENABLE_PROJECT_HOOKS: '1' } : {}),
  };
  const runs: Run[] = [];
  const cli = async (...args: string[]): Promise<Run> => {
    const argv = [...args, ...common];
    let out = '';
    let err = '';
    let code: number;
    try {
      code = await run(argv, { out: (t) => (out += t), err: (t) => (err += t), env, cwd: root });
    } catch (e) {
      code = -1;
      err += `run() threw: ${(e as Error).stack ?? String(e)}`;
    }
    const r = { argv: args, code, out, err };
    runs.push(r);
    if (code === 2 || code === -1 || /internal error/.test(err))
      fail(
        'no-crash',
        `${args[0]}: ${shape(err.split('\n')[0] ?? '', root)}`,
        `\`skillgate ${args.join(' ')}\` exited ${code}: ${err.slice(0, 600)}`,
      );
    return r;
  };

  // The machine-readable contract.
  const listed = await cli('list', '--json');
  let items: ContractItem[] = [];
  let diagnostics: ContractDiagnostic[] = [];
  if (listed.code === 0) {
    try {
      const doc = JSON.parse(listed.out) as {
        schemaVersion: number;
        items: ContractItem[];
        diagnostics: ContractDiagnostic[];
      };
      if (doc.schemaVersion !== 1 || !Array.isArray(doc.items) || !Array.isArray(doc.diagnostics))
        fail('json-valid', 'list: shape', `list --json printed ${listed.out.slice(0, 200)}`);
      items = doc.items ?? [];
      diagnostics = doc.diagnostics ?? [];
    } catch (e) {
      fail('json-valid', 'list: parse', `list --json is not JSON: ${(e as Error).message}`);
    }
  }
  const byId = new Map<string, ContractItem>();
  for (const i of items) {
    if (byId.has(i.id))
      fail(
        'ids-unique',
        `${i.kind}`,
        `two items have the id ${JSON.stringify(i.id)} (${i.kind} ${JSON.stringify(i.name)})`,
      );
    byId.set(i.id, i);
  }
  for (const i of items) {
    if (i.parent !== null && !byId.has(i.parent))
      fail(
        'refs-exist',
        'parent',
        `item ${JSON.stringify(i.id)} has parent ${JSON.stringify(i.parent)}, which is not an item`,
      );
    if (i.shadowedBy !== null && !byId.has(i.shadowedBy))
      fail(
        'refs-exist',
        'shadowedBy',
        `item ${JSON.stringify(i.id)} is shadowed by ${JSON.stringify(i.shadowedBy)}, which is not an item`,
      );
    const token = i.reviewToken;
    if (
      token !== null &&
      (token !== `${i.contentHash}.${i.capabilityHash}` ||
        !HEX64.test(i.contentHash ?? '') ||
        !HEX64.test(i.capabilityHash ?? ''))
    )
      fail(
        'review-token',
        'list',
        `item ${JSON.stringify(i.id)}: token ${token} vs hashes ${i.contentHash} / ${i.capabilityHash}`,
      );
    if (token === null && i.contentHash !== null && i.capabilityHash !== null)
      fail('review-token', 'list: missing', `item ${JSON.stringify(i.id)} has both hashes and no token`);
  }
  // Trust: the store is empty, so nothing that needs trust may be active.
  const unitOf = (i: ContractItem): ContractItem | undefined => {
    for (
      let cur: ContractItem | undefined = i, n = 0;
      cur && n < 50;
      cur = cur.parent !== null ? byId.get(cur.parent) : undefined, n++
    )
      if (cur.trust !== null) return cur;
    return undefined;
  };
  for (const i of items) {
    if (i.trust !== null && (i.trust === 'trusted' || i.enabled === true))
      fail(
        'untrusted-not-registered',
        `trust ${i.trust}`,
        `${i.kind} ${JSON.stringify(i.id)} is ${i.trust}, enabled ${String(i.enabled)} with an empty trust store`,
      );
    const unit = unitOf(i);
    // Rivumi and Eva-CLI enforce no trust: what they load is `registered` with `loaded_unreviewed` first (decisions.md), never silently.
    if (unit && i.decision === 'registered' && !(i.system !== 'codewhale' && i.reasons[0] === 'loaded_unreviewed'))
      fail(
        'untrusted-not-registered',
        `${i.kind} registered`,
        `${i.kind} ${JSON.stringify(i.id)} is registered although its trust unit ${JSON.stringify(unit.id)} is ${unit.trust}`,
      );
  }
  const lineCache = new Map<string, string[] | null>();
  for (const d of diagnostics) {
    if (d.itemId !== null && !byId.has(d.itemId))
      fail(
        'refs-exist',
        'itemId',
        `diagnostic ${d.code} (${JSON.stringify(d.message.slice(0, 80))}) names item ${JSON.stringify(d.itemId)}, which is not an item`,
      );
    checkRange(d, l.ws, lineCache, (sig, detail) => fail('ranges-in-file', sig, detail));
  }

  // The text faces and the other machine output.
  await cli('list');
  await cli('validate');
  const sarif = await cli('validate', '--format', 'sarif');
  if (sarif.code !== 2) checkSarif(sarif.out, (inv, sig, detail) => fail(inv, sig, detail));
  await cli('check');
  const units = items.filter((i) => i.trust !== null);
  for (const unit of [...new Map(units.map((u) => [u.id, u])).values()]) {
    const r = await cli('review', unit.id);
    if (r.code !== 0) continue;
    // A unit whose manifest does not load has no capability hash or token; review says so in words.
    // Its review may still hash its files (what is on disk now) where `list` reports no content hash.
    const printed = (label: string) => {
      const value = new RegExp(`^${label}:\\s+(.+)$`, 'm').exec(r.out)?.[1];
      return value?.startsWith('not computable') ? null : value;
    };
    const token = printed('Review token');
    if (
      token !== unit.reviewToken ||
      (unit.contentHash !== null && printed('Content hash') !== unit.contentHash) ||
      printed('Capability hash') !== unit.capabilityHash
    )
      fail(
        'review-token',
        'review',
        `review ${JSON.stringify(unit.id)} printed token ${token}; list --json has ${unit.reviewToken}`,
      );
  }
  const tops = items.filter((i) => i.parent === null);
  if (tops.length) {
    const pick = new Rng(`${input.seed}:${input.index}:pick`).pick(tops);
    await cli('show', pick.id);
    await cli('explain', pick.id);
  }

  for (const r of runs) {
    const json = r.argv.includes('--json') || r.argv.includes('sarif');
    for (const [stream, text] of [
      ['stdout', r.out],
      ['stderr', r.err],
    ] as const) {
      const m = CONTROL.exec(text);
      if (!m) continue;
      const asJson = json && stream === 'stdout';
      fail(
        asJson ? 'json-controls' : 'text-controls',
        `${r.argv[0]} ${stream} ${codePoint(m[0])}`,
        `\`skillgate ${r.argv.join(' ')}\` ${stream} holds ${codePoint(m[0])} at ${m.index}: ${quote(text, m.index)}`,
      );
    }
  }

  if (fs.existsSync(sentinel) || fs.existsSync(path.join(l.ws, SENTINEL_RELATIVE)) || g[SENTINEL_GLOBAL] !== undefined)
    fail(
      'nothing-executed',
      'sentinel',
      `a planted payload ran: sentinel file ${fs.existsSync(sentinel)}, relative sentinel ${fs.existsSync(path.join(l.ws, SENTINEL_RELATIVE))}, global flag ${String(g[SENTINEL_GLOBAL])}`,
    );
  const spawned = childProcessCalls().slice(spawnsBefore);
  if (spawned.length) fail('nothing-executed', 'child process', `child processes started: ${spawned.join('; ')}`);

  if (fs.existsSync(l.state))
    fail(
      'read-only',
      'state dir',
      `read-only commands created the trust store directory ${l.state}: ${fs.readdirSync(l.state).join(', ')}`,
    );
  const after = treeState(root);
  for (const [k, v] of after)
    if (before.get(k) !== v && !k.startsWith('/state'))
      fail('read-only', 'tree', `${JSON.stringify(k)} changed (${before.get(k) ?? 'absent'} -> ${v})`);
  for (const k of before.keys()) if (!after.has(k)) fail('read-only', 'tree', `${JSON.stringify(k)} disappeared`);

  const spent = process.cpuUsage(started);
  const cpuMs = (spent.user + spent.system) / 1000;
  if (cpuMs > options.timeLimitMs)
    fail(
      'bounded-time',
      'slow',
      `the input took ${Math.round(cpuMs)} ms of CPU time (bound ${options.timeLimitMs} ms)`,
    );
  return failures;
}

/** `lines`: each file's lines (null: not a regular file), read once per input, as one file can carry thousands of diagnostics. */
function checkRange(
  d: ContractDiagnostic,
  ws: string,
  lines: Map<string, string[] | null>,
  fail: (signature: string, detail: string) => void,
): void {
  const { start, end } = d.range;
  const where = `${d.code} at ${JSON.stringify(d.file)} ${start.line}:${start.character}-${end.line}:${end.character}`;
  const ints = [start.line, start.character, end.line, end.character].every((n) => Number.isInteger(n) && n >= 0);
  if (!ints || start.line > end.line || (start.line === end.line && start.character > end.character))
    return fail(`${d.code}: order`, `${where}: not a range`);
  const file = path.isAbsolute(d.file) ? d.file : path.join(ws, d.file);
  if (!lines.has(file)) {
    // A name that is not UTF-8 is spelled with lone surrogates in the JSON (surrogateescape): open its bytes.
    const onDisk = osPath(file);
    let st: fs.Stats | undefined;
    try {
      st = fs.lstatSync(onDisk);
    } catch {
      st = undefined;
    }
    lines.set(file, st?.isFile() ? decodeText(fs.readFileSync(onDisk)).split(/\r\n|\r|\n/) : null);
  }
  const text = lines.get(file);
  if (!text) {
    if (start.line !== 0 || start.character !== 0 || end.line !== 0 || end.character !== 0)
      fail(
        `${d.code}: not a file`,
        `${where}: the file is a directory, a link or missing, yet the range is not 0:0-0:0`,
      );
    return;
  }
  for (const p of [start, end]) {
    const line = text[p.line];
    if (line === undefined) return fail(`${d.code}: line`, `${where}: the file has ${text.length} line(s)`);
    if (p.character > line.length)
      return fail(`${d.code}: character`, `${where}: line ${p.line} has ${line.length} character(s)`);
  }
}

// RFC 3986: pchar = unreserved / pct-encoded / sub-delims / ":" / "@"; plus "/" between segments.
const URI_PATH = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$/;

function checkSarif(out: string, fail: (invariant: Invariant, signature: string, detail: string) => void): void {
  let doc: {
    version?: string;
    runs?: { results?: { locations?: { physicalLocation?: { artifactLocation?: { uri?: string } } }[] }[] }[];
  };
  try {
    doc = JSON.parse(out);
  } catch (e) {
    return fail('json-valid', 'sarif: parse', `validate --format sarif is not JSON: ${(e as Error).message}`);
  }
  if (doc.version !== '2.1.0') fail('json-valid', 'sarif: version', `SARIF version ${String(doc.version)}`);
  for (const r of doc.runs ?? [])
    for (const res of r.results ?? [])
      for (const loc of res.locations ?? []) {
        const uri = loc.physicalLocation?.artifactLocation?.uri;
        if (uri !== undefined && !URI_PATH.test(uri))
          fail('sarif-uri', 'uri', `artifactLocation.uri ${JSON.stringify(uri)} is not percent-encoded`);
      }
}
