import { strict as assert } from 'node:assert';
import { loadWithVscode, vscodeStandIn } from './helpers/vscodeStandIn';
import { Fixture } from './helpers/fixture';
import * as path from 'node:path';
import { codewhaleHomeFromEnv } from '../../src/core/fs/userHome';

type Settings = typeof import('../../src/extension/settings');

/**
 * The settings that decide where trust is read from and what is indexed
 * (src/extension/settings.ts), on a stand-in `vscode`: only user values count, and a value
 * of the wrong type (settings.json is edited by hand) is as if unset rather than a throw.
 */
describe('extension settings (user values only)', () => {
  const settings = loadWithVscode(() => require('../../src/extension/settings') as Settings);
  const saved = { SKILLGATE_STATE_DIR: process.env.SKILLGATE_STATE_DIR, CODEWHALE_HOME: process.env.CODEWHALE_HOME };
  const set = (key: string, value: object) => vscodeStandIn.settings.set(`skillgate.${key}`, value);
  beforeEach(() => {
    vscodeStandIn.reset();
    process.env.SKILLGATE_STATE_DIR = '/state/from-env';
    process.env.CODEWHALE_HOME = '/codewhale/from-env';
  });
  after(() => {
    vscodeStandIn.reset();
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });

  it("ignores a workspace's or folder's value for every setting that moves trust or what is indexed", () => {
    const repo = (value: unknown) => ({ workspaceValue: value, workspaceFolderValue: value });
    for (const key of ['stateDirectory', 'codewhaleHome', 'eva.home']) set(key, repo('/repo/chosen'));
    set('includeUserBundles', repo(false));
    set('eva.runtimeMode', repo('team'));
    set('eva.teamWorker', repo(true));
    set('eva.interactiveUser', repo(true));
    set('recheckIntervalSeconds', repo(0));
    assert.equal(settings.stateDirectory(), '/state/from-env');
    assert.equal(settings.codewhaleHome(), '/codewhale/from-env');
    assert.notEqual(settings.evaHome(), '/repo/chosen');
    assert.equal(settings.evaUserSkills(), true);
    assert.deepEqual(settings.evaRuntime(), { mode: 'normal', teamWorker: false, interactiveUser: false });
    assert.equal(settings.steadyRecheckInterval(), 60_000);
  });

  it('takes the user value, trimmed', () => {
    set('stateDirectory', { globalValue: ' /mine/state ' });
    set('codewhaleHome', { globalValue: '/mine/cw' });
    set('eva.home', { globalValue: '/mine/home' });
    assert.equal(settings.stateDirectory(), '/mine/state');
    assert.equal(settings.codewhaleHome(), '/mine/cw');
    assert.equal(settings.evaHome(), '/mine/home');
  });

  it('treats a user value of the wrong type as unset instead of throwing', () => {
    for (const wrong of [5, true, ['/mine'], { path: '/mine' }]) {
      for (const key of ['stateDirectory', 'codewhaleHome', 'eva.home']) set(key, { globalValue: wrong });
      assert.equal(settings.stateDirectory(), '/state/from-env', JSON.stringify(wrong));
      assert.equal(settings.codewhaleHome(), '/codewhale/from-env', JSON.stringify(wrong));
      assert.equal(typeof settings.evaHome(), 'string', JSON.stringify(wrong));
    }
  });
});

