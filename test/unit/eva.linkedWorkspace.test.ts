import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Indexer } from '../../src/core/index/indexer';
import type { Snapshot } from '../../src/core/index/snapshot';
import { bundleKey } from '../../src/core/hashing/identity';
import type { Item } from '../../src/core/model';
import { toSarif } from '../../src/core/report/sarif';
import { readBundleSource } from '../../src/core/trust/bundleSource';
import { readInvalidBundle } from '../../src/core/trust/invalidBundle';
import type { EvaItem } from '../../src/core/systems/eva/item';
import { childNodes } from '../../src/extension/tree/treeNodes';
import { Fixture, LINUX_HOST, writeW } from './helpers/fixture';
import { A0, writeEvaProject } from './helpers/evaFixture';
import { runCli } from './helpers/runCli';

/**
 * A workspace folder given through a symbolic link (`--workspace link`, `link -> repo`, or
 * VS Code opening a folder whose path passes through one: the extension passes `uri.fsPath`
 * as opened). Rivumi and Codewhale report their items under the folder as given; Eva-CLI's
 * must be too, or the tree (which groups items by the folders as given) shows none of the
 * adapters Eva registers, SARIF names Eva files by no valid URI, and `list` shows a folder
 * never given. Eva's own decisions keep the canonical root (project.ts), and a bundle's
 * identity stays its canonical path (trust.md "Bundle identity"), whichever spelling opened it.
 */
