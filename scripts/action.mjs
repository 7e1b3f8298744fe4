// The shell step of the Skillgate GitHub Action (action.yml). Plain Node, no
// dependencies: it runs on a bare runner, and the packaging test runs it here exactly as
// the runner would (INPUT_*, GITHUB_WORKSPACE, GITHUB_ACTION_PATH, RUNNER_TEMP,
// GITHUB_OUTPUT, GITHUB_PATH).
//
// 1. Installs the CLI from the action's own package: `npm pack` of the action's checkout
//    (its built dist/cli.js; when the checkout is unbuilt, `npm ci` and the prepack build
//    from its package-lock.json first), then `npm install -g --offline` of that tarball
//    into a prefix under RUNNER_TEMP. The package has no runtime dependencies.
// 2. Per workspace folder: `skillgate check --lock --format sarif` and
//    `skillgate validate --format sarif` (user bundles are not indexed: a runner has none).
// 3. Merges the results into one SARIF run whose paths are relative to the repository
//    root (what code scanning needs), within code scanning's limits (the most severe
//    kept, the rest counted in one result, as the CLI does), writes it, prints one
//    annotation per result, and sets the outputs (which count every finding: the bundles
//    not pinned apart from the places Skillgate's own limits left unread, which no lock can
//    pin). Exit 1 when the findings reach `fail-on`; exit 2 on a usage error.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { visible } from './actionText.mjs';

// GitHub code scanning's limits on one run (src/core/report/sarifLimits.ts cites them).
const RESULTS_PER_RUN = 25_000;
const GZIP_BUDGET = 10_000_000 - 1_000_000;
const TRUNCATED_RULE = 'skillgate.sarif.truncated';
// sarifRule('skillgate.sarif.truncated') of the CLI (its catalogue entry and help); a unit test holds the two equal.
const TRUNCATED_SARIF_RULE = {
  id: TRUNCATED_RULE,
  shortDescription: {
    text: 'More findings than GitHub code scanning takes in one upload: the SARIF keeps the most severe and counts the rest.',
  },
  fullDescription: {
    text: 'More findings than GitHub code scanning takes in one upload: the SARIF keeps the most severe and counts the rest.',
  },
  help: {
    text: 'Run `skillgate validate` (or `skillgate check --lock`), as text or with `--json`, to see the findings (the first 100 of each file, and a count of the rest), and fix the errors first; the exit code counts them all.',
    markdown:
      'Run `skillgate validate` (or `skillgate check --lock`), as text or with `--json`, to see the findings (the first 100 of each file, and a count of the rest), and fix the errors first; the exit code counts them all.',
  },
  defaultConfiguration: { level: 'warning' },
};
// The rule of a place Skillgate's own limits left unread (src/core/lock/lockSarif.ts UNREAD_RULE):
// no bundle, so not `unpinned`, and `skillgate lock` does not mend it.
const UNREAD_RULE = 'skillgate.lock.unread';
const wholeNumber = (v) => (Number.isSafeInteger(v) && v > 0 ? v : 0);
/** The counts a truncation result carries, each a whole number (0 when absent). */
function omittedBy(result) {
  const o = result.properties?.omitted ?? {};
  return { error: wholeNumber(o.error), warning: wholeNumber(o.warning), note: wholeNumber(o.note) };
}
/**
 * What a `check --lock` run left out, bundles apart from unread places: its truncation result
 * counts them by rule (sarifLimits.ts `omittedByRule`); every lock result is an error. A count it
 * does not split stays with the bundles: the job fails on either.
 */
function omittedLockResults(result) {
  const o = omittedBy(result);
  const total = o.error + o.warning + o.note;
  const unread = Math.min(total, wholeNumber(result.properties?.omittedByRule?.[UNREAD_RULE]));
  return { unpinned: total - unread, unread };
}

