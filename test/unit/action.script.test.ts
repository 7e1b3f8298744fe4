import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Fixture } from './helpers/fixture';
import { sarifSchemaErrors } from './helpers/sarifSchema';
import { codeScanningViolations } from './helpers/codeScanningRules';
import { sarifRule } from '../../src/core/report/sarif';
import { writeEvaProject } from './helpers/evaFixture';

/**
 * The GitHub Action's script (scripts/action.mjs) on a hostile checkout, without the
 * package: `npm` is a stand-in on PATH whose `install` puts a `skillgate` that runs this
 * tree's CLI from source (the packaging test, test/package/action.test.ts, runs the real
 * tarball).
 */

const ROOT = path.resolve(__dirname, '../..');

interface Result {
  ruleId: string;
  partialFingerprints: Record<string, string>;
  locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } }[];
}

describe('the Action script on a hostile checkout (scripts/action.mjs)', function () {
  this.timeout(120_000);
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  /** `cli`: a Node script that stands in for the CLI (else this tree's CLI from source). */
  function runAction(
    inputs: Record<string, string>,
    repo = 'repo',
    cli?: string,
  ): {
    code: number | null;
    out: string;
    err: string;
    outputs: Record<string, string>;
    results: Result[];
    log: unknown;
  } {
    const bin = f.mkdir('fake-bin');
    const [runner, script] = cli
      ? [process.execPath, cli]
      : [path.join(ROOT, 'node_modules', '.bin', 'tsx'), path.join(ROOT, 'src', 'cli', 'cli.ts')];
    // `npm pack` leaves a tarball by name; `npm install -g --prefix <p>` puts <p>/bin/skillgate.
    fs.writeFileSync(
      path.join(bin, 'npm'),
      `#!/bin/sh
case "$1" in
  pack) while [ $# -gt 0 ]; do [ "$1" = --pack-destination ] && touch "$2/skillgate-0.0.0.tgz"; shift; done ;;
  install) while [ $# -gt 0 ]; do [ "$1" = --prefix ] && p="$2"; shift; done
    mkdir -p "$p/bin"; printf '#!/bin/sh\\nexec %s %s "$@"\\n' '${runner}' '${script}' > "$p/bin/skillgate"; chmod +x "$p/bin/skillgate" ;;
esac
`,
      { mode: 0o755 },
    );
    const output = f.write('github_output', '');
    const env: NodeJS.ProcessEnv = {
      PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
      HOME: f.path('home'),
      GITHUB_WORKSPACE: f.path(repo),
      GITHUB_ACTION_PATH: ROOT,
      RUNNER_TEMP: f.mkdir('runner'),
      GITHUB_OUTPUT: output,
    };
    for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'action.mjs')], {
      cwd: f.path(repo),
      env,
      encoding: 'utf8',
      // One annotation line per result: 25,000 of them pass spawnSync's 1 MiB default.
      maxBuffer: 64 * 1024 * 1024,
    });
    const outputs = Object.fromEntries(
      fs
        .readFileSync(output, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    const sarif = f.path(repo, 'skillgate.sarif');
    const log: unknown = fs.existsSync(sarif) ? JSON.parse(fs.readFileSync(sarif, 'utf8')) : null;
    const results = (log as { runs: { results: Result[] }[] } | null)?.runs[0]?.results ?? [];
    return { code: r.status, out: r.stdout, err: r.stderr, outputs, results, log };
  }

  it('annotates a file whose name is not UTF-8 (no crash), and fail-on none still passes', () => {
    f.write('repo/.rivumi/plugins/ok.json', JSON.stringify({ name: 'ok', description: 'A pack.' }));
    // A name whose bytes are not UTF-8: its SARIF URI is `raw%FF.json`, which decodeURIComponent refuses.
    fs.writeFileSync(
      Buffer.concat([Buffer.from(f.path('repo/.rivumi/plugins/raw')), Buffer.from([0xff]), Buffer.from('.json')]),
      '{ "name": 1 }',
    );
    const r = runAction({ workspaces: '.', 'fail-on': 'none' });
    assert.doesNotMatch(r.err, /URIError|at file:/, r.err);
    assert.equal(r.code, 0, r.out + r.err);
    assert.equal(r.outputs.result, 'fail');
    assert.ok(
      r.results.some((x) => x.locations[0]?.physicalLocation.artifactLocation.uri === '.rivumi/plugins/raw%FF.json'),
    );
    assert.match(r.out, /^::error file=\.rivumi\/plugins\/ok\.json,line=1,title=skillgate\.lock\.new::/m);
  });

  it('escapes the control characters a repository puts in a name before they reach the job log', () => {
    f.write('repo/.rivumi/plugins/e\u001b[31mred\u009b.json', JSON.stringify({ name: 'x', description: 'A pack.' }));
    const r = runAction({ workspaces: '.', 'fail-on': 'none' });
    assert.equal(r.code, 0, r.out + r.err);
    const annotation = r.out.split('\n').find((l) => l.startsWith('::error ')) ?? '';
    assert.match(annotation, /::Rivumi bundle x \(\.rivumi\/plugins\/e\\u\{1b\}\[31mred\\u\{9b\}\.json\)/);
    assert.doesNotMatch(r.out, /[\u001b\u009b]/);
  });

  it("reads a CLI report larger than spawnSync's 1 MiB default buffer (a repository with many new bundles)", () => {
    // About 1.1 KB of SARIF per new bundle: 1,000 of them pass 1 MiB, where spawnSync killed the CLI (ENOBUFS).
    for (let i = 0; i < 1000; i++)
      f.write(
        `repo/.codewhale/plugins/p${i}/plugin.toml`,
        `schema_version = 1\n[plugin]\nname = "p${i}"\nversion = "1.0.0"\n`,
      );
    const r = runAction({ workspaces: '.', 'fail-on': 'none' });
    assert.doesNotMatch(r.out, /ENOBUFS/);
    assert.equal(r.code, 0, r.out.slice(0, 2000) + r.err);
    assert.equal(r.outputs.unpinned, '1000');
    assert.equal(r.outputs.unread, '0');
    assert.equal(r.results.filter((x) => x.ruleId === 'skillgate.lock.new').length, 1000);
  });

  it('keeps the merged run within the 25,000 results code scanning takes, counting what it and the CLI left out', () => {
    // A stand-in CLI: `check --lock` has 20,000 new bundles and left 7 more out of its run;
    // `validate` has 100 errors, 4,900 warnings and 5,000 notes. Merged: 30,000 results, past the limit.
    const cli = f.write(
      'fake-cli.cjs',
      `const args = process.argv.slice(2);
if (args[0] === '--version') { console.log('0.0.0'); process.exit(0); }
const loc = (i) => [{ physicalLocation: { artifactLocation: { uri: 'f' + i + '.json', uriBaseId: '%SRCROOT%' },
  region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 2 } } }];
const rule = (id) => ({ id, shortDescription: { text: id }, fullDescription: { text: id }, help: { text: id } });
const result = (ruleId, ruleIndex, level, i, extra = {}) => ({ ruleId, ruleIndex, level, message: { text: ruleId + ' ' + i },
  locations: loc(i), partialFingerprints: { 'skillgate/v1': ruleId + i }, ...extra });
const check = args[0] === 'check';
const results = check
  ? [...Array.from({ length: 20000 }, (_, i) => result('skillgate.lock.new', 0, 'error', i)),
     result('skillgate.sarif.truncated', 1, 'error', 'x', { properties: { omitted: { error: 7, warning: 0, note: 0 } } })]
  : Array.from({ length: 10000 }, (_, i) => i < 100 ? result('v.error', 0, 'error', i)
      : i < 5000 ? result('v.warning', 1, 'warning', i) : result('v.note', 2, 'note', i));
const rules = check ? [rule('skillgate.lock.new'), rule('skillgate.sarif.truncated')] : [rule('v.error'), rule('v.warning'), rule('v.note')];
process.stdout.write(JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'Skillgate', rules } },
  originalUriBaseIds: { '%SRCROOT%': { uri: 'file:///ws/' } }, results }] }));
process.exitCode = 1;
`,
    );
    f.mkdir('repo');
    const r = runAction({ workspaces: '.', 'fail-on': 'none' }, 'repo', cli);
    assert.equal(r.code, 0, r.out.slice(0, 2000) + r.err.slice(0, 2000));
    assert.deepEqual(codeScanningViolations(r.log), []);
    assert.equal(r.results.length, 25_000);
    const notice = r.results[24_999] as Result & {
      level: string;
      ruleIndex: number;
      message: { text: string };
      properties: { omitted: Record<string, number> };
    };
    assert.equal(notice.ruleId, 'skillgate.sarif.truncated');
    assert.equal(r.results.filter((x) => x.ruleId === 'skillgate.sarif.truncated').length, 1);
    assert.equal(notice.level, 'error');
    // Kept: the 20,100 errors and 4,899 warnings; left out: the last warning, the 5,000 notes and the CLI's 7.
    assert.deepEqual(notice.properties.omitted, { error: 7, warning: 1, note: 5_000 });
    assert.equal(r.results.filter((x) => x.ruleId === 'v.warning').length, 4_899);
    assert.equal(r.results.filter((x) => x.ruleId === 'v.note').length, 0);
    assert.match(
      notice.message.text,
      /^5008 results are left out of this SARIF run \(7 errors, 1 warning, 5000 notes\)/,
    );
    const rules = (r.log as { runs: { tool: { driver: { rules: object[] } } }[] }).runs[0]?.tool.driver.rules ?? [];
    // The rule the Action writes is the CLI's own.
    assert.deepEqual(rules[notice.ruleIndex], sarifRule('skillgate.sarif.truncated'));
    assert.equal(notice.locations[0]?.physicalLocation.artifactLocation.uri, 'f4999.json');
    // The outputs count every finding, those left out included.
    assert.equal(r.outputs.unpinned, '20007');
    assert.equal(r.outputs.errors, '100');
    assert.equal(r.outputs.warnings, '4900');
  });

  it("fails the job, with an annotation at each place, where Skillgate's own Eva cap left files unread", () => {
    // A project lowering max_files_per_dir to 0: no adapter is read, so no bundle is new to the
    // (missing, so empty) lock, and validate says only warnings (eva.scan.limit); Eva-CLI has no cap.
    writeEvaProject(f, 'repo');
    fs.appendFileSync(f.path('repo/config/eva.yaml'), 'discovery:\n  limits:\n    max_files_per_dir: 0\n');
    const r = runAction({ workspaces: '.' });
    assert.equal(r.outputs.result, 'fail', r.out + r.err);
    assert.equal(r.code, 1, r.out + r.err);
    assert.deepEqual(
      r.results
        .filter((x) => x.ruleId === 'skillgate.lock.unread')
        .map((x) => x.locations[0]?.physicalLocation.artifactLocation.uri)
        .sort(),
      ['config/adapters/review.yaml', 'config/capabilities/lint.yaml', 'config/policies/adapter.yaml'],
    );
    assert.match(r.out, /^::error file=config\/adapters\/review\.yaml,line=1,title=skillgate\.lock\.unread::/m);
    // An unread place is no bundle, and `skillgate lock` does not mend it: counted apart, said in its own words.
    assert.deepEqual([r.outputs.unpinned, r.outputs.unread], ['0', '3']);
    assert.match(
      r.out,
      /^Skillgate: 0 bundle\(s\) not pinned by the lock, 3 place\(s\) left unread by Skillgate's own limits, \d+ error\(s\)/m,
    );
    assert.doesNotMatch(r.out, /run `skillgate lock` and commit the lock/);
    assert.match(
      r.out,
      /^3 place\(s\) the agents read were left unread by Skillgate's own limits, which the agents do not have, so nothing there can be vouched for and no lock pins it: .*`max_files_per_dir`.*`config\/eva\.yaml`.*`skillgate validate` names each place\.$/m,
    );
  });

  it('counts unpinned bundles and unread places apart, those the CLI left out of its run included, and fails on either', () => {
    // A stand-in CLI: `check --lock` has 2 new bundles and 1 unread place, and left 5 errors out
    // of its run (3 bundles, 2 unread places); `validate` has nothing.
    const cli = f.write(
      'fake-cli.cjs',
      `const args = process.argv.slice(2);
if (args[0] === '--version') { console.log('0.0.0'); process.exit(0); }
const loc = (i) => [{ physicalLocation: { artifactLocation: { uri: 'f' + i + '.json', uriBaseId: '%SRCROOT%' },
  region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 2 } } }];
const rule = (id) => ({ id, shortDescription: { text: id }, fullDescription: { text: id }, help: { text: id } });
const result = (ruleId, ruleIndex, i, extra = {}) => ({ ruleId, ruleIndex, level: 'error', message: { text: ruleId + ' ' + i },
  locations: loc(i), partialFingerprints: { 'skillgate/v1': ruleId + i }, ...extra });
const check = args[0] === 'check';
const results = check
  ? [result('skillgate.lock.new', 0, 1), result('skillgate.lock.new', 0, 2), result('skillgate.lock.unread', 1, 3),
     result('skillgate.sarif.truncated', 2, 'x', { properties: { omitted: { error: 5, warning: 0, note: 0 },
       omittedByRule: { 'skillgate.lock.new': 3, 'skillgate.lock.unread': 2 } } })]
  : [];
const rules = check ? [rule('skillgate.lock.new'), rule('skillgate.lock.unread'), rule('skillgate.sarif.truncated')] : [];
process.stdout.write(JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'Skillgate', rules } },
  originalUriBaseIds: { '%SRCROOT%': { uri: 'file:///ws/' } }, results }] }));
process.exitCode = check ? 1 : 0;
`,
    );
    f.mkdir('repo');
    const r = runAction({ workspaces: '.' }, 'repo', cli);
    assert.equal(r.code, 1, r.out + r.err);
    assert.deepEqual(
      [r.outputs.result, r.outputs.unpinned, r.outputs.unread, r.outputs.errors, r.outputs.warnings],
      ['fail', '5', '3', '0', '0'],
    );
    assert.match(
      r.out,
      /^Skillgate: 5 bundle\(s\) not pinned by the lock, 3 place\(s\) left unread by Skillgate's own limits, 0 error\(s\), 0 warning\(s\)/m,
    );
    // Each its own hint: the lock for the bundles, the limits for the places.
    assert.match(r.out, /run `skillgate lock` and commit the lock/);
    assert.match(r.out, /^3 place\(s\) the agents read were left unread by Skillgate's own limits/m);
  });

  it('gives the same finding in two workspace folders two fingerprints in the merged run', () => {
    for (const ws of ['a', 'b'])
      f.write(`repo/${ws}/.rivumi/plugins/pack.json`, JSON.stringify({ name: 'pack', description: 'A pack.' }));
    const r = runAction({ workspaces: 'a\nb', 'fail-on': 'none' });
    assert.equal(r.code, 0, r.out + r.err);
    const newOnes = r.results.filter((x) => x.ruleId === 'skillgate.lock.new');
    assert.deepEqual(
      newOnes.map((x) => x.locations[0]?.physicalLocation.artifactLocation.uri),
      ['a/.rivumi/plugins/pack.json', 'b/.rivumi/plugins/pack.json'],
    );
    assert.equal(new Set(r.results.map((x) => JSON.stringify(x.partialFingerprints))).size, r.results.length);
  });

  it('writes one SARIF log that is valid SARIF 2.1.0 and that code scanning accepts, its base the checkout as a file URI', () => {
    // A checkout whose path holds what a URI reads as a fragment, a query, an escape and a space.
    const repo = 'repo #?%20 x';
    f.write(`${repo}/.rivumi/plugins/ok.json`, JSON.stringify({ name: 'ok', description: 'A pack.' }));
    f.write(`${repo}/.codewhale/plugins/bad/plugin.toml`, '[plugin\nname = "b"');
    const r = runAction({ workspaces: '.', 'fail-on': 'none' }, repo);
    assert.equal(r.code, 0, r.out + r.err);
    assert.ok(r.results.length >= 2, JSON.stringify(r.results));
    assert.deepEqual(sarifSchemaErrors(r.log), []);
    assert.deepEqual(codeScanningViolations(r.log), []);
    assert.equal((r.log as { runs: { columnKind?: string }[] }).runs[0]?.columnKind, 'utf16CodeUnits');
    const base = (r.log as { runs: { originalUriBaseIds: Record<string, { uri: string }> }[] }).runs[0]
      ?.originalUriBaseIds['%SRCROOT%']?.uri;
    assert.equal(base, `${pathToFileURL(f.path(repo)).href}/`);
    assert.equal(fileURLToPath(base ?? ''), `${f.path(repo)}/`);
  });

  describe('the SARIF file is written through no symbolic link the checkout holds', () => {
    const pack = () => f.write('repo/.rivumi/plugins/ok.json', JSON.stringify({ name: 'ok', description: 'A pack.' }));

    it('replaces a committed skillgate.sarif link with the report, and leaves the file it pointed to as it was', () => {
      pack();
      const victim = f.write('home/.bashrc', 'export KEEP=1\n');
      f.symlink('../home/.bashrc', 'repo/skillgate.sarif');
      // Dangling: a write through it would create the file outside the checkout.
      f.symlink('../home/.profile', 'repo/other.sarif');
      const r = runAction({ workspaces: '.', 'fail-on': 'none' });
      assert.equal(r.code, 0, r.out + r.err);
      assert.equal(fs.readFileSync(victim, 'utf8'), 'export KEEP=1\n');
      assert.ok(fs.lstatSync(f.path('repo/skillgate.sarif')).isFile(), 'skillgate.sarif is a regular file');
      assert.deepEqual(
        r.results.map((x) => x.ruleId),
        ['skillgate.lock.new'],
      );
      const again = runAction({ workspaces: '.', 'fail-on': 'none', 'sarif-file': 'other.sarif' });
      assert.equal(again.code, 0, again.out + again.err);
      assert.equal(fs.existsSync(f.path('home/.profile')), false, 'nothing is created where the link points');
      assert.ok(fs.lstatSync(f.path('repo/other.sarif')).isFile(), 'other.sarif is a regular file');
      assert.deepEqual(
        fs.readdirSync(f.path('repo')).filter((n) => n.includes('.skillgate-')),
        [],
        'no temporary file is left behind',
      );
    });

    it('refuses a sarif-file whose folder in the checkout is a link, in one sentence, and writes nothing there', () => {
      pack();
      f.mkdir('outside');
      f.symlink('../outside', 'repo/reports');
      const r = runAction({ workspaces: '.', 'fail-on': 'none', 'sarif-file': 'reports/skillgate.sarif' });
      assert.equal(r.code, 2, r.out + r.err);
      assert.match(
        r.out,
        /^::error title=Skillgate::sarif-file reports\/skillgate\.sarif: reports is a symbolic link in the checkout; the SARIF file is never written through one$/m,
      );
      assert.deepEqual(fs.readdirSync(f.path('outside')), []);
    });
  });
});