/** What each setting turns on or off, and what it reads when nothing is set. */
describe('extension settings: what each user value does', () => {
  const settings = loadWithVscode(() => require('../../src/extension/settings') as Settings);
  const saved = {
    SKILLGATE_STATE_DIR: process.env.SKILLGATE_STATE_DIR,
    CODEWHALE_HOME: process.env.CODEWHALE_HOME,
    HOME: process.env.HOME,
    USERPROFILE: process.env.USERPROFILE,
  };
  const set = (key: string, globalValue: unknown) => vscodeStandIn.settings.set(`skillgate.${key}`, { globalValue });
  beforeEach(() => vscodeStandIn.reset());
  afterEach(() => {
    vscodeStandIn.reset();
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });

  it('reads a blank path setting as unset: the store does not move to the current directory', () => {
    process.env.SKILLGATE_STATE_DIR = '/state/from-env';
    process.env.CODEWHALE_HOME = '/codewhale/from-env';
    for (const blank of ['', '   ', '\t\n']) {
      set('stateDirectory', blank);
      set('codewhaleHome', blank);
      assert.equal(settings.stateDirectory(), '/state/from-env', JSON.stringify(blank));
      assert.equal(settings.codewhaleHome(), '/codewhale/from-env', JSON.stringify(blank));
    }
  });

  it('indexes no user bundles when includeUserBundles is false, and keeps the Eva home', () => {
    process.env.CODEWHALE_HOME = '/codewhale/from-env';
    set('eva.home', '/mine/home');
    assert.equal(settings.codewhaleHome(), '/codewhale/from-env');
    assert.equal(settings.evaUserSkills(), true);
    set('includeUserBundles', false);
    assert.equal(settings.codewhaleHome(), null);
    assert.equal(settings.evaUserSkills(), false);
    assert.equal(settings.evaHome(), '/mine/home');
    set('includeUserBundles', true);
    assert.equal(settings.codewhaleHome(), '/codewhale/from-env');
    assert.equal(settings.evaUserSkills(), true);
  });

  it('has no Codewhale home without CODEWHALE_HOME and a home directory', () => {
    delete process.env.CODEWHALE_HOME;
    process.env.HOME = 'relative/home';
    process.env.USERPROFILE = 'relative/profile';
    assert.equal(settings.codewhaleHome(), null);
  });

  it('takes the Eva runtime from the user values: each known mode, the team worker and the interactive user', () => {
    assert.deepEqual(settings.evaRuntime(), { mode: 'normal', teamWorker: false, interactiveUser: false });
    for (const mode of ['normal', 'team', 'swarm', 'ralph']) {
      set('eva.runtimeMode', mode);
      assert.equal(settings.evaRuntime().mode, mode);
    }
    for (const unknown of ['', 'Team', 'solo', 3]) {
      set('eva.runtimeMode', unknown);
      assert.equal(settings.evaRuntime().mode, 'normal', JSON.stringify(unknown));
    }
    set('eva.teamWorker', true);
    assert.deepEqual(settings.evaRuntime(), { mode: 'normal', teamWorker: true, interactiveUser: false });
    set('eva.interactiveUser', true);
    assert.deepEqual(settings.evaRuntime(), { mode: 'normal', teamWorker: true, interactiveUser: true });
    set('eva.teamWorker', 'true');
    set('eva.interactiveUser', 1);
    assert.deepEqual(settings.evaRuntime(), { mode: 'normal', teamWorker: false, interactiveUser: false });
  });

  it("takes the steady re-checks' interval from the user value", () => {
    set('recheckIntervalSeconds', 120);
    assert.equal(settings.steadyRecheckInterval(), 120_000);
  });

  it('reads every setting as unset when VS Code has nothing to say of it', () => {
    const workspace = vscodeStandIn.api.workspace as unknown as Record<string, unknown>;
    const getConfiguration = workspace.getConfiguration;
    workspace.getConfiguration = () => ({ inspect: () => undefined });
    process.env.SKILLGATE_STATE_DIR = '/state/from-env';
    try {
      assert.equal(settings.stateDirectory(), '/state/from-env');
      assert.equal(settings.evaUserSkills(), true);
      assert.deepEqual(settings.evaRuntime(), { mode: 'normal', teamWorker: false, interactiveUser: false });
    } finally {
      workspace.getConfiguration = getConfiguration;
    }
  });
});

/** The homes the extension indexes reach the file system as the agents spell them: `..` after a link is the target's parent. */
describe('extension settings: homes kept as spelled', () => {
  const settings = loadWithVscode(() => require('../../src/extension/settings') as Settings);
  const saved = { CODEWHALE_HOME: process.env.CODEWHALE_HOME, HOME: process.env.HOME };
  let f: Fixture;
  const spelled = (rel: string) => `${f.root}/${rel}`;
  beforeEach(() => {
    vscodeStandIn.reset();
    f = new Fixture();
    f.mkdir('deep/a');
    f.mkdir('deep/cwh');
    f.symlink(f.path('deep/a'), 'lnk');
  });
  afterEach(() => {
    f.remove();
    vscodeStandIn.reset();
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });

  it('resolves `..` in CODEWHALE_HOME, HOME and the home settings as the OS does, never lexically', () => {
    process.env.CODEWHALE_HOME = spelled('lnk/../cwh');
    process.env.HOME = spelled('lnk/..');
    assert.equal(settings.codewhaleHome(), f.path('deep/cwh'));
    assert.equal(settings.evaHome(), f.path('deep'));
    delete process.env.CODEWHALE_HOME;
    assert.equal(settings.codewhaleHome(), f.path('deep/.codewhale'));
    vscodeStandIn.settings.set('skillgate.codewhaleHome', { globalValue: spelled('lnk/../cwh') });
    vscodeStandIn.settings.set('skillgate.eva.home', { globalValue: '~/..' });
    process.env.HOME = f.path('lnk');
    assert.equal(settings.codewhaleHome(), f.path('deep/cwh'));
    assert.equal(settings.evaHome(), f.path('deep'));
  });

  it('expands a leading `~` in a home setting as Codewhale expands $CODEWHALE_HOME: `~`, `~/x` and `~\\x`, not `~user`', () => {
    process.env.HOME = f.path('deep');
    delete process.env.CODEWHALE_HOME;
    // The codewhaleHome setting stands in for $CODEWHALE_HOME: one value names one directory.
    for (const [value, home] of [
      ['~\\cwh', f.path('deep/cwh')],
      ['~/cwh', f.path('deep/cwh')],
      ['~', f.path('deep')],
      ['~user/cwh', path.resolve('~user/cwh')],
    ] as const) {
      vscodeStandIn.settings.set('skillgate.codewhaleHome', { globalValue: value });
      vscodeStandIn.settings.set('skillgate.eva.home', { globalValue: value });
      vscodeStandIn.settings.set('skillgate.stateDirectory', { globalValue: value });
      assert.deepEqual(
        [settings.codewhaleHome(), settings.evaHome(), settings.stateDirectory()],
        [home, home, home],
        value,
      );
      if (!value.startsWith('~user'))
        assert.equal(codewhaleHomeFromEnv({ CODEWHALE_HOME: value }, f.path('deep')), home);
    }
  });
});
