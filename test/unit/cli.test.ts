import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { runCli, type CliResult } from './helpers/runCli';
import { Fixture, writeW, writeD } from './helpers/fixture';

/** Where each test's trust stores live: beside its fixture, never inside a workspace it indexes (refused there, trust.md). */
let stateRoot: Fixture | undefined;

/** The trust store of the CLI run in `cwd`: one per working directory, as before. */
const stateOf = (cwd: string): string => (stateRoot as Fixture).path(cwd.replace(/[/\\:]/g, '_'));

// Hermetic: never the real per-user trust store.
const cli = (args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> =>
  runCli(args, { SKILLGATE_STATE_DIR: stateOf(cwd), ...env }, cwd);

const ITEM_KEYS = [
  'id',
  'system',
  'kind',
  'name',
  'qualifiedName',
  'scope',
  'workspace',
  'path',
  'parent',
  'decision',
  'reasons',
  'shadowedBy',
  'trust',
  'enabled',
  'compatibility',
  'contentHash',
  'capabilityHash',
  'reviewToken',
];

describe('the skillgate CLI (spec/cli.md)', () => {
  let f: Fixture;
  beforeEach(() => {
    f = new Fixture();
    stateRoot = new Fixture();
  });
  afterEach(() => {
    f.remove();
    stateRoot?.remove();
  });

  it('prints usage and exits 2 without a command, 0 with --help', async () => {
    assert.equal((await cli([], f.root)).code, 2);
    const help = await cli(['--help'], f.root);
    assert.equal(help.code, 0);
    assert.match(help.out, /skillgate <command>/);
  });

  it('exits 2 with one clear sentence for an unknown command or option, without a stack trace', async () => {
    const r = await cli(['frobnicate'], f.root);
    assert.equal(r.code, 2);
    assert.match(r.err, /unknown command `frobnicate`/);
    assert.doesNotMatch(r.err, /at .*\.ts:\d+/);
    assert.equal((await cli(['list', '--bogus'], f.root)).code, 2);
    // Node's own message spans lines; the CLI's sentence is on one, with no escaped newline in it.
    const dangling = await cli(['list', '--workspace', '--no-user'], f.root);
    assert.equal(dangling.code, 2);
    assert.match(dangling.err, /^skillgate: Option '--workspace' argument is ambiguous\. Did you forget .*\n/);
    assert.doesNotMatch(dangling.err, /\\u\{a\}/);
  });

  it('refuses, never ignores, a repeated option with a value and --json beside another --format', async () => {
    for (const [argv, said] of [
      [['list', '--state-dir', f.path('a'), '--state-dir', f.path('b')], /--state-dir is given more than once/],
      [['check', '--lock', 'a.lock', '--lock', 'b.lock'], /--lock is given more than once/],
      [['validate', '--format', 'json', '--format', 'sarif'], /--format is given more than once/],
      [['list', '--json', '--format', 'text'], /--json asks for JSON, but --format asks for text/],
      [['validate', '--json', '--format', 'sarif'], /--json asks for JSON, but --format asks for sarif/],
    ] as const) {
      const r = await cli([...argv, '--no-user'], f.root);
      assert.equal(r.code, 2, argv.join(' '));
      assert.match(r.err, said);
    }
    // Repeating a switch or a folder says nothing new and is taken as given.
    f.mkdir('ws');
    assert.equal((await cli(['list', '--no-user', '--no-user', '--json', '--format', 'json'], f.path('ws'))).code, 0);
    assert.equal((await cli(['list', '--no-user', '--workspace', '.', '--workspace', '.'], f.path('ws'))).code, 0);
  });

  it('refuses a home or a cache directory beside the switch that turns it off, and keeps --eva-home with --no-user', async () => {
    // Asked for two contradictory things: --no-user reads no user bundle, so a --codewhale-home
    // (which names only where they live: codewhaleIndex.ts reads it for <home>/plugins and
    // nothing else) would be dropped without a word; --no-cache likewise drops --cache-dir (the
    // parse cache and the code cache both live there). $CODEWHALE_HOME and $SKILLGATE_CACHE_DIR
    // are ambient, and stay ignored.
    f.mkdir('ws');
    f.mkdir('home');
    for (const [argv, said] of [
      [
        ['list', '--no-user', '--codewhale-home', f.path('home')],
        /^skillgate: --no-user indexes no user bundles, but --codewhale-home names their home: give one of them\n/,
      ],
      [
        ['check', '--codewhale-home', f.path('home'), '--no-user'],
        /--no-user indexes no user bundles, but --codewhale-home names their home/,
      ],
      [
        ['list', '--no-user', '--no-cache', '--cache-dir', f.path('cache')],
        /^skillgate: --no-cache reads and writes no cache, but --cache-dir names one: give one of them\n/,
      ],
    ] as const) {
      const r = await cli([...argv], f.path('ws'));
      assert.equal(r.code, 2, argv.join(' '));
      assert.match(r.err, said);
      assert.equal(r.out, '');
    }
    assert.equal(fs.existsSync(f.path('cache')), false, 'no cache written');
    const ambient = { CODEWHALE_HOME: f.path('home'), SKILLGATE_CACHE_DIR: f.path('cache') };
    assert.equal((await cli(['list', '--no-user', '--no-cache'], f.path('ws'), ambient)).code, 0);
    // `~/` in an Eva skill.path still names --eva-home under --no-user (eva.md §3.5): not a contradiction.
    assert.equal((await cli(['list', '--no-user', '--eva-home', f.path('home')], f.path('ws'))).code, 0);
  });

  it('lists items as the JSON contract says, field for field', async () => {
    writeW(f);
    const r = await cli(['list', '--json', '--no-user'], f.path('ws'));
    assert.equal(r.code, 0);
    const doc = JSON.parse(r.out);
    assert.equal(doc.schemaVersion, 1);
    assert.deepEqual(Object.keys(doc), ['schemaVersion', 'items', 'diagnostics']);
    for (const item of doc.items) assert.deepEqual(Object.keys(item), ITEM_KEYS);
    const bundle = doc.items[0];
    assert.equal(bundle.path, '.codewhale/plugins/example-plugin');
    assert.equal(bundle.workspace, f.path('ws'));
    assert.equal(bundle.enabled, false);
    assert.deepEqual(bundle.reasons, ['not_reviewed', 'not_enabled']);
    assert.equal(bundle.reviewToken, `${bundle.contentHash}.${bundle.capabilityHash}`);
    const skill = doc.items[1];
    assert.deepEqual(
      [skill.kind, skill.qualifiedName, skill.parent, skill.trust, skill.enabled],
      ['skill', 'example-plugin:example', bundle.id, null, null],
    );
  });

  it('gives user items absolute paths and a null workspace', async () => {
    writeD(f);
    f.mkdir('ws');
    const doc = JSON.parse((await cli(['list', '--json', '--codewhale-home', f.path('home')], f.path('ws'))).out);
    assert.equal(doc.items[0].path, f.path('home/plugins/demo'));
    assert.equal(doc.items[0].workspace, null);
    assert.equal(doc.items[0].scope, 'user');
  });

  it('reads CODEWHALE_HOME from the environment and skips user bundles with --no-user', async () => {
    writeD(f);
    f.mkdir('ws');
    assert.equal(
      JSON.parse((await cli(['list', '--json'], f.path('ws'), { CODEWHALE_HOME: f.path('home') })).out).items.length,
      1,
    );
    assert.equal(
      JSON.parse((await cli(['list', '--json', '--no-user'], f.path('ws'), { CODEWHALE_HOME: f.path('home') })).out)
        .items.length,
      0,
    );
  });

  it('validates: exit 1 on an error, with workspace-relative files and 0-based ranges', async () => {
    writeW(f, 'unknown = true\n');
    const r = await cli(['validate', '--json', '--no-user'], f.path('ws'));
    assert.equal(r.code, 1);
    const d = JSON.parse(r.out).diagnostics[0];
    assert.deepEqual(Object.keys(d), ['workspace', 'file', 'range', 'severity', 'code', 'message', 'itemId']);
    assert.equal(d.workspace, f.path('ws'));
    assert.equal(d.file, '.codewhale/plugins/example-plugin/plugin.toml');
    assert.deepEqual(d.range.start, { line: 6, character: 0 });
    const text = await cli(['validate', '--no-user'], f.path('ws'));
    assert.match(
      text.out,
      /^\.codewhale\/plugins\/example-plugin\/plugin\.toml:7:1: error codewhale\.manifest\.parse: /m,
    );
  });

  it('validates: exit 0 with warnings only', async () => {
    f.write('ws/.codewhale/plugins/legacy/plugin.toml', '[plugin]\nname = "legacy"\n');
    assert.equal((await cli(['validate', '--no-user'], f.path('ws'))).code, 0);
  });

  it('writes SARIF 2.1.0 with rules, levels and 1-based regions', async () => {
    writeW(f, 'unknown = true\n');
    const r = await cli(['validate', '--format', 'sarif', '--no-user'], f.path('ws'));
    assert.equal(r.code, 1);
    const sarif = JSON.parse(r.out);
    assert.equal(sarif.version, '2.1.0');
    const run0 = sarif.runs[0];
    assert.equal(run0.tool.driver.name, 'Skillgate');
    assert.deepEqual(
      run0.tool.driver.rules.map((x: { id: string }) => x.id),
      ['codewhale.manifest.parse'],
    );
    const res = run0.results[0];
    assert.equal(res.level, 'error');
    assert.equal(res.ruleIndex, 0);
    assert.deepEqual(res.locations[0].physicalLocation.artifactLocation, {
      uri: '.codewhale/plugins/example-plugin/plugin.toml',
      uriBaseId: '%SRCROOT%',
    });
    assert.equal(res.locations[0].physicalLocation.region.startLine, 7);
    assert.equal(res.locations[0].physicalLocation.region.startColumn, 1);
  });

  it('ties every diagnostic to its workspace folder (or null for user-level files) with two --workspace, in JSON and in SARIF', async () => {
    writeW(f, 'unknown = true\n', 'a/.codewhale/plugins/example-plugin');
    // A discovery root that is a file: a diagnostic without an item.
    f.write('b/.codewhale/plugins', 'not a directory');
    f.write('home/plugins/mine/plugin.toml', 'schema_version = 1\n[plugin]\nname = "Mine"\nversion = "1.0.0"\n');
    const args = ['--workspace', f.path('a'), '--workspace', f.path('b'), '--codewhale-home', f.path('home')];
    const json = JSON.parse((await cli(['validate', '--json', ...args], f.root)).out) as {
      diagnostics: { workspace: string | null; file: string; itemId: string | null; code: string }[];
    };
    const byCode = (code: string) => json.diagnostics.find((d) => d.code === code);
    assert.deepEqual(
      json.diagnostics.map((d) => [d.code, d.workspace, d.file]).sort(),
      [
        ['codewhale.manifest.name', null, f.path('home/plugins/mine/plugin.toml')],
        ['codewhale.manifest.parse', f.path('a'), '.codewhale/plugins/example-plugin/plugin.toml'],
        ['codewhale.root-not-directory', f.path('b'), '.codewhale/plugins'],
      ].sort(),
    );
    assert.equal(byCode('codewhale.root-not-directory')?.itemId, null);
    const sarif = JSON.parse((await cli(['validate', '--format', 'sarif', ...args], f.root)).out);
    const run0 = sarif.runs[0];
    assert.deepEqual(Object.keys(run0.originalUriBaseIds), ['%SRCROOT%', '%SRCROOT2%']);
    assert.equal(run0.originalUriBaseIds['%SRCROOT%'].uri, `file://${f.path('a')}/`);
    assert.equal(run0.originalUriBaseIds['%SRCROOT2%'].uri, `file://${f.path('b')}/`);
    const located = (code: string) => run0.results.find((r: { ruleId: string }) => r.ruleId === code);
    assert.deepEqual(located('codewhale.root-not-directory').locations[0].physicalLocation.artifactLocation, {
      uri: '.codewhale/plugins',
      uriBaseId: '%SRCROOT2%',
    });
    assert.deepEqual(located('codewhale.root-not-directory').properties, { workspace: f.path('b') });
    assert.deepEqual(located('codewhale.manifest.parse').locations[0].physicalLocation.artifactLocation, {
      uri: '.codewhale/plugins/example-plugin/plugin.toml',
      uriBaseId: '%SRCROOT%',
    });
    assert.deepEqual(located('codewhale.manifest.name').locations[0].physicalLocation.artifactLocation, {
      uri: `file://${f.path('home/plugins/mine/plugin.toml')}`,
    });
    assert.equal(located('codewhale.manifest.name').properties.workspace, null);
  });

  it('shows one item with its children, files and detail', async () => {
    writeW(f);
    const doc = JSON.parse((await cli(['show', 'example-plugin', '--json', '--no-user'], f.path('ws'))).out);
    assert.deepEqual(
      doc.items.map((i: { qualifiedName: string }) => i.qualifiedName),
      ['example-plugin', 'example-plugin:example'],
    );
    assert.deepEqual(
      doc.detail.files.map((x: { path: string }) => x.path),
      ['plugin.toml', 'skills/example/SKILL.md'],
    );
    assert.deepEqual(Object.keys(doc.detail.files[0]), ['path', 'size', 'sha256', 'executable']);
    const text = await cli(['show', 'example-plugin:example', '--no-user'], f.path('ws'));
    assert.match(text.out, /decision: disabled \(bundle_inactive\)/);
  });

  it('explains decision first', async () => {
    writeW(f);
    const r = await cli(['explain', 'example-plugin', '--no-user'], f.path('ws'));
    assert.equal(r.code, 0);
    const lines = r.out.split('\n');
    assert.equal(lines[0], 'example-plugin: disabled: a gate is closed');
    assert.match(lines[1] ?? '', /^ {2}- not_reviewed: /);
    assert.ok(
      r.out.indexOf('Source') < r.out.indexOf('Gates') && r.out.indexOf('Gates') < r.out.indexOf('Diagnostics'),
    );
  });

  it('refuses an unknown selector and lists candidates for an ambiguous one (exit 2)', async () => {
    writeD(f, '', 'a/.codewhale/plugins/demo');
    writeD(f, '', 'b/.codewhale/plugins/demo');
    const unknown = await cli(['show', 'nope', '--no-user'], f.path('a'));
    assert.equal(unknown.code, 2);
    const amb = await cli(['show', 'demo', '--no-user', '--workspace', 'a', '--workspace', 'b'], f.root);
    assert.equal(amb.code, 2);
    assert.match(
      amb.err,
      /ambiguous; use one of these ids: workspace\/[0-9a-f]{12}\/demo, workspace\/[0-9a-f]{12}\/demo/,
    );
  });

  it('prints a trust command a shell reads back as exactly that command, whatever the file is named', async () => {
    // A repository names its Rivumi plugin files: pasted unquoted, this line ran `touch PWNED` and `$(id)`.
    f.write('ws/.rivumi/plugins/x;touch PWNED;$(id) `id`.json', '{"name":"okname","description":"d","skills":[]}');
    const r = await cli(['review', 'okname', '--no-user'], f.path('ws'));
    assert.equal(r.code, 0, r.err);
    const line = /^To trust exactly this: skillgate (trust .*)$/m.exec(r.out)?.[1] ?? assert.fail(r.out);
    const words = execFileSync('/bin/sh', ['-c', `printf '%s\\n' ${line}`], { cwd: f.path('ws'), encoding: 'utf8' });
    assert.ok(!fs.existsSync(f.path('ws/PWNED')), 'nothing the name holds was run');
    const [command, id, token] = words.trimEnd().split('\n');
    const listed = JSON.parse((await cli(['list', '--json', '--no-user'], f.path('ws'))).out) as {
      items: { id: string; reviewToken: string }[];
    };
    assert.deepEqual([command, id, token], ['trust', listed.items[0]?.id, listed.items[0]?.reviewToken]);
    assert.equal((await cli(['trust', id as string, token as string, '--no-user'], f.path('ws'))).code, 0);
  });

  it('says after trust whether enable can follow: a bundle of components Codewhale never activates cannot be enabled', async () => {
    f.write(
      'ws/.codewhale/plugins/lsp-only/plugin.toml',
      'schema_version = 1\n[plugin]\nname = "lsp-only"\nversion = "0.1.0"\n[lsp]\npath = "lsp"\n',
    );
    f.write('ws/.codewhale/plugins/lsp-only/lsp/server.js', '// a language server\n');
    const listed = JSON.parse((await cli(['list', '--json', '--no-user'], f.path('ws'))).out) as {
      items: { id: string; reviewToken: string; compatibility: string }[];
    };
    const unit = listed.items[0] ?? assert.fail('no item');
    assert.equal(unit.compatibility, 'unsupported');
    const r = await cli(['trust', unit.id, unit.reviewToken, '--no-user'], f.path('ws'));
    assert.equal(r.code, 0, r.err);
    assert.match(
      r.out,
      /^Trusted lsp-only at [0-9a-f]{12}…[0-9a-f]{12}; it stays disabled and cannot be enabled \(it has no supported declarative components to activate\)\.$/m,
    );
    assert.equal((await cli(['enable', unit.id, '--no-user'], f.path('ws'))).code, 1, 'enable refuses it, as said');
  });

  it('names, in a later doctor, the bad store file an earlier --repair moved aside', async () => {
    const state = stateOf(f.path('ws'));
    fs.mkdirSync(state, { recursive: true, mode: 0o700 });
    fs.writeFileSync(`${state}/state.json`, 'garbage', { mode: 0o600 });
    fs.mkdirSync(f.path('ws'), { recursive: true });
    const repaired = await cli(['doctor', '--repair', '--no-user'], f.path('ws'));
    assert.match(repaired.out, /moved the bad file aside to .*state\.json\.corrupt-/);
    assert.ok(!repaired.out.includes('earlier --repair'), repaired.out);
    const later = await cli(['doctor', '--no-user'], f.path('ws'));
    assert.equal(later.code, 0, later.err);
    assert.match(
      later.out,
      /1 bad file\(s\) moved aside by an earlier --repair \(never read; delete them once you no longer need them\):\n {4}.*state\.json\.corrupt-/,
    );
  });

  it('hashes one bundle directory byte-exact with the spec vector', async () => {
    const dir = writeW(f);
    const r = await cli(['hash', dir, '--json'], f.root);
    assert.equal(r.code, 0);
    assert.deepEqual(JSON.parse(r.out), {
      ok: true,
      message: 'codewhale bundle example-plugin',
      system: 'codewhale',
      name: 'example-plugin',
      contentHash: 'b1a2eed2e26e16c7028c8f9801e41b3a8bd6b5850a24aa43e633fd2cc2ef0cc6',
      capabilityHash: '2bab6e1754daaf6ae33b73d20434ee22dd8eba2557dfc55c0d32af4ae6a6c7e2',
      reviewToken:
        'b1a2eed2e26e16c7028c8f9801e41b3a8bd6b5850a24aa43e633fd2cc2ef0cc6.2bab6e1754daaf6ae33b73d20434ee22dd8eba2557dfc55c0d32af4ae6a6c7e2',
    });
    assert.equal((await cli(['hash', `${dir}/plugin.toml`], f.root)).code, 0);
  });

  it('hashes a Rivumi plugin manifest and refuses a path that is not a bundle (exit 1)', async () => {
    f.write('ws/.rivumi/plugins/pk.json', '{"name":"pk"}');
    const r = JSON.parse((await cli(['hash', f.path('ws/.rivumi/plugins/pk.json'), '--json'], f.root)).out);
    assert.equal(r.system, 'rivumi');
    assert.match(r.reviewToken, /^[0-9a-f]{64}\.[0-9a-f]{64}$/);
    const bad = await cli(['hash', f.path('ws'), '--json'], f.root);
    assert.equal(bad.code, 1);
    assert.equal(JSON.parse(bad.out).ok, false);
  });

  describe('checks what it was asked to check: arguments and workspaces', () => {
    it('refuses a positional folder after check, validate and list instead of checking the current directory (exit 2)', async () => {
      writeW(f, '', 'repo/.codewhale/plugins/example-plugin');
      f.write('repo/.rivumi/plugins/pk.json', '{"name":"pk"}');
      f.mkdir('cwd');
      for (const command of ['check', 'validate', 'list']) {
        const r = await cli([command, f.path('repo'), '--no-user'], f.path('cwd'));
        assert.equal(r.code, 2, `${command} with a positional`);
        assert.match(
          r.err,
          new RegExp(
            `\`${command}\` takes no arguments, but got an extra argument: ".*repo"; to use another workspace folder, pass --workspace .*repo`,
          ),
        );
        assert.equal(r.out, '');
      }
      // The same folder through --workspace is checked, and fails: its Rivumi plugin is not trusted.
      assert.equal((await cli(['check', '--workspace', f.path('repo'), '--no-user'], f.path('cwd'))).code, 1);
    });

    it("checks every command's arity: too few and too many are usage errors", async () => {
      writeW(f);
      const cases: [string[], RegExp][] = [
        [['trust', 'example-plugin'], /`trust` needs the review token/],
        [
          ['trust', 'example-plugin', 'a.b', 'extra'],
          /`trust` takes a selector \(an item id or a name\) and the review token .*, but got an extra argument: "extra"/,
        ],
        [['show'], /`show` needs a selector/],
        [
          ['show', 'example-plugin', 'example-plugin:example'],
          /`show` takes a selector .*extra argument: "example-plugin:example"/,
        ],
        [['enable', 'a', 'b'], /`enable` takes a selector/],
        [['revoke', 'a', 'b'], /`revoke` takes a selector/],
        [['hash', 'a', 'b'], /`hash` takes a bundle directory or manifest file/],
        [['install'], /`install` needs a plugin manifest/],
        [['doctor', 'now'], /`doctor` takes no arguments, but got an extra argument: "now"$/m],
        [['help', 'trust'], /`help` takes no arguments/],
        [['check', '--repair'], /--repair applies only to `doctor`, not to `check`/],
        [['list', '--overwrite'], /--overwrite applies only to `install`/],
        [['check', '--format', 'sarif'], /--format sarif applies only to `validate`/],
      ];
      for (const [args, message] of cases) {
        const r = await cli([...args, '--no-user'], f.path('ws'));
        assert.equal(r.code, 2, args.join(' '));
        assert.match(r.err, message);
      }
    });

    it('refuses a --workspace that does not exist or is not a directory (exit 2), for every command', async () => {
      writeW(f);
      f.write('file.txt', 'x');
      for (const command of [
        ['check'],
        ['validate'],
        ['list'],
        ['show', 'example-plugin'],
        ['install', f.path('file.txt')],
      ]) {
        const missing = await cli([...command, '--workspace', 'no/such/repo', '--no-user'], f.root);
        assert.equal(missing.code, 2);
        assert.match(missing.err, /--workspace no\/such\/repo does not exist/);
        const file = await cli([...command, '--workspace', 'file.txt', '--no-user'], f.root);
        assert.equal(file.code, 2);
        assert.match(file.err, /--workspace file\.txt is not a directory/);
      }
      const home = await cli(['check', '--codewhale-home', 'no/home'], f.path('ws'));
      assert.equal(home.code, 2);
      assert.match(home.err, /--codewhale-home no\/home does not exist/);
      // A missing one among good ones is still refused.
      const mixed = await cli(['check', '--workspace', 'ws', '--workspace', 'wz', '--no-user'], f.root);
      assert.deepEqual([mixed.code, mixed.out], [2, '']);
      const two = await cli(
        ['install', f.path('file.txt'), '--workspace', 'ws', '--workspace', 'ws', '--no-user'],
        f.root,
      );
      assert.equal(two.code, 2);
      assert.match(two.err, /`install` installs into one workspace folder; got 2/);
    });
  });
});
