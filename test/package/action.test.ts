import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT, VERSION, needTarball, sh, tempDir, cleanEnv, writeAgentRepo } from './helpers';

/**
 * The GitHub Action (action.yml, composite). GitHub cannot be reached here, so the test
 * drives its shell step, scripts/action.mjs, as the runner would: INPUT_* from the
 * step's `env`, GITHUB_WORKSPACE (the checkout), GITHUB_ACTION_PATH (this repository),
 * RUNNER_TEMP, GITHUB_OUTPUT and GITHUB_PATH files.
 */

interface Sarif {
  runs: {
    tool: { driver: { name: string; version: string; rules: { id: string }[] } };
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      partialFingerprints: Record<string, string>;
      locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } }[];
    }[];
  }[];
}

describe('the GitHub Action', function () {
  this.timeout(180_000);
  let ACTION: string;
  before(() => {
    needTarball();
    ACTION = fs.readFileSync(path.join(ROOT, 'action.yml'), 'utf8');
  });
  let t: ReturnType<typeof tempDir>;
  let repo: string;
  beforeEach(() => {
    t = tempDir('action');
    repo = path.join(t.dir, 'checkout');
    writeAgentRepo(repo);
  });
  afterEach(() => t.remove());

  function runAction(inputs: Record<string, string>) {
    const output = path.join(t.dir, 'github_output');
    const ghPath = path.join(t.dir, 'github_path');
    fs.writeFileSync(output, '');
    fs.writeFileSync(ghPath, '');
    const env = cleanEnv({
      GITHUB_WORKSPACE: repo,
      GITHUB_ACTION_PATH: ROOT,
      RUNNER_TEMP: path.join(t.dir, 'runner'),
      GITHUB_OUTPUT: output,
      GITHUB_PATH: ghPath,
      npm_config_cache: path.join(t.dir, 'npm-cache'),
    });
    for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
    // The step's command, from action.yml, with $GITHUB_ACTION_PATH as bash would expand it.
    const step = /run: (node "\$GITHUB_ACTION_PATH\/scripts\/action\.mjs")/.exec(ACTION);
    assert.ok(step, 'action.yml runs scripts/action.mjs');
    fs.mkdirSync(path.join(t.dir, 'runner'), { recursive: true });
    const r = sh('bash', ['-c', step[1] as string], { cwd: repo, env });
    const outputs = Object.fromEntries(
      fs
        .readFileSync(output, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    return { ...r, outputs, path: fs.readFileSync(ghPath, 'utf8') };
  }
  const sarifOf = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Sarif;
  const defaults = { workspaces: '.', lock: 'skillgate.lock', 'fail-on': 'error', 'sarif-file': 'skillgate.sarif' };

  it('declares each input the script reads and passes it on as INPUT_*, and uploads with the standard code-scanning action', () => {
    for (const name of ['workspaces', 'lock', 'fail-on', 'sarif-file', 'upload'])
      assert.match(ACTION, new RegExp(`^  ${name}:\\n    description: `, 'm'), name);
    for (const name of ['workspaces', 'lock', 'fail-on', 'sarif-file'])
      assert.match(ACTION, new RegExp(`INPUT_${name.toUpperCase()}: \\$\\{\\{ inputs\\.${name} \\}\\}`), name);
    assert.match(ACTION, /using: composite/);
    assert.match(ACTION, /uses: github\/codeql-action\/upload-sarif@v3/);
    assert.match(ACTION, /if: \$\{\{ always\(\) && inputs\.upload == 'true'/);
  });

  it("installs the CLI from this repository's package, fails on bundles the lock does not pin, and writes SARIF with paths from the repository root", () => {
    const r = runAction(defaults);
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(
      r.out,
      new RegExp(
        `Skillgate ${VERSION.replace(/\./g, '\\.')} installed from skillgate-${VERSION.replace(/\./g, '\\.')}\\.tgz`,
      ),
    );
    assert.equal(r.outputs['skillgate-version'], VERSION);
    assert.deepEqual([r.outputs.result, r.outputs.unpinned, r.outputs.errors], ['fail', '2', '0']);
    assert.equal(r.outputs['sarif-file'], path.join(repo, 'skillgate.sarif'));
    assert.equal(
      r.path.trim(),
      path.join(t.dir, 'runner', 'skillgate-cli', 'bin'),
      'later steps find skillgate on PATH',
    );
    const sarif = sarifOf(path.join(repo, 'skillgate.sarif'));
    assert.equal(sarif.runs.length, 1, 'one run, as code scanning wants per category');
    const results = sarif.runs[0]?.results ?? [];
    assert.deepEqual(
      results.map((x) => [x.ruleId, x.level, x.locations[0]?.physicalLocation.artifactLocation.uri]),
      [
        ['skillgate.lock.new', 'error', '.codewhale/plugins/notes/plugin.toml'],
        ['skillgate.lock.new', 'error', '.rivumi/plugins/pack.json'],
      ],
    );
    for (const x of results) assert.match(x.partialFingerprints['skillgate/v1'] ?? '', /^[0-9a-f]{64}$/);
    assert.match(
      r.out,
      /^::error file=\.rivumi\/plugins\/pack\.json,line=1,title=skillgate\.lock\.new::Rivumi bundle pack/m,
      'an annotation per finding',
    );
  });

  it('passes once the lock is committed, and fails again naming the bundle when one changes', () => {
    const first = runAction(defaults);
    const skillgate = path.join(first.path.trim(), 'skillgate');
    assert.equal(sh(skillgate, ['lock', '--no-user'], { cwd: repo, env: cleanEnv() }).code, 0);
    const pass = runAction(defaults);
    assert.equal(pass.code, 0, pass.out + pass.err);
    assert.deepEqual([pass.outputs.result, pass.outputs.unpinned], ['pass', '0']);
    assert.deepEqual(sarifOf(path.join(repo, 'skillgate.sarif')).runs[0]?.results, []);
    fs.appendFileSync(path.join(repo, '.rivumi/plugins/pack.md'), 'And one more thing.\n');
    const changed = runAction(defaults);
    assert.equal(changed.code, 1);
    assert.deepEqual(
      sarifOf(path.join(repo, 'skillgate.sarif')).runs[0]?.results.map((x) => x.ruleId),
      ['skillgate.lock.changed'],
    );
    assert.match(changed.out, /its content changed \(capabilities unchanged\)/);
  });

  it('checks each listed workspace folder against its own lock, with SARIF paths from the repository root', () => {
    const sub = path.join(repo, 'packages', 'agent tools');
    writeAgentRepo(sub);
    const r = runAction({ ...defaults, workspaces: '.\npackages/agent tools\n' });
    assert.equal(r.code, 1);
    assert.equal(r.outputs.unpinned, '4');
    const uris = sarifOf(path.join(repo, 'skillgate.sarif')).runs[0]?.results.map(
      (x) => x.locations[0]?.physicalLocation.artifactLocation.uri,
    );
    assert.deepEqual(uris, [
      '.codewhale/plugins/notes/plugin.toml',
      '.rivumi/plugins/pack.json',
      'packages/agent%20tools/.codewhale/plugins/notes/plugin.toml',
      'packages/agent%20tools/.rivumi/plugins/pack.json',
    ]);
  });

  it('reports without failing with fail-on: none, fails on warnings with fail-on: warning, and refuses an unknown fail-on (exit 2)', () => {
    const none = runAction({ ...defaults, 'fail-on': 'none' });
    assert.deepEqual([none.code, none.outputs.result], [0, 'fail']);
    // A legacy manifest is a warning only; pinned, so the lock has nothing to say.
    fs.mkdirSync(path.join(repo, '.codewhale/plugins/legacy'), { recursive: true });
    fs.writeFileSync(path.join(repo, '.codewhale/plugins/legacy/plugin.toml'), '[plugin]\nname = "legacy"\n');
    assert.equal(
      sh(path.join(none.path.trim(), 'skillgate'), ['lock', '--no-user'], { cwd: repo, env: cleanEnv() }).code,
      0,
    );
    const onError = runAction(defaults);
    assert.deepEqual([onError.code, onError.outputs.errors, onError.outputs.result], [0, '0', 'pass']);
    assert.ok(Number(onError.outputs.warnings) > 0, 'the legacy manifest warns');
    const onWarning = runAction({ ...defaults, 'fail-on': 'warning' });
    assert.deepEqual([onWarning.code, onWarning.outputs.result], [1, 'fail']);
    const bad = runAction({ ...defaults, 'fail-on': 'sometimes' });
    assert.equal(bad.code, 2);
    assert.match(bad.out, /::error title=Skillgate::fail-on must be error, warning or none/);
  });

  it('refuses a lock file named in its input that does not exist (exit 2), rather than checking against nothing', () => {
    const r = runAction({ ...defaults, lock: 'pins/team.lock' });
    assert.equal(r.code, 2);
    assert.match(r.out, /--lock .*pins\/team\.lock does not exist/);
  });
});
