import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { runCli, type CliResult } from './helpers/runCli';
import { joinAsSpelled, typedDirectory, withParentsResolved } from '../../src/core/fs/spelledPath';
import { codewhaleHomeFromEnv } from '../../src/core/fs/userHome';
import { userPluginRoot } from '../../src/core/systems/codewhale/discovery';
import { Indexer } from '../../src/core/index/indexer';
import { Fixture, LINUX_HOST, writeD } from './helpers/fixture';

const cli = (args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<CliResult> => runCli(args, env, cwd);

interface Listed {
  readonly id: string;
  readonly system: string;
  readonly scope: string;
  readonly path: string;
  readonly parent: string | null;
  readonly decision: string;
  readonly trust: string;
}

const EVA_SKILL = '---\nname: s\ndescription: d\n---\nbody\n';

/**
 * The user's homes reach the file system as the agent spells them (codewhale_paths joins by
 * appending, the OS resolves `..` after a link): `lnk/..` is the parent of the link's target,
 * never the folder that holds `lnk`.
 */
describe('user homes kept as spelled', () => {
  let f: Fixture;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    f = new Fixture();
    // `lnk` leads to deep/a, so `lnk/..` is deep; the decoys sit where `..` folded lexically would land.
    f.mkdir('deep/a');
    f.symlink(f.path('deep/a'), 'lnk');
    writeD(f, '', 'deep/cwh/plugins/real');
    writeD(f, '', 'cwh/plugins/decoy');
    writeD(f, '', 'deep/.codewhale/plugins/hreal');
    writeD(f, '', '.codewhale/plugins/hdecoy');
    f.write('deep/.codex/skills/realskill/SKILL.md', EVA_SKILL);
    f.write('.codex/skills/decoyskill/SKILL.md', EVA_SKILL);
    f.write('ws/config/eva.yaml', 'version: 1\n');
    env = { SKILLGATE_STATE_DIR: f.path('state'), SKILLGATE_CACHE_DIR: f.path('cache') };
  });
  afterEach(() => f.remove());
  // Under the fixture, not folded as path.join folds it.
  const spelled = (rel: string) => `${f.root}/${rel}`;

  const listed = async (args: string[], extra: NodeJS.ProcessEnv): Promise<Listed[]> => {
    const r = await cli(['list', '--json', ...args], f.path('ws'), { ...env, ...extra });
    assert.equal(r.code, 0, r.err);
    return (JSON.parse(r.out) as { items: Listed[] }).items.filter((i) => i.scope === 'user' && i.parent === null);
  };
  const paths = (items: Listed[]) => items.map((i) => path.relative(f.root, i.path)).sort();

  it('joins a home as Rust does and resolves its `..` as the OS does', () => {
    assert.equal(joinAsSpelled('/h/lnk/..', '.codewhale'), '/h/lnk/../.codewhale');
    assert.equal(codewhaleHomeFromEnv({}, '/h/lnk/..'), '/h/lnk/../.codewhale');
    assert.equal(userPluginRoot('/h/lnk/../cwh'), '/h/lnk/../cwh/plugins');
    assert.equal(withParentsResolved(spelled('lnk/../cwh')), f.path('deep/cwh'));
    assert.equal(withParentsResolved(spelled('lnk/..')), f.path('deep'));
    // A last component that is a link keeps its spelling: discovery must still see the link.
    assert.equal(withParentsResolved(spelled('lnk/../../lnk')), f.path('lnk'));
    // A `..` after a folder that does not exist reaches nothing: kept as spelled, never folded onto `cwh`.
    assert.equal(withParentsResolved(spelled('missing/../cwh')), spelled('missing/../cwh'));
    assert.equal(withParentsResolved('/no/dotdot/here'), '/no/dotdot/here');
    assert.equal(typedDirectory('lnk/../cwh', f.root), f.path('deep/cwh'));
  });

  it('CODEWHALE_HOME through a link and `..` lists the bundles Codewhale reads, not the lexical decoy', async () => {
    const items = await listed([], { HOME: f.path('home'), CODEWHALE_HOME: spelled('lnk/../cwh') });
    assert.deepEqual(paths(items), ['deep/cwh/plugins/real']);
  });

  it('HOME through a link and `..`: Codewhale`s ~/.codewhale and Eva`s ~/.codex/skills as the OS reaches them', async () => {
    const items = await listed([], { HOME: spelled('lnk/..') });
    assert.deepEqual(paths(items), ['deep/.codewhale/plugins/hreal', 'deep/.codex/skills/realskill']);
  });

  it('a home whose `..` follows a missing folder lists nothing, as the OS reaches nothing there', async () => {
    const items = await listed([], { HOME: spelled('missing/..'), CODEWHALE_HOME: spelled('missing/../cwh') });
    assert.deepEqual(paths(items), []);
  });

  it('--codewhale-home and --eva-home, relative to the working directory, resolve `..` as the shell`s ls does', async () => {
    const items = await listed(['--codewhale-home', '../lnk/../cwh', '--eva-home', '../lnk/..'], {
      HOME: f.path('home'),
    });
    assert.deepEqual(paths(items), ['deep/.codex/skills/realskill', 'deep/cwh/plugins/real']);
    // The check that the directory exists looks where the index will look: `lnk/../deep` does not exist.
    const r = await cli(['list', '--codewhale-home', '../lnk/../deep'], f.path('ws'), env);
    assert.equal(r.code, 2);
    assert.match(r.err, /does not exist/);
  });

  it('keeps a user bundle`s trust when its home is spelled another way to the same folder', async () => {
    const direct = { HOME: f.path('home'), CODEWHALE_HOME: f.path('deep/cwh') };
    const [bundle] = await listed([], direct);
    assert.ok(bundle);
    const review = await cli(['review', bundle.id, '--json'], f.path('ws'), { ...env, ...direct });
    assert.equal(review.code, 0, review.err);
    const token = (JSON.parse(review.out) as { reviewToken: string }).reviewToken;
    const trusted = await cli(['trust', bundle.id, token], f.path('ws'), { ...env, ...direct });
    assert.equal(trusted.code, 0, trusted.err);
    const before = (await listed([], direct))[0];
    const after = (await listed([], { HOME: f.path('home'), CODEWHALE_HOME: spelled('lnk/../cwh') }))[0];
    assert.equal(after?.path, bundle.path);
    assert.equal(after?.id, bundle.id);
    assert.equal(before?.trust, 'trusted');
    assert.equal(after?.trust, 'trusted');
    assert.equal(after?.decision, before?.decision);
  });

  it('watches the folders the agents read under a linked home, and a change there refreshes the listing', () => {
    const home = typedDirectory('lnk/..', f.root);
    const indexer = new Indexer({
      workspaces: [f.path('ws')],
      codewhaleHome: typedDirectory('lnk/../cwh', f.root),
      evaHome: home,
      host: LINUX_HOST,
    });
    const names = (items: readonly { scope: string; parent: string | null; path: string }[]) =>
      items
        .filter((i) => i.scope === 'user' && i.parent === null)
        .map((i) => path.relative(f.root, i.path))
        .sort();
    assert.deepEqual(names(indexer.indexAll().items), ['deep/.codex/skills/realskill', 'deep/cwh/plugins/real']);
    assert.deepEqual(
      indexer.watchedTrees().filter((t) => !t.base.startsWith(f.path('ws'))),
      [
        { base: f.path('deep/cwh'), pattern: 'plugins/**' },
        { base: f.path('deep'), pattern: '{.codex,.agents}/skills/**' },
        // The two user folders themselves, so a link of one led elsewhere is seen (evaIndex.ts `watchedTrees`).
        { base: f.path('deep'), pattern: '{.codex,.agents}' },
      ],
    );
    const added = writeD(f, '', 'deep/cwh/plugins/later');
    f.write('deep/.agents/skills/other/SKILL.md', EVA_SKILL);
    const after = indexer.refresh([added, f.path('deep/.agents/skills/other')]);
    assert.deepEqual(names(after.items), [
      'deep/.agents/skills/other',
      'deep/.codex/skills/realskill',
      'deep/cwh/plugins/later',
      'deep/cwh/plugins/real',
    ]);
  });
});