describe('Eva-CLI items of a workspace folder given through a symbolic link', () => {
  let f: Fixture;
  let repo: string;
  let link: string;
  beforeEach(() => {
    f = new Fixture();
    writeEvaProject(f, 'repo');
    // A skill whose manifest breaks a rule, so that the project has an error diagnostic too, with a fix.
    f.write(
      'repo/config/adapters/broken.yaml',
      A0.replace('review-skill', 'broken-skill').replace('enabled: true', 'enabled: yes'),
    );
    writeW(f, '', 'repo/.codewhale/plugins/example-plugin');
    f.mkdir('home');
    repo = f.path('repo');
    link = f.symlink(repo, 'link');
  });
  afterEach(() => f.remove());

  const snap = (workspaces: string[]): Snapshot =>
    new Indexer({ workspaces, codewhaleHome: null, evaHome: f.path('home'), host: LINUX_HOST }).indexAll();
  const evaItems = (s: Snapshot): EvaItem[] => s.items.filter((i): i is EvaItem => i.system === 'eva');
  const under = (folder: string, file: string) => file.startsWith(folder + path.sep);

  it('gives every Eva item the folder as given, its paths under it, and its diagnostics under it', () => {
    const s = snap([link]);
    const items = evaItems(s);
    assert.ok(items.length >= 3, items.map((i) => i.id).join(', '));
    for (const i of items) {
      assert.equal(i.workspace, link, i.id);
      for (const file of [i.path, i.location.file, i.detail.manifest])
        assert.ok(under(link, file ?? ''), `${i.id}: ${file ?? '(none)'}`);
      for (const [name, p] of Object.entries(i.detail.eva.effectivePermissions))
        if (p.decidedBy.file !== null) assert.ok(under(link, p.decidedBy.file), `${i.id} ${name}: ${p.decidedBy.file}`);
    }
    const evaDiagnostics = s.diagnostics.filter((d) => d.code.startsWith('eva.'));
    assert.ok(evaDiagnostics.some((d) => d.severity === 'error' && d.fix !== undefined));
    for (const d of evaDiagnostics) {
      assert.ok(under(link, d.file), `${d.code}: ${d.file}`);
      for (const r of d.related ?? []) assert.ok(under(link, r.file), `${d.code} related: ${r.file}`);
      for (const e of d.fix?.edits ?? []) assert.ok(under(link, e.file), `${d.code} fix: ${e.file}`);
    }
  });

  it('lists Eva items under the folder as given, by workspace-relative paths (list --json, text list)', async () => {
    const env = { SKILLGATE_STATE_DIR: f.path('state'), HOME: f.path('home') };
    const args = ['--workspace', link, '--no-user', '--no-cache'];
    const r = await runCli(['list', '--json', ...args], env, f.root);
    const items = (JSON.parse(r.out) as { items: { system: string; workspace: string; path: string }[] }).items;
    const eva = items.filter((i) => i.system === 'eva');
    assert.deepEqual(
      eva.map((i) => [i.workspace, i.path]),
      [
        [link, 'config/adapters/broken.yaml'],
        [link, 'config/adapters/review.yaml'],
        [link, 'config/capabilities/lint.yaml'],
      ],
    );
    const text = await runCli(['list', ...args], env, f.root);
    assert.deepEqual(
      text.out.split('\n').filter((l) => l.startsWith('Workspace ')),
      [`Workspace ${link}`],
      'one folder: the one given',
    );
  });

  it('spells a Codewhale skill under the folder as given, relative to it', () => {
    const s = snap([link]);
    const skill = s.items.find((i) => i.system === 'codewhale' && i.kind === 'skill') as Item;
    assert.equal(skill.workspace, link);
    assert.equal(skill.path, path.join(link, '.codewhale/plugins/example-plugin/skills/example/SKILL.md'));
    assert.equal(skill.location.file, skill.path);
  });

  it('spells where a Codewhale bundle walk stops under the folder as given', () => {
    writeW(f, '', 'repo/.codewhale/plugins/linked-file');
    f.symlink(path.join(repo, 'config/eva.yaml'), 'repo/.codewhale/plugins/linked-file/skills/example/notes.md');
    const stops = snap([link]).diagnostics.filter((d) => d.file.includes('linked-file'));
    assert.ok(stops.length > 0);
    for (const d of stops) assert.ok(under(link, d.file), `${d.code}: ${d.file}`);
  });

  it("writes Eva diagnostics in validate's SARIF as relative URIs under %SRCROOT%", () => {
    const log = toSarif(snap([link]), '0.0.0') as {
      runs: {
        results: {
          ruleId: string;
          locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } }[];
        }[];
      }[];
    };
    const results = (log.runs[0]?.results ?? []).filter((r) => r.ruleId.startsWith('eva.'));
    assert.ok(results.length > 0);
    for (const r of results) {
      const at = r.locations[0]?.physicalLocation.artifactLocation;
      assert.equal(at?.uriBaseId, '%SRCROOT%', `${r.ruleId}: ${JSON.stringify(at)}`);
      assert.match(at?.uri ?? '', /^config\//, r.ruleId);
    }
  });

  it('names Eva bundles in check --lock SARIF by relative URIs under %SRCROOT%', async () => {
    const env = { SKILLGATE_STATE_DIR: f.path('state'), HOME: f.path('home') };
    const r = await runCli(
      ['check', '--lock', '--format', 'sarif', '--workspace', link, '--no-user', '--no-cache'],
      env,
      f.root,
    );
    assert.equal(r.code, 1, r.err);
    const log = JSON.parse(r.out) as {
      runs: {
        results: {
          properties: { system: string; path: string };
          locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } }[];
        }[];
      }[];
    };
    const eva = (log.runs[0]?.results ?? []).filter((x) => x.properties.system === 'eva');
    assert.ok(eva.length >= 2);
    for (const x of eva)
      assert.deepEqual(x.locations[0]?.physicalLocation.artifactLocation, {
        uri: x.properties.path,
        uriBaseId: '%SRCROOT%',
      });
  });

  it('indexes an Eva project given twice (through the link and directly) once, under the first spelling', () => {
    const once = evaItems(snap([repo])).map((i) => i.id);
    for (const [first, second] of [
      [link, repo],
      [repo, link],
    ] as const) {
      const s = snap([first, second]);
      assert.deepEqual(s.workspaces, [first]);
      const items = evaItems(s);
      assert.deepEqual(
        items.map((i) => i.id),
        once,
        `${path.basename(first)} first: once`,
      );
      for (const i of items) {
        assert.equal(i.workspace, first, `${path.basename(first)} first: ${i.id}`);
        assert.ok(under(first, i.path), i.path);
      }
      assert.deepEqual(
        childNodes(s).map((n) => n.id),
        [`folder:${first}`],
      );
    }
  });

  it('hashes an Eva manifest named through the link (skillgate hash link/config/adapters/review.yaml)', async () => {
    const env = { SKILLGATE_STATE_DIR: f.path('state'), HOME: f.path('home') };
    const direct = await runCli(['hash', 'repo/config/adapters/review.yaml'], env, f.root);
    assert.equal(direct.code, 0, direct.err);
    const linked = await runCli(['hash', 'link/config/adapters/review.yaml'], env, f.root);
    assert.equal(linked.code, 0, linked.err);
    assert.equal(linked.out, direct.out);
  });

  it('reads a unit that cannot be hashed through the link as through the real path, for review', () => {
    // A covered file that is a link: the unit is reviewed as it is on disk, never trusted.
    fs.renameSync(path.join(repo, 'config/skills/lint.lua'), path.join(repo, 'config/skills/real.lua'));
    f.symlink('real.lua', 'repo/config/skills/lint.lua');
    const read = (workspace: string) => {
      const item = evaItems(snap([workspace])).find((i) => i.name === 'lint-skill') as EvaItem;
      assert.equal(item.contentHash, null);
      return readInvalidBundle(item, [], LINUX_HOST);
    };
    const linked = read(link);
    assert.equal(linked?.root, link);
    assert.deepEqual(
      linked?.files.map((x) => x.path),
      ['config/capabilities/lint.yaml'],
    );
    assert.deepEqual(linked?.files, read(repo)?.files);
  });

  it('keeps one bundle identity whichever spelling opened the folder: the canonical manifest path', () => {
    const keys = (s: Snapshot) =>
      evaItems(s)
        .filter((i) => i.detail.bundleKey !== undefined)
        .map((i) => [i.id, i.detail.bundleKey]);
    const direct = keys(snap([repo]));
    assert.deepEqual(keys(snap([link])), direct);
    const review = evaItems(snap([repo])).find((i) => i.name === 'review-skill') as EvaItem;
    assert.equal(
      review.detail.bundleKey,
      bundleKey('eva', 'workspace', fs.realpathSync(path.join(repo, 'config/adapters/review.yaml')), 'review-skill'),
    );
  });

  it('applies trust recorded through the link to the folder opened directly, and to no copy of it', async () => {
    const env = { SKILLGATE_STATE_DIR: f.path('state'), HOME: f.path('home') };
    const cli = (workspace: string, ...args: string[]) =>
      runCli([...args, '--workspace', workspace, '--no-user', '--no-cache'], env, f.root);
    const review = await cli(link, 'review', 'review-skill', '--json');
    const token = (JSON.parse(review.out) as { reviewToken: string }).reviewToken;
    assert.equal((await cli(link, 'trust', 'review-skill', token)).code, 0);
    fs.cpSync(repo, f.path('copy'), { recursive: true, verbatimSymlinks: true });
    const trustOf = async (workspace: string) =>
      (
        JSON.parse((await cli(workspace, 'list', '--json')).out) as { items: { name: string; trust: string }[] }
      ).items.find((i) => i.name === 'review-skill')?.trust;
    assert.equal(await trustOf(link), 'trusted');
    assert.equal(await trustOf(repo), 'trusted', 'one bundle at one place, whichever spelling');
    assert.equal(await trustOf(f.path('copy')), 'not-reviewed', 'a copy is another bundle');
    const state = JSON.parse(fs.readFileSync(f.path('state/state.json'), 'utf8')) as {
      bundles: Record<string, { path: string }>;
    };
    assert.deepEqual(
      Object.values(state.bundles).map((b) => b.path),
      [fs.realpathSync(path.join(repo, 'config/adapters/review.yaml'))],
      'the receipt names the canonical path (trust.md "Bundle identity")',
    );
  });

  it('reads a unit again through the link as it was indexed: same hashes and file names, root under the folder as given', () => {
    // `skill.path` under `~/`: read again with another home than the index's, the content hash would differ.
    f.write('home/.codex/skills/review/SKILL.md', '---\nname: review\ndescription: test\n---\nbody\n');
    f.write(
      'repo/config/adapters/home.yaml',
      fs
        .readFileSync(path.join(repo, 'config/adapters/review.yaml'), 'utf8')
        .replace('id: review-skill', 'id: home-skill')
        .replace('  id: review\n', '  id: review\n  path: ~/.codex/skills/review/SKILL.md\n'),
    );
    const read = (workspace: string, name: string) => {
      const item = evaItems(snap([workspace])).find((i) => i.name === name) as EvaItem;
      assert.ok(item.contentHash, `${name} hashed: ${(item.detail.notCovered ?? []).join('; ')}`);
      const r = readBundleSource(item, LINUX_HOST);
      assert.ok(r.ok, r.ok ? '' : r.message);
      assert.equal(r.source.item.contentHash, item.contentHash, name);
      assert.equal(r.source.bundleKey, item.detail.bundleKey, name);
      assert.equal(r.source.canonicalPath, fs.realpathSync(item.path), name);
      return { item, source: r.source };
    };
    // Files inside the project: named from the folder as given, which the review opens them under.
    const inside = read(link, 'review-skill');
    assert.equal(inside.source.root, link);
    assert.ok(inside.source.files.some((x) => path.join(link, x.path) === inside.item.path));
    // A receipt records the same file names whichever spelling it was made through.
    for (const name of ['review-skill', 'home-skill'])
      assert.deepEqual(
        read(link, name).source.files.map((x) => x.path),
        read(repo, name).source.files.map((x) => x.path),
        name,
      );
  });
});