const env = process.env;
const input = (name, fallback = '') => {
  const v = env[`INPUT_${name.toUpperCase()}`] ?? env[`INPUT_${name.toUpperCase().replace(/-/g, '_')}`];
  return v === undefined || v.trim() === '' ? fallback : v.trim();
};
const say = (line) => process.stdout.write(`${line}\n`);
const fail = (message, code = 2) => {
  say(`::error title=Skillgate::${escapeData(message)}`);
  process.exit(code);
};
// Workflow command escaping (the runner's own rules for data and properties).
function escapeData(s) {
  return String(s).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
function escapeProperty(s) {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

const repoRoot = path.resolve(env.GITHUB_WORKSPACE || process.cwd());
const actionPath = path.resolve(
  env.GITHUB_ACTION_PATH || path.join(path.dirname(fileURLToPath(import.meta.url)), '..'),
);
const temp = path.resolve(env.RUNNER_TEMP || os.tmpdir());
const workspaces = input('workspaces', '.')
  .split('\n')
  .map((w) => w.trim())
  .filter(Boolean);
const lock = input('lock', 'skillgate.lock');
const failOn = input('fail-on', 'error');
const sarifFile = path.resolve(repoRoot, input('sarif-file', 'skillgate.sarif'));
if (!['error', 'warning', 'none'].includes(failOn)) fail(`fail-on must be error, warning or none, not "${failOn}"`);

// 1. Install.
const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
const packDir = path.join(temp, 'skillgate-package');
const prefix = path.join(temp, 'skillgate-cli');
mkdirSync(packDir, { recursive: true });
const built = existsSync(path.join(actionPath, 'dist', 'cli.js'));
if (!built && !existsSync(path.join(actionPath, 'node_modules'))) {
  say("Skillgate: building the CLI from the action's package-lock.json (npm ci)");
  npm(['ci', '--no-audit', '--no-fund'], actionPath);
}
// A built checkout is packed as it is; an unbuilt one builds in prepack.
npm(['pack', '--silent', '--pack-destination', packDir, ...(built ? ['--ignore-scripts'] : [])], actionPath);
const tarball = readdirSync(packDir)
  .filter((n) => /^skillgate-.*\.tgz$/.test(n))
  .sort()
  .pop();
if (!tarball) fail(`npm pack wrote no skillgate-*.tgz into ${packDir}`);
npm(
  [
    'install',
    '--global',
    '--prefix',
    prefix,
    '--offline',
    '--no-audit',
    '--no-fund',
    '--silent',
    path.join(packDir, tarball),
  ],
  temp,
);
const binDir = process.platform === 'win32' ? prefix : path.join(prefix, 'bin');
const skillgate = path.join(binDir, process.platform === 'win32' ? 'skillgate.cmd' : 'skillgate');
const version = execFileSync(skillgate, ['--version'], { encoding: 'utf8' }).trim();
say(`Skillgate ${version} installed from ${tarball}`);
if (env.GITHUB_PATH) appendFileSync(env.GITHUB_PATH, `${binDir}\n`);

// 2. Check and validate each workspace folder.
// A SARIF report is about 1 KB per finding: far above any real repository's, below V8's
// longest string, and still a bound on what a repository can make this step hold in memory.
const MAX_REPORT_BYTES = 256 * 1024 * 1024;
const runs = [];
let unpinned = 0;
let unread = 0;
let errors = 0;
let warnings = 0;
for (const ws of workspaces) {
  const dir = path.resolve(repoRoot, ws);
  if (!existsSync(dir)) fail(`workspace folder ${ws} does not exist in ${repoRoot}`);
  // The default lock may be missing (then every bundle is new); any other must exist.
  const lockArgs = lock === 'skillgate.lock' ? ['--lock'] : ['--lock', path.resolve(dir, lock)];
  for (const args of [['check', ...lockArgs], ['validate']]) {
    const r = spawnSync(skillgate, [...args, '--format', 'sarif', '--no-user', '--workspace', dir], {
      cwd: repoRoot,
      encoding: 'utf8',
      // spawnSync's default (1 MiB) kills the CLI mid-report (ENOBUFS) at about a thousand findings.
      maxBuffer: MAX_REPORT_BYTES,
      env: { ...env, SKILLGATE_STATE_DIR: path.join(temp, 'skillgate-state') },
    });
    if (r.status !== 0 && r.status !== 1)
      fail(`skillgate ${args[0]} failed in ${ws}: ${(r.stderr || r.error?.message || '').trim()}`);
    const sarif = JSON.parse(r.stdout);
    for (const run of sarif.runs) {
      runs.push({ run, dir });
      for (const result of run.results) {
        // The result that stands for those the CLI left out counts them.
        const omitted = result.ruleId === TRUNCATED_RULE ? omittedBy(result) : null;
        if (args[0] === 'check') {
          const left = omitted ? omittedLockResults(result) : null;
          if (left) {
            unpinned += left.unpinned;
            unread += left.unread;
          } else if (result.ruleId === UNREAD_RULE) unread += 1;
          else unpinned += 1;
        } else if (omitted) {
          errors += omitted.error;
          warnings += omitted.warning;
        } else if (result.level === 'error') errors += 1;
        else if (result.level === 'warning') warnings += 1;
      }
    }
  }
}

// 3. One run, paths relative to the repository root.
const encodeSegments = (rel) =>
  rel
    .split(path.sep)
    .filter(Boolean)
    .map((s) => encodeURIComponent(s))
    .join('/');
const rules = [];
const results = [];
// What each folder's CLI left out (its `skillgate.sarif.truncated` results): one count in the merged run.
const notices = [];
for (const { run, dir } of runs) {
  const prefixUri = encodeSegments(path.relative(repoRoot, dir));
  for (const result of run.results) {
    const locations = result.locations.map((l) => {
      const a = l.physicalLocation.artifactLocation;
      if (a.uriBaseId !== '%SRCROOT%') return l;
      return {
        ...l,
        physicalLocation: {
          ...l.physicalLocation,
          artifactLocation: { uri: prefixUri ? `${prefixUri}/${a.uri}` : a.uri, uriBaseId: '%SRCROOT%' },
        },
      };
    });
    // Each folder ran on its own, so its fingerprints name files relative to it: the same
    // name in two folders would be one alert. A folder other than the root hashes its own in.
    const partialFingerprints =
      prefixUri && result.partialFingerprints
        ? Object.fromEntries(
            Object.entries(result.partialFingerprints).map(([k, v]) => [
              k,
              createHash('sha256').update(`${prefixUri}\u0000${v}`).digest('hex'),
            ]),
          )
        : result.partialFingerprints;
    if (result.ruleId === TRUNCATED_RULE) {
      notices.push({ ...result, locations });
      continue;
    }
    const rule = run.tool.driver.rules[result.ruleIndex];
    let index = rules.findIndex((r) => r.id === result.ruleId);
    if (index === -1) index = rules.push(rule) - 1;
    results.push({ ...result, ruleIndex: index, locations, ...(partialFingerprints ? { partialFingerprints } : {}) });
  }
}
const driver = { ...(runs[0]?.run.tool.driver ?? { name: 'Skillgate', version }), rules };
const unlimited = {
  $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
  version: '2.1.0',
  runs: [
    {
      tool: { driver },
      // The CLI's runs count columns in UTF-16 code units; the merged run keeps saying so.
      columnKind: 'utf16CodeUnits',
      // pathToFileURL percent-encodes what `new URL('file://' + path)` would read as URI syntax:
      // a checkout path holding `#`, `?` or `%20` named a fragment, a query or a space instead.
      originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(repoRoot).href.replace(/\/?$/, '/') } },
      results,
    },
  ],
};
const merged = withinCodeScanningLimits(unlimited, notices);
writeReport(sarifFile, JSON.stringify(merged, null, 2) + '\n');

