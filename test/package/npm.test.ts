import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import { ROOT, TARBALL, VERSION, DEMO, needTarball, sh, tempDir, cleanEnv, writeAgentRepo } from './helpers';

/**
 * The npm package (`npm pack`, written by `npm run package`): a tarball that
 * `npm install -g` and `npx` turn into a working `skillgate`, from any directory, with
 * no dependencies to fetch and no build at install time.
 */
describe('the npm package', function () {
  this.timeout(120_000);
  before(needTarball);

  it('holds exactly the files allow-list: the bundled CLI and extension, media, docs, no sources or source maps', () => {
    const listed = sh('tar', ['-tzf', TARBALL]);
    assert.equal(listed.code, 0, listed.err);
    const names = listed.out
      .split('\n')
      .filter(Boolean)
      .map((n) => n.replace(/^package\//, ''));
    for (const required of [
      'package.json',
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
      'dist/core.js',
      'dist/cli.js',
      'dist/extension.js',
      'dist/indexWorker.js',
      'dist/treeReader.js',
      'media/icon.png',
    ])
      assert.ok(names.includes(required), `${required} missing from ${names.join(', ')}`);
    const allowed = [
      /^package\.json$/,
      /^README\.md$/,
      /^LICENSE$/,
      /^CHANGELOG\.md$/,
      /^dist\/(core|cli|extension|indexWorker|treeReader)\.js$/,
      /^media\/[\w.-]+\.(svg|png|css|js)$/,
      /^media\/codicons\/codicon\.(css|ttf)$/,
      /^media\/walkthrough\/[\w.-]+\.md$/,
      /^media\/schemas\/[\w.-]+\.json$/,
      /^docs\/[\w.-]+\.md$/,
    ];
    assert.deepEqual(
      names.filter((n) => !allowed.some((re) => re.test(n))),
      [],
    );
    assert.ok(!names.some((n) => n.endsWith('.map') || n.startsWith('src/') || n.startsWith('test/')));
  });

  it('is publishable and needs nothing at run time: not private, no dependencies, a bin, a prepack build', () => {
    const manifest = JSON.parse(sh('tar', ['-xzOf', TARBALL, 'package/package.json']).out) as Record<string, unknown>;
    assert.equal(manifest.private, undefined);
    assert.equal(manifest.dependencies, undefined, 'the CLI is bundled: installing it fetches nothing');
    assert.deepEqual(manifest.bin, { skillgate: './dist/cli.js' });
    assert.match(String((manifest.scripts as Record<string, string>).prepack), /esbuild\.mjs --production/);
    assert.ok(Array.isArray(manifest.files));
  });

  it('ships a CLI bundle that requires only Node built-ins and the shared core beside it', () => {
    const bundle = sh('tar', ['-xzOf', TARBALL, 'package/dist/cli.js']).out;
    assert.ok(bundle.startsWith('#!/usr/bin/env node\n'));
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    const requiredBy = (text: string) => [
      ...new Set([...text.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1] as string)),
    ];
    for (const [file, text, own] of [
      ['dist/cli.js', bundle, ['./core.js']],
      ['dist/core.js', sh('tar', ['-xzOf', TARBALL, 'package/dist/core.js']).out, []],
      ['dist/treeReader.js', sh('tar', ['-xzOf', TARBALL, 'package/dist/treeReader.js']).out, []],
    ] as const) {
      assert.doesNotMatch(text, /sourceMappingURL/, `${file}: the production build, without source maps`);
      // (js-yaml's optional esprima is reached through an alias inside a try, and is absent: `---js` front matter is never evaluated.)
      assert.deepEqual(
        requiredBy(text).filter((m) => !builtins.has(m)),
        own,
        file,
      );
    }
  });

  describe('npm install -g into a temporary prefix', () => {
    let t: ReturnType<typeof tempDir>;
    let skillgate: string;
    const run = (args: string[], cwd: string) =>
      sh(skillgate, args, { cwd, env: cleanEnv({ SKILLGATE_STATE_DIR: path.join(t.dir, 'state') }) });
    before(() => {
      t = tempDir('global');
      // --offline: a package without dependencies installs from its tarball alone.
      const r = sh(
        'npm',
        [
          'install',
          '--global',
          '--prefix',
          path.join(t.dir, 'prefix'),
          '--offline',
          '--no-audit',
          '--no-fund',
          TARBALL,
        ],
        { cwd: t.dir, env: cleanEnv({ npm_config_cache: path.join(t.dir, 'cache') }) },
      );
      assert.equal(r.code, 0, r.err);
      skillgate = path.join(t.dir, 'prefix', 'bin', 'skillgate');
    });
    after(() => t.remove());

    it("puts skillgate on the prefix's PATH, and --version prints the package version from any directory", () => {
      assert.ok(fs.existsSync(skillgate));
      assert.ok(
        !fs.existsSync(path.join(t.dir, 'prefix', 'lib', 'node_modules', 'skillgate', 'node_modules')),
        'no dependencies installed',
      );
      const r = sh('skillgate', ['--version'], {
        cwd: t.dir,
        env: cleanEnv({ PATH: `${path.join(t.dir, 'prefix', 'bin')}${path.delimiter}${cleanEnv().PATH ?? ''}` }),
      });
      assert.deepEqual([r.code, r.out], [0, `${VERSION}\n`]);
    });

    // Only a face that reaches no core module before it installs the code cache gets one
    // (docs/code-cache.md): a new import in option parsing once silently turned it off.
    it('compiles the core once and keeps its code in the cache directory for the next run', () => {
      const cache = path.join(t.dir, 'code-cache');
      const list = run(['list', '--no-user', '--workspace', DEMO, '--cache-dir', cache], t.dir);
      assert.equal(list.code, 0, list.err);
      const code = fs.existsSync(path.join(cache, 'code')) ? fs.readdirSync(path.join(cache, 'code')) : [];
      assert.equal(code.filter((n) => n.endsWith('.code')).length, 1, `code files: ${code.join(', ')}`);
    });

    it('runs list, validate --format sarif and check on the demo workspace', () => {
      const list = run(['list', '--no-user', '--workspace', DEMO], t.dir);
      assert.equal(list.code, 0, list.err);
      assert.match(list.out, /repo-tools/);
      const sarif = run(['validate', '--format', 'sarif', '--no-user', '--workspace', DEMO], t.dir);
      assert.equal(sarif.code, 1, 'the demo holds an invalid bundle');
      const doc = JSON.parse(sarif.out);
      assert.equal(doc.version, '2.1.0');
      assert.equal(doc.runs[0].tool.driver.version, VERSION);
      assert.ok(doc.runs[0].results.some((r: { ruleId: string }) => r.ruleId === 'codewhale.mcp.url-query'));
      const check = run(['check', '--no-user', '--workspace', DEMO], t.dir);
      assert.equal(check.code, 1, "the demo's Rivumi plugin is loaded and not reviewed");
      assert.match(check.err, /not trusted at their current hashes/);
    });

    it('runs list, validate --format sarif and check in a temporary repository: check fails until trusted; lock, then check --lock passes until a bundle changes', () => {
      const repo = path.join(t.dir, 'repo');
      writeAgentRepo(repo);
      assert.equal(sh('git', ['init', '-q'], { cwd: repo }).code, 0);
      const list = run(['list', '--no-user'], repo);
      assert.equal(list.code, 0, list.err);
      for (const name of ['pack', 'notes']) assert.match(list.out, new RegExp(`\\b${name}\\b`));
      const sarif = run(['validate', '--format', 'sarif', '--no-user'], repo);
      assert.equal(sarif.code, 0, sarif.err);
      assert.deepEqual(JSON.parse(sarif.out).runs[0].results, []);
      assert.equal(run(['check', '--no-user'], repo).code, 1);
      const review = JSON.parse(run(['review', 'pack', '--json', '--no-user'], repo).out) as {
        item: { reviewToken: string };
      };
      assert.equal(run(['trust', 'pack', review.item.reviewToken, '--no-user'], repo).code, 0);
      assert.equal(run(['check', '--no-user'], repo).code, 0);
      assert.equal(run(['lock', '--no-user'], repo).code, 0);
      assert.equal(run(['check', '--lock', '--no-user'], repo).code, 0);
      fs.appendFileSync(path.join(repo, '.codewhale/plugins/notes/skills/notes/SKILL.md'), 'More.\n');
      const changed = run(['check', '--lock', '--format', 'sarif', '--no-user'], repo);
      assert.equal(changed.code, 1);
      assert.deepEqual(
        JSON.parse(changed.out).runs[0].results.map((r: { ruleId: string }) => r.ruleId),
        ['skillgate.lock.changed'],
      );
    });
  });

  it('runs with npx from the tarball, in a directory without node_modules', () => {
    const t = tempDir('npx');
    try {
      fs.copyFileSync(TARBALL, path.join(t.dir, path.basename(TARBALL)));
      const env = cleanEnv({
        npm_config_cache: path.join(t.dir, 'cache'),
        SKILLGATE_STATE_DIR: path.join(t.dir, 'state'),
      });
      const version = sh(
        'npx',
        ['--yes', '--offline', '--package', `./${path.basename(TARBALL)}`, '--', 'skillgate', '--version'],
        { cwd: t.dir, env },
      );
      assert.deepEqual([version.code, version.out.trim()], [0, VERSION], version.err);
      writeAgentRepo(path.join(t.dir, 'repo'));
      const list = sh(
        'npx',
        [
          '--yes',
          '--offline',
          '--package',
          `../${path.basename(TARBALL)}`,
          '--',
          'skillgate',
          'list',
          '--json',
          '--no-user',
        ],
        { cwd: path.join(t.dir, 'repo'), env },
      );
      assert.equal(list.code, 0, list.err);
      assert.deepEqual(
        (JSON.parse(list.out) as { items: { name: string; parent: string | null }[] }).items
          .filter((i) => i.parent === null)
          .map((i) => i.name)
          .sort(),
        ['notes', 'pack'],
      );
    } finally {
      t.remove();
    }
  });

  it('is what `npm run package` packs: the package script writes the tarball from the production build', () => {
    const scripts = (
      JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    assert.match(
      scripts.package ?? '',
      /esbuild\.mjs --production && node scripts\/extension-readme\.mjs && vsce package --readme-path out\/package\/README\.md .* && npm pack --ignore-scripts .*--pack-destination dist/,
    );
  });
});
