import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { A0, EvaFixture } from './helpers/evaFixture';
import { EvaIndex } from '../../src/core/systems/eva/evaIndex';
import { readContextOf } from '../../src/core/systems/eva/readContext';
import { vscodeGlobMatches } from './helpers/vscodeGlob';

/**
 * The Eva index as the editor keeps it: each Eva project re-read on its own when a path
 * it reads changes (its `config/`, a configuration root wherever it lies, a covered file
 * or skill folder), the user skill folders re-read with any project or when a path under
 * them changes (eva.md §1.3, §4.3 rule 4: a project manifest can shadow them), and
 * nothing re-read for a path no project reads.
 */

const ctx = { trust: { available: true as const, lookup: () => undefined }, workspaceTrusted: true };

describe('Eva index refresh: what each changed path re-reads', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  function loaded(workspaces = [f.ws], evaHome: string | null = f.home): EvaIndex {
    const index = new EvaIndex({ workspaces, evaHome });
    for (const load of index.scan()) load();
    return index;
  }

  const ids = (index: EvaIndex) => index.compose(ctx).items.map((i) => i.id);
  const decision = (index: EvaIndex) => index.compose(ctx).items[0]?.decision;

  it('composes nothing before a scan, and a scan starts again from nothing', () => {
    f.adapter(A0);
    f.user('foo');
    const index = new EvaIndex({ workspaces: [f.ws], evaHome: f.home });
    assert.deepEqual(index.compose(ctx), { items: [], diagnostics: [] });
    for (const load of index.scan()) load();
    assert.equal(ids(index).length, 2);
    f.remove();
    assert.deepEqual(index.scan(), []);
    assert.deepEqual(index.compose(ctx), { items: [], diagnostics: [] });
  });

  it('re-reads the project of a changed path among others, and only that project', () => {
    fs.cpSync(f.path('ws/config'), f.path('other/config'), { recursive: true });
    const other = f.path('other');
    f.adapter(A0);
    f.write('other/config/adapters/review.yaml', A0);
    const index = loaded([f.ws, other]);
    f.adapter(A0.replace('network: false', 'network: true'));
    f.write('other/config/adapters/review.yaml', A0.replace('network: false', 'network: true'));
    index.refresh([f.path('unrelated.txt'), f.path('ws/config/adapters/review.yaml')]);
    assert.deepEqual(
      index.compose(ctx).items.map((i) => [i.workspace, i.decision]),
      [
        [f.ws, 'rejected'],
        [other, 'registered'],
      ],
    );
  });

  it('re-reads a project for its folder, an ancestor of it, and anything under config/', () => {
    f.adapter(A0);
    const index = loaded();
    for (const [changed, label] of [
      [f.ws, 'the folder'],
      [path.dirname(f.ws), 'an ancestor'],
      [f.path('ws/config/eva.user.yaml'), 'a layer'],
    ] as const) {
      const flip = decision(index) === 'registered';
      f.adapter(flip ? A0.replace('network: false', 'network: true') : A0);
      index.refresh([changed]);
      assert.equal(decision(index), flip ? 'rejected' : 'registered', label);
    }
  });

  it('re-reads a project for a configuration root outside config/, and for an ancestor of that root', () => {
    f.write(
      'ws/config/eva.yaml',
      'config:\n  agent_dir: config/agents\n  adapter_dir: manifests/adapters\n  capability_dir: config/capabilities\n  policy_dir: config/policies\n  route_file: config/routes.yaml\n  schema_dir: config/schemas\n',
    );
    f.write('ws/manifests/adapters/review.yaml', A0);
    const index = loaded();
    assert.equal(decision(index), 'registered');
    f.write('ws/manifests/adapters/review.yaml', A0.replace('network: false', 'network: true'));
    index.refresh([f.path('ws/elsewhere/x.yaml')]);
    assert.equal(decision(index), 'registered', 'a path no project reads');
    index.refresh([f.path('ws/manifests/adapters/review.yaml')]);
    assert.equal(decision(index), 'rejected', 'a file under the root');
    f.write('ws/manifests/adapters/review.yaml', A0);
    index.refresh([f.path('ws/manifests')]);
    assert.equal(decision(index), 'registered', 'an ancestor of the root');
  });

  it('re-reads a project when one of several covered files changes, and not for a path beside a skill folder', () => {
    f.l0();
    f.write('ws/skills/review/SKILL.md', 's');
    f.adapter(A0.replace('  id: review\n', '  id: review\n  path: skills/review/SKILL.md\n'));
    const index = loaded();
    const hashes = () => index.compose(ctx).items.map((i) => i.contentHash);
    const before = hashes();
    f.write('ws/schemas/lint.output.json', '{"type": "object", "title": "x"}');
    f.write('ws/skills/review/SKILL.md', 'changed');
    index.refresh([f.path('ws/skills/other.md')]);
    assert.deepEqual(hashes(), before, 'beside the skill folder, outside every root');
    index.refresh([f.path('ws/schemas/lint.output.json')]);
    const after = hashes();
    assert.ok(
      after.every((h, i) => h !== before[i]),
      'the whole project is read again',
    );
  });

  it('watches and re-reads a configuration layer Eva reads outside the layer patterns (a link, a nested env name)', () => {
    // `config/eva.user.yaml` links to `shared/user.yaml`; Eva follows it, so its target decides the roots.
    f.write('ws/shared/user.yaml', 'observability: {log_level: info}\n');
    fs.symlinkSync(f.path('ws/shared/user.yaml'), f.path('ws/config/eva.user.yaml'));
    f.mkdir('ws/alt');
    f.write('ws/alt/review.yaml', A0);
    const index = loaded();
    assert.ok(index.watchedPaths().includes(f.path('ws/shared/user.yaml')), 'the link target is watched');
    assert.deepEqual(ids(index), []);
    f.write('ws/shared/user.yaml', 'config: {adapter_dir: alt}\n');
    index.refresh([f.path('ws/shared/user.yaml')]);
    assert.equal(ids(index).length, 1, 'the layer now names alt/ as the adapter root');
  });

  it('re-reads a project when a file a decision reads changes, also where trust cannot cover the unit, and watches it', () => {
    // The input schema links outside the project: the unit has no hashes, but its output schema still decides.
    f.l0();
    f.write('outside/in.json', '{"type": "object"}');
    fs.rmSync(f.path('ws/schemas/lint.input.json'));
    fs.symlinkSync(f.path('outside/in.json'), f.path('ws/schemas/lint.input.json'));
    const index = loaded();
    const reasons = () => index.compose(ctx).items[0]?.reasons ?? [];
    assert.ok(!reasons().includes('schema_invalid'), reasons().join(', '));
    assert.ok(index.watchedPaths().includes(f.path('ws/schemas/lint.output.json')), 'the output schema is watched');
    f.write('ws/schemas/lint.output.json', '\xff\xfe not JSON');
    index.refresh([f.path('ws/schemas/lint.output.json')]);
    assert.ok(reasons().includes('schema_invalid'), reasons().join(', '));
    // As a fresh index reads it.
    assert.deepEqual(index.compose(ctx).items, loaded().compose(ctx).items);
  });

  it('re-reads the user skill folders with a project, or for a path under either user root, and not otherwise', () => {
    f.adapter(A0.replace('  id: review\n', '  id: other\n'));
    const plain = f.mkdir('plain');
    const index = loaded([f.ws, plain]);
    f.user('foo', 'agents');
    index.refresh([f.path('ws/unrelated'), f.path('plain/x')]);
    assert.deepEqual(ids(index), [f.id('adapters/review.yaml')], 'no path under a user root');
    index.refresh([f.path('ws/unrelated'), f.path('home/.agents/skills/foo/SKILL.md')]);
    assert.deepEqual(ids(index), [f.id('adapters/review.yaml'), 'eva:user:agents:foo']);
    f.user('bar');
    index.refresh([f.path('home/.codex/skills/bar')]);
    assert.equal(ids(index).length, 3, 'under ~/.codex/skills');
    // A project manifest that now wraps a user skill shadows it: the user items are read with the project.
    f.adapter(A0.replace('  id: review\n', '  id: bar\n'));
    index.refresh([f.path('ws/config/adapters/review.yaml')]);
    assert.deepEqual(
      index.compose(ctx).items.map((i) => [i.id, i.decision]),
      [
        [f.id('adapters/review.yaml'), 'registered'],
        ['eva:user:codex:bar', 'shadowed'],
        ['eva:user:agents:foo', 'display_only'],
      ],
    );
  });

  it('drops the items of a folder that stops being an Eva project', () => {
    f.adapter(A0);
    const index = loaded();
    fs.rmSync(f.path('ws/config/eva.yaml'));
    index.refresh([f.path('ws/config/eva.yaml')]);
    assert.deepEqual(index.compose(ctx), { items: [], diagnostics: [] });
  });

  it('does not re-read the user folders for a path beside the skill roots in ~/.codex or ~/.agents', () => {
    f.adapter(A0);
    const index = loaded();
    f.user('foo');
    f.user('bar', 'agents');
    index.refresh([f.path('home/.codex/config.toml'), f.path('home/.agents/other')]);
    assert.deepEqual(ids(index), [f.id('adapters/review.yaml')]);
  });

  it('without a home reads no user folders and watches none', () => {
    f.adapter(A0);
    f.user('foo');
    const index = loaded([f.ws], null);
    assert.deepEqual(ids(index), [f.id('adapters/review.yaml')]);
    index.refresh([f.path('home/.codex/skills/foo/SKILL.md')]);
    assert.equal(ids(index).length, 1);
    assert.ok(!index.watchedTrees().some((t) => t.pattern === '{.codex,.agents}/skills/**'));
  });

  it("watches the user's home by default, and only beside an Eva project", () => {
    f.adapter(A0);
    const index = new EvaIndex({ workspaces: [f.ws], evaHome: f.home });
    assert.ok(!index.watchedTrees().some((t) => t.base === f.home), 'no project loaded yet');
    const byDefault = new EvaIndex({ workspaces: [f.ws], evaHome: null }).watchedTrees();
    assert.ok(!byDefault.some((t) => t.pattern === '{.codex,.agents}/skills/**'));
    const home = new EvaIndex({ workspaces: [f.ws] });
    for (const load of home.scan()) load();
    assert.deepEqual(
      home.watchedTrees().filter((t) => t.pattern === '{.codex,.agents}/skills/**'),
      [{ base: os.homedir(), pattern: '{.codex,.agents}/skills/**' }],
    );
  });

  // VS Code's watcher of `{.codex,.agents}/skills/**` under the home follows no link below its base
  // (parcelWatcher.ts watches the base's real path only), while Eva reads the folders through links.
  const USER_SKILL = (description: string) => `---\nname: x\ndescription: ${description}\n---\nbody\n`;
  const realTrees = (index: EvaIndex) =>
    index.watchedTrees().filter((t) => t.pattern === '**' && !t.base.startsWith(f.ws + path.sep));

  for (const [link, target, real] of [
    ['home/.codex', 'dotfiles/codex', 'dotfiles/codex/skills'],
    ['home/.codex/skills', 'dotfiles/skills', 'dotfiles/skills'],
  ] as const)
    it(`watches the user skill tree where it really is (${link} -> ${target}), and re-reads a change reported there`, () => {
      f.adapter(A0);
      f.write(`${real}/x/SKILL.md`, USER_SKILL('first'));
      f.symlink(f.path(target), link);
      const index = loaded();
      assert.deepEqual(realTrees(index), [{ base: f.path(real), pattern: '**' }]);
      const description = () => index.compose(ctx).items.find((i) => i.id === 'eva:user:codex:x')?.detail.description;
      assert.equal(description(), 'first');
      f.write(`${real}/x/SKILL.md`, USER_SKILL('second'));
      index.refresh([f.path(`${real}/x/SKILL.md`)]);
      assert.equal(description(), 'second', 'a change reported under the real path');
    });

  it('watches a real user skill tree once when both user folders lead to it, and one inside a workspace folder', () => {
    f.adapter(A0);
    f.write('ws/team-skills/x/SKILL.md', USER_SKILL('d'));
    f.symlink(f.path('ws/team-skills'), 'home/.codex/skills');
    f.symlink(f.path('ws/team-skills'), 'home/.agents/skills');
    assert.deepEqual(
      loaded()
        .watchedTrees()
        .filter((t) => t.base === f.path('ws/team-skills')),
      [{ base: f.path('ws/team-skills'), pattern: '**' }],
    );
  });

  it('watches no real user tree that is a filesystem root, holds the home or a workspace folder, or that the home watcher sees', () => {
    f.adapter(A0);
    const app = f.mkdir('projects/app');
    const homeLink = f.symlink(f.home, 'homelink');
    const shapes: [label: string, link?: [string, string], home?: string][] = [
      ['~/.codex -> /', ['home/.codex', '/']],
      ['~/.codex/skills -> /', ['home/.codex/skills', '/']],
      ['~/.codex/skills -> ~', ['home/.codex/skills', f.home]],
      ['~/.codex/skills -> an ancestor of ~', ['home/.codex/skills', f.root]],
      ['~/.codex/skills -> a workspace folder', ['home/.codex/skills', f.ws]],
      ['~/.codex/skills -> an ancestor of a workspace folder', ['home/.codex/skills', f.path('projects')]],
      ['~/.codex/skills -> ~/.agents/skills', ['home/.codex/skills', f.path('home/.agents/skills')]],
      ['the home spelled by a link, nothing linked below it', undefined, homeLink],
    ];
    for (const [label, link, home] of shapes) {
      fs.rmSync(f.path('home/.codex'), { recursive: true, force: true });
      f.mkdir('home/.codex/skills');
      f.mkdir('home/.agents/skills');
      if (link) {
        fs.rmSync(f.path(link[0]), { recursive: true, force: true });
        f.symlink(link[1], link[0]);
      }
      const index = new EvaIndex({ workspaces: [f.ws, app], evaHome: home ?? f.home });
      for (const load of index.scan()) load();
      assert.deepEqual(realTrees(index), [], label);
    }
  });

  // A user skill's own folder may be a link too (eva.md §1.3: "A child directory that is a symlink is
  // followed"; files.ts `scanUserSkills` reads through it): the home's watcher sees the link, not what is behind it.
  const userDescription = (index: EvaIndex) =>
    index.compose(ctx).items.find((i) => i.id === 'eva:user:codex:x')?.detail.description;
  // Only its SKILL.md is read, so only that is watched: cheap wherever the link leads.
  const skillFileWatches = (index: EvaIndex) => index.watchedTrees().filter((t) => t.pattern === 'SKILL.md');

  it('watches the real folder of a user skill whose folder is a link (~/.codex/skills/x -> elsewhere/x), and re-reads a change reported there', () => {
    f.adapter(A0);
    f.write('elsewhere/x/SKILL.md', USER_SKILL('first'));
    f.symlink(f.path('elsewhere/x'), 'home/.codex/skills/x');
    const index = loaded();
    assert.deepEqual(realTrees(index), []);
    assert.deepEqual(skillFileWatches(index), [{ base: f.path('elsewhere/x'), pattern: 'SKILL.md' }]);
    assert.equal(userDescription(index), 'first');
    f.write('elsewhere/x/SKILL.md', USER_SKILL('second'));
    index.refresh([f.path('elsewhere/x/SKILL.md')]);
    assert.equal(userDescription(index), 'second', 'a change reported under the real path');
    // The folder leads elsewhere now: the home's watcher sees the link change, and the old folder is let go.
    f.write('moved/x/SKILL.md', USER_SKILL('third'));
    fs.rmSync(f.path('home/.codex/skills/x'));
    f.symlink(f.path('moved/x'), 'home/.codex/skills/x');
    index.refresh([f.path('home/.codex/skills/x')]);
    assert.equal(userDescription(index), 'third');
    assert.deepEqual(skillFileWatches(index), [{ base: f.path('moved/x'), pattern: 'SKILL.md' }]);
  });

  it('watches the real folder of a linked user skill folder behind a linked user tree, and none for a link that stays in the user trees', () => {
    f.adapter(A0);
    f.write('elsewhere/x/SKILL.md', USER_SKILL('d'));
    f.write('home/.agents/skills/y/SKILL.md', USER_SKILL('d'));
    f.mkdir('dotfiles/skills');
    f.symlink(f.path('elsewhere/x'), 'dotfiles/skills/x');
    // Into the other user tree, which the home's watcher sees.
    f.symlink(f.path('home/.agents/skills/y'), 'dotfiles/skills/y');
    f.symlink(f.path('dotfiles/skills'), 'home/.codex/skills');
    const index = loaded();
    assert.deepEqual(realTrees(index), [{ base: f.path('dotfiles/skills'), pattern: '**' }]);
    assert.deepEqual(skillFileWatches(index), [{ base: f.path('elsewhere/x'), pattern: 'SKILL.md' }]);
  });

  it('watches only the SKILL.md of a linked user skill folder wherever it leads (the home, a folder above it, a workspace folder), and re-reads a change reported there', () => {
    f.adapter(A0);
    const app = f.mkdir('projects/app');
    const shapes: [label: string, target: string][] = [
      ['~/.codex/skills/x -> /', '/'],
      ['~/.codex/skills/x -> ~', f.home],
      ['~/.codex/skills/x -> an ancestor of ~', f.root],
      ['~/.codex/skills/x -> a workspace folder', f.ws],
      ['~/.codex/skills/x -> an ancestor of a workspace folder', f.path('projects')],
    ];
    for (const [label, target] of shapes) {
      fs.rmSync(f.path('home/.codex'), { recursive: true, force: true });
      f.symlink(target, 'home/.codex/skills/x');
      const skill = path.join(target, 'SKILL.md');
      // Never written to the real filesystem root: there the folder holds no SKILL.md, so Eva lists no skill,
      // and the folder is watched for one to be written (userTreeWatches.ts `linkedFolderWatches`), the same one file.
      if (target !== '/') f.write(path.relative(f.root, skill), USER_SKILL('first'));
      const index = loaded([f.ws, app]);
      assert.deepEqual(realTrees(index), [], label);
      assert.deepEqual(
        skillFileWatches(index),
        [{ base: target, pattern: 'SKILL.md' }],
        `${label}: one file watched, never the tree`,
      );
      const listed = index.compose(ctx).items.some((i) => i.id === 'eva:user:codex:x');
      assert.equal(listed, target !== '/', label);
      if (target === '/') continue;
      assert.equal(userDescription(index), 'first', label);
      f.write(path.relative(f.root, skill), USER_SKILL('second'));
      index.refresh([skill]);
      assert.equal(userDescription(index), 'second', `${label}: a change reported there`);
      fs.rmSync(skill);
    }
  });

  // Changed on purpose: a linked folder past the cap was left out, so its SKILL.md removed (or one written where
  // there was none) waited for the re-check, while Eva-CLI lists such a folder exactly when its SKILL.md is there
  // (eva.md §1.3, §4.2 C0: `scan_limit_exceeded`, the file never opened).
  it('watches the SKILL.md of the linked folders of the user skills Eva reads, and of those it lists past its 500 per root', () => {
    f.adapter(A0);
    for (let n = 0; n < 500; n++)
      f.write(`home/.codex/skills/a${String(n).padStart(3, '0')}/SKILL.md`, USER_SKILL('d'));
    f.write('elsewhere/zz/SKILL.md', USER_SKILL('d'));
    f.symlink(f.path('elsewhere/zz'), 'home/.codex/skills/zz');
    f.write('elsewhere/b/SKILL.md', USER_SKILL('d'));
    f.symlink(f.path('elsewhere/b'), 'home/.agents/skills/b');
    const index = loaded();
    assert.deepEqual(
      index.compose(ctx).items.find((i) => i.id === 'eva:user:codex:zz')?.reasons[0],
      'scan_limit_exceeded',
    );
    assert.deepEqual(skillFileWatches(index), [
      { base: f.path('elsewhere/b'), pattern: 'SKILL.md' },
      { base: f.path('elsewhere/zz'), pattern: 'SKILL.md' },
    ]);
  });

  // A linked folder that holds no SKILL.md yet is no item, so no item names it; Eva lists it once a SKILL.md is
  // written there (files.ts `scanUserSkills`: a child directory holding a regular `SKILL.md`), behind the link.
  it('watches the real folder of a linked user skill folder that holds no SKILL.md yet, and lists the skill once one is written there', () => {
    f.adapter(A0);
    f.mkdir('elsewhere/x');
    f.symlink(f.path('elsewhere/x'), 'home/.codex/skills/x');
    const index = loaded();
    assert.equal(userDescription(index), undefined, 'no SKILL.md: no skill');
    assert.deepEqual(skillFileWatches(index), [{ base: f.path('elsewhere/x'), pattern: 'SKILL.md' }]);
    f.write('elsewhere/x/SKILL.md', USER_SKILL('first'));
    index.refresh([f.path('elsewhere/x/SKILL.md')]);
    assert.equal(userDescription(index), 'first', 'a SKILL.md written behind the link, reported under the real path');
    assert.deepEqual(skillFileWatches(index), [{ base: f.path('elsewhere/x'), pattern: 'SKILL.md' }]);
  });

  // Changed on purpose: these were left out (the guard of the recursive user trees, `realUserTreesToWatch`), so a
  // SKILL.md written there waited for the re-check while Eva read it at once. One file watched, not the tree, is
  // cheap wherever the link leads, as for a linked folder that holds one (`linkedFolderWatches`).
  it('watches the SKILL.md of a linked folder without one wherever it leads (a filesystem root, the home, a workspace folder, a folder above one), none into the user trees, and lists the skill once one is written there', () => {
    f.adapter(A0);
    const app = f.mkdir('projects/app');
    f.mkdir('home/.agents/skills/y');
    const targets: [label: string, target: string][] = [
      ['/', '/'],
      ['~', f.home],
      ['an ancestor of ~', f.root],
      ['a workspace folder', f.ws],
      ['an ancestor of a workspace folder', f.path('projects')],
      ['a folder in the other user tree', f.path('home/.agents/skills/y')],
    ];
    const intoUserTrees = f.path('home/.agents/skills/y');
    for (const [label, target] of targets) {
      const what = `~/.codex/skills/x -> ${label}`;
      fs.rmSync(f.path('home/.codex'), { recursive: true, force: true });
      f.mkdir('home/.codex/skills');
      const watches = (index: EvaIndex) => index.watchedTrees().map((t) => JSON.stringify(t));
      const without = new Set(watches(loaded([f.ws, app])));
      f.symlink(target, 'home/.codex/skills/x');
      const index = loaded([f.ws, app]);
      assert.equal(userDescription(index), undefined, `${what}: no SKILL.md, no skill`);
      // The one file and nothing else: never the folder's tree (a pattern with `**` or `/` would watch it recursively).
      assert.deepEqual(
        watches(index).filter((t) => !without.has(t)),
        target === intoUserTrees ? [] : [JSON.stringify({ base: target, pattern: 'SKILL.md' })],
        `${what}: its one SKILL.md watched (the user trees' own watchers see one in them)`,
      );
      // A filesystem root has no folder to be watched by its name in.
      assert.ok(!index.watchedPaths().includes('/'), `${what}: ${JSON.stringify(index.watchedPaths())}`);
      // Never written to the real filesystem root.
      if (target === '/' || target === intoUserTrees) continue;
      const skill = path.join(target, 'SKILL.md');
      f.write(path.relative(f.root, skill), USER_SKILL('first'));
      index.refresh([skill]);
      assert.equal(userDescription(index), 'first', `${what}: a SKILL.md written there, reported by its watch`);
      assert.deepEqual(index.compose(ctx), loaded([f.ws, app]).compose(ctx), `${what}: as a fresh index`);
      fs.rmSync(skill);
    }
  });

  // Changed on purpose, as above: past the cap, a SKILL.md written there makes Eva-CLI list the folder.
  it('watches the linked folders without a SKILL.md, before the 500th skill folder (read once written) and past it (listed), at most 500 per root', () => {
    f.adapter(A0);
    // Byte order: `0` before `a000`…`a499`, which fill the cap, before `b`.
    for (let n = 0; n < 500; n++)
      f.write(`home/.codex/skills/a${String(n).padStart(3, '0')}/SKILL.md`, USER_SKILL('d'));
    for (const name of ['0', 'b']) {
      f.mkdir(`elsewhere/${name}`);
      f.symlink(f.path(`elsewhere/${name}`), `home/.codex/skills/${name}`);
    }
    // In the other root, 501 linked folders without one: the first 500 in byte order are watched.
    for (let n = 0; n < 501; n++) {
      const name = `e${String(n).padStart(3, '0')}`;
      f.mkdir(`empty/${name}`);
      f.symlink(f.path(`empty/${name}`), `home/.agents/skills/${name}`);
    }
    const watched = skillFileWatches(loaded()).map((t) => path.relative(f.root, t.base));
    assert.deepEqual(
      watched.filter((b) => b.startsWith('elsewhere')),
      ['elsewhere/0', 'elsewhere/b'],
    );
    const empty = watched.filter((b) => b.startsWith('empty'));
    assert.equal(empty.length, 500);
    assert.ok(!empty.includes('empty/e500'), 'the 501st in byte order is not watched');
  });

  // `ln -sfn /b ~/.codex`: the change is of the link itself, in the home, which `{.codex,.agents}/skills/**` never names;
  // the real tree watched is still the old one, where nothing changed.
  for (const user of ['.codex', '.agents'])
    it(`watches ~/${user} itself, so a link of it led elsewhere re-reads the user skills at once`, () => {
      f.adapter(A0);
      f.write('dotfiles/a/skills/x/SKILL.md', USER_SKILL('first'));
      f.write('dotfiles/b/skills/x/SKILL.md', USER_SKILL('second'));
      f.symlink(f.path('dotfiles/a'), `home/${user}`);
      const index = loaded();
      const description = () => index.compose(ctx).items.find((i) => i.name === 'x')?.detail.description;
      assert.equal(description(), 'first');
      fs.rmSync(f.path(`home/${user}`));
      f.symlink(f.path('dotfiles/b'), `home/${user}`);
      const link = f.path(`home/${user}`);
      // As VS Code matches a watcher's pattern against a path relative to its base (helpers/vscodeGlob.ts).
      const reporting = index.watchedTrees().filter((t) => {
        const rel = path.relative(t.base, link);
        return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) && vscodeGlobMatches(t.pattern, rel);
      });
      assert.deepEqual(reporting, [{ base: f.home, pattern: '{.codex,.agents}' }]);
      index.refresh([link]);
      assert.equal(description(), 'second');
      assert.deepEqual(realTrees(index), [{ base: f.path('dotfiles/b/skills'), pattern: '**' }]);
    });

  it('remembers the home and runtime each project was read with, for reading its units again', () => {
    f.adapter(A0);
    const runtime = { mode: 'team', teamWorker: true, interactiveUser: false } as const;
    const index = new EvaIndex({ workspaces: [f.ws], evaHome: f.home, evaRuntime: runtime });
    for (const load of index.scan()) load();
    assert.deepEqual(readContextOf(f.ws), { home: f.home, runtime });
  });
});