/**
 * The merged run as code scanning takes it: each folder's CLI kept its own run within the
 * limits (src/core/report/sarifLimits.ts, whose rule this repeats: this script runs without
 * the package's code), but two runs per folder merged can pass them again. Past 25,000
 * results or 9,000,000 bytes gzip-compressed (10 MB less room for the line hashes
 * upload-sarif adds), the errors, then the warnings, then the notes, each in their order,
 * up to the limit but one, and one result of `skillgate.sarif.truncated` that counts what
 * this run and each CLI left out, at the place of the first. Unchanged when nothing was left out.
 */
function withinCodeScanningLimits(log, cliNotices) {
  const [run] = log.runs;
  // The gzip-compressed size, or zlib's deflateBound above it (n/1000 + 64 covers it) when that fits.
  const sizeAtMost = (candidate) => {
    const text = JSON.stringify(candidate);
    const bytes = Buffer.byteLength(text);
    const bound = bytes + Math.ceil(bytes / 1000) + 64;
    return bound <= GZIP_BUDGET ? bound : gzipSync(text).length;
  };
  if (cliNotices.length === 0 && run.results.length <= RESULTS_PER_RUN && sizeAtMost(log) <= GZIP_BUDGET) return log;
  const before = { error: 0, warning: 0, note: 0 };
  for (const n of cliNotices) for (const [k, v] of Object.entries(omittedBy(n))) before[k] += v;
  // A level the CLI does not write counts as a note: kept last, never dropped without a count.
  const levelOf = (r) => (r.level === 'error' || r.level === 'warning' ? r.level : 'note');
  const ordered = ['error', 'warning', 'note'].flatMap((level) => run.results.filter((r) => levelOf(r) === level));
  const rules = [...run.tool.driver.rules, TRUNCATED_SARIF_RULE];
  const withKept = (kept) => {
    const left = ordered.slice(kept);
    const omitted = { ...before };
    for (const r of left) omitted[levelOf(r)] += 1;
    const notice = truncationNotice(omitted, left[0]?.locations ?? cliNotices[0]?.locations ?? [], rules.length - 1);
    return {
      ...log,
      runs: [{ ...run, tool: { driver: { ...run.tool.driver, rules } }, results: [...ordered.slice(0, kept), notice] }],
    };
  };
  let kept = Math.min(ordered.length, RESULTS_PER_RUN - 1);
  for (;;) {
    const candidate = withKept(kept);
    const size = sizeAtMost(candidate);
    if (kept === 0 || size <= GZIP_BUDGET) return candidate;
    kept = Math.min(kept - 1, Math.floor(((kept * GZIP_BUDGET) / size) * 0.97));
  }
}

function truncationNotice(omitted, locations, ruleIndex) {
  const total = omitted.error + omitted.warning + omitted.note;
  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return {
    ruleId: TRUNCATED_RULE,
    ruleIndex,
    level: omitted.error > 0 ? 'error' : 'warning',
    message: {
      text:
        `${plural(total, 'result')} ${total === 1 ? 'is' : 'are'} left out of this SARIF run ` +
        `(${plural(omitted.error, 'error')}, ${plural(omitted.warning, 'warning')}, ${plural(omitted.note, 'note')}): ` +
        `GitHub code scanning rejects a run of more than 25,000 results or a file over 10 MB gzip-compressed, ` +
        'so the most severe are kept. `skillgate check --lock` and `skillgate validate` (text or `--json`) list them all.',
    },
    locations: locations.slice(0, 1),
    partialFingerprints: {
      'skillgate/v1': createHash('sha256').update(`${TRUNCATED_RULE}\u0000\u0000truncated`).digest('hex'),
    },
    properties: { omitted },
  };
}

/**
 * The checkout is the pull request's: it can commit a symbolic link at `skillgate.sarif`
 * (to `~/.bashrc`, to a runner file, dangling into a folder it wants a file in), and a
 * plain write follows it. So the folders on the way inside the checkout must be real
 * ones (each missing one made by us), and the report lands as lockCommands.ts writes the
 * lock: in a temporary file of a random name created exclusively (O_EXCL refuses any
 * existing name, a link included), renamed over `file`, which replaces a link there and
 * never follows it. A place outside the checkout (the runner's temp) is the workflow's
 * own choice and is made as given.
 */
function writeReport(file, text) {
  const shown = input('sarif-file', 'skillgate.sarif');
  const rel = path.relative(repoRoot, path.dirname(file));
  if (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel)) {
    let at = repoRoot;
    for (const part of rel.split(path.sep).filter(Boolean)) {
      at = path.join(at, part);
      const st = lstatSync(at, { throwIfNoEntry: false });
      const where = visible(path.relative(repoRoot, at));
      if (st?.isSymbolicLink())
        fail(
          `sarif-file ${visible(shown)}: ${where} is a symbolic link in the checkout; the SARIF file is never written through one`,
        );
      if (st && !st.isDirectory()) fail(`sarif-file ${visible(shown)}: ${where} is not a directory`);
      if (!st) mkdirSync(at);
    }
  } else mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.skillgate-${randomBytes(6).toString('hex')}.tmp`;
  let created = false;
  try {
    const fd = openSync(tmp, 'wx');
    created = true;
    try {
      writeFileSync(fd, text);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (e) {
    if (created) rmSync(tmp, { force: true });
    fail(`cannot write the SARIF file ${visible(shown)}: ${visible(e instanceof Error ? e.message : String(e))}`);
  }
}

// The path an annotation names: a name whose bytes are not UTF-8 (`%FF`) has no text the
// runner could match, so its annotation names no file (the SARIF keeps the bytes).
function filePath(uri) {
  try {
    return decodeURIComponent(uri);
  } catch {
    return undefined;
  }
}

for (const r of results) {
  const loc = r.locations[0]?.physicalLocation;
  const file = loc?.artifactLocation.uriBaseId === '%SRCROOT%' ? filePath(loc.artifactLocation.uri) : undefined;
  const level = r.level === 'error' ? 'error' : r.level === 'warning' ? 'warning' : 'notice';
  const props = [
    file ? `file=${escapeProperty(visible(file))}` : '',
    loc?.region ? `line=${loc.region.startLine}` : '',
    `title=${escapeProperty(r.ruleId)}`,
  ]
    .filter(Boolean)
    .join(',');
  say(`::${level} ${props}::${escapeData(visible(r.message.text))}`);
}

const failed = unpinned > 0 || unread > 0 || errors > 0 || (failOn === 'warning' && warnings > 0);
const outputs = {
  'sarif-file': sarifFile,
  result: failed ? 'fail' : 'pass',
  unpinned,
  unread,
  errors,
  warnings,
  'skillgate-version': version,
};
if (env.GITHUB_OUTPUT)
  appendFileSync(
    env.GITHUB_OUTPUT,
    Object.entries(outputs)
      .map(([k, v]) => `${k}=${v}\n`)
      .join(''),
  );
// Said only when there are some: the places are Eva's, and most repositories have none.
const unreadSaid = unread > 0 ? `, ${unread} place(s) left unread by Skillgate's own limits` : '';
say(
  `Skillgate: ${unpinned} bundle(s) not pinned by the lock${unreadSaid}, ${errors} error(s), ${warnings} warning(s); SARIF in ${path.relative(repoRoot, sarifFile) || sarifFile}`,
);
if (failed && failOn !== 'none') {
  if (unpinned > 0)
    say(
      'A pull request that changes an agent bundle must also change skillgate.lock: review the bundle (`skillgate review <name>`), run `skillgate lock` and commit the lock.',
    );
  // checkGate.ts `unreadPlacesProblem` and the fix of `skillgate.lock.unread` (diagnosticHelp.ts), in their words.
  if (unread > 0)
    say(
      `${unread} place(s) the agents read were left unread by Skillgate's own limits, which the agents do not have, so nothing there can be vouched for and no lock pins it: ` +
        "bring the files within Skillgate's Eva limits (at most `max_files_per_dir` manifests in each directory, each manifest within `max_manifest_bytes`, no lower `discovery.limits` in the project's `config/eva.yaml`) or remove those you do not need, then review what it reads and run `skillgate lock`; `skillgate validate` names each place.",
    );
  process.exit(1);
}
