import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli, type CliResult } from './helpers/runCli';
import { codewhaleHomeFromEnv, codewhaleUserHome, evaUserHome, userHome } from '../../src/core/fs/userHome';

import { defaultStateDirectory } from '../../src/core/trust/stateDirectory';
import { parseCommandLine } from '../../src/cli/options';
import { Fixture, writeD } from './helpers/fixture';

const cli = (args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<CliResult> =>
  runCli(args, { SKILLGATE_STATE_DIR: path.join(cwd, '..', 'state'), ...env }, cwd);

/** Runs `body` with `$HOME` set to `value` (os.homedir() reads the process environment). */
async function withHome<T>(value: string, body: () => Promise<T> | T): Promise<T> {
  const before = process.env.HOME;
  process.env.HOME = value;
  try {
    return await body();
  } finally {
    if (before === undefined) delete process.env.HOME;
    else process.env.HOME = before;
  }
}

/** The user's homes (codewhale.md §2.1, eva.md §1.3): never the working directory by accident. */
describe('user homes from the environment', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  it('reads CODEWHALE_HOME as upstream does: trimmed, and empty or blank counts as unset', () => {
    assert.equal(codewhaleHomeFromEnv({}, '/home/u'), path.join('/home/u', '.codewhale'));
    assert.equal(codewhaleHomeFromEnv({ CODEWHALE_HOME: '' }, '/home/u'), path.join('/home/u', '.codewhale'));
    assert.equal(codewhaleHomeFromEnv({ CODEWHALE_HOME: ' \t\n' }, '/home/u'), path.join('/home/u', '.codewhale'));
    assert.equal(codewhaleHomeFromEnv({ CODEWHALE_HOME: '  /opt/cw  ' }, '/home/u'), '/opt/cw');
    // No home at all: user discovery is disabled, never pointed at the working directory.
    assert.equal(codewhaleHomeFromEnv({}, undefined), null);
  });

  it('expands a leading ~ in CODEWHALE_HOME and refuses a relative one, as codewhale_paths does', () => {
    assert.equal(codewhaleHomeFromEnv({ CODEWHALE_HOME: '~' }, '/home/u'), '/home/u');
    assert.equal(codewhaleHomeFromEnv({ CODEWHALE_HOME: ' ~/cw ' }, '/home/u'), '/home/u/cw');
    assert.equal(codewhaleHomeFromEnv({ CODEWHALE_HOME: '~//a/../b' }, '/home/u'), '/home/u/a/../b');
    // A relative value would resolve against the working directory (the repository): user discovery is off.
    assert.equal(codewhaleHomeFromEnv({ CODEWHALE_HOME: 'cw' }, '/home/u'), null);
    assert.equal(codewhaleHomeFromEnv({ CODEWHALE_HOME: './cw' }, '/home/u'), null);
    assert.equal(codewhaleHomeFromEnv({ CODEWHALE_HOME: '~user/cw' }, '/home/u'), null);
    // `~` with no home to expand it: disabled, not the working directory's `~`.
    assert.equal(codewhaleHomeFromEnv({ CODEWHALE_HOME: '~/cw' }, undefined), null);
  });

  it('with CODEWHALE_HOME="" lists the bundles under ~/.codewhale, not the repository`s plugins/ as user bundles', async () => {
    writeD(f, '', 'home/.codewhale/plugins/mine');
    writeD(f, '', 'ws/plugins/evil');
    const r = await withHome(f.path('home'), () =>
      cli(['list', '--json', '--no-cache'], f.path('ws'), { HOME: f.path('home'), CODEWHALE_HOME: '' }),
    );
    assert.equal(r.code, 0, r.err);
    const items = JSON.parse(r.out).items as { scope: string; path: string }[];
    assert.deepEqual(
      items.map((i) => [i.scope, i.path]),
      [['user', f.path('home/.codewhale/plugins/mine')]],
    );
  });

  it('never takes an empty or relative HOME as the home: the account home instead', async () => {
    for (const value of ['', 'relative/home']) {
      const home = await withHome(value, () => userHome());
      assert.ok(home === undefined || path.isAbsolute(home), `HOME=${JSON.stringify(value)} gave ${home}`);
      if (home !== undefined) assert.equal(home, os.userInfo().homedir);
    }
    assert.equal(await withHome('/some/home', () => userHome()), '/some/home');
  });

  it('with HOME="" keeps the workspace bundles in the workspace and the trust store out of the working directory', async () => {
    const ws = f.path('ws');
    writeD(f, '', 'ws/.codewhale/plugins/demo');
    const parsed = await withHome('', () => parseCommandLine(['list'], {}, ws));
    assert.notEqual(parsed.options.codewhaleHome, path.join(ws, '.codewhale'));
    assert.notEqual(parsed.options.evaHome, ws);
    const state = await withHome('', () => defaultStateDirectory({}, 'linux'));
    assert.ok(path.isAbsolute(state), state);
  });

  it('resolves the user home as codewhale_paths user_home does: a set but relative HOME is no home, no fall back', () => {
    const account = () => '/home/account';
    // HOME trimmed as Rust trims (U+0085 is White_Space, a byte-order mark is not); blank is unset.
    assert.equal(codewhaleUserHome({ HOME: ' /home/u\t' }, account, 'linux'), '/home/u');
    assert.equal(codewhaleUserHome({ HOME: '\u0085/home/u' }, account, 'linux'), '/home/u');
    assert.equal(codewhaleUserHome({ HOME: '\ufeff/home/u' }, account, 'linux'), undefined);
    // "An explicit invalid home is an error, not permission to fall back": no account home, no USERPROFILE.
    for (const HOME of ['relhome', '.', '~'])
      assert.equal(codewhaleUserHome({ HOME, USERPROFILE: '/p' }, account, 'linux'), undefined, HOME);
    // Unset or empty HOME: USERPROFILE first, on every platform, then dirs::home_dir (the passwd entry).
    assert.equal(codewhaleUserHome({ USERPROFILE: '/p' }, account, 'linux'), '/p');
    assert.equal(codewhaleUserHome({ HOME: '', USERPROFILE: ' /p ' }, account, 'linux'), '/p');
    assert.equal(codewhaleUserHome({ HOME: '' }, account, 'linux'), '/home/account');
    assert.equal(codewhaleUserHome({ USERPROFILE: 'rel' }, account, 'linux'), '/home/account');
    // A blank HOME is unset for codewhale_paths but dirs::home_dir takes it as it is: relative, so none.
    assert.equal(codewhaleUserHome({ HOME: '   ' }, account, 'linux'), undefined);
  });

  it('turns Codewhale user discovery off where upstream cannot resolve its home', () => {
    const codewhaleHomeOf = (env: Record<string, string>) => codewhaleHomeFromEnv(env, codewhaleUserHome(env));
    assert.equal(codewhaleHomeOf({ HOME: 'relhome' }), null);
    assert.equal(codewhaleHomeOf({ HOME: 'relhome', CODEWHALE_HOME: '~/cw' }), null);
    assert.equal(codewhaleHomeOf({ HOME: '   ', CODEWHALE_HOME: '~/cw' }), null);
    assert.equal(codewhaleHomeOf({ HOME: 'relhome', CODEWHALE_HOME: '/opt/cw' }), '/opt/cw');
    assert.equal(codewhaleHomeOf({ HOME: ' /home/u ', CODEWHALE_HOME: '~/cw' }), '/home/u/cw');
    assert.equal(codewhaleHomeOf({ HOME: '/home/u', CODEWHALE_HOME: '\ufeff/opt/cw' }), null);
    assert.equal(codewhaleHomeOf({ HOME: '/home/u', CODEWHALE_HOME: '\u0085/opt/cw' }), '/opt/cw');
  });

  it('lists the user bundles of the home Codewhale reads: HOME padded, or USERPROFILE when HOME is unset', async () => {
    writeD(f, '', 'home/.codewhale/plugins/mine');
    f.mkdir('ws');
    for (const env of [{ HOME: ` ${f.path('home')} ` }, { HOME: '', USERPROFILE: f.path('home') }]) {
      const r = await cli(['list', '--json', '--no-cache'], f.path('ws'), env);
      assert.equal(r.code, 0, r.err);
      const items = JSON.parse(r.out).items as { scope: string; path: string }[];
      assert.deepEqual(
        items.map((i) => [i.scope, i.path]),
        [['user', f.path('home/.codewhale/plugins/mine')]],
        JSON.stringify(env),
      );
    }
  });

  it('with a relative HOME lists no Codewhale user bundle, as Codewhale loads none', () => {
    const parsed = parseCommandLine(['list'], { HOME: 'relhome' }, f.mkdir('ws'));
    assert.equal(parsed.options.codewhaleHome, null);
  });

  it('reads Eva`s home as eva.md §1.3 says: $HOME, else %USERPROFILE%, never a relative one', () => {
    const account = () => '/home/account';
    assert.equal(evaUserHome({ HOME: '/h', USERPROFILE: '/p' }, account), '/h');
    assert.equal(evaUserHome({ USERPROFILE: '/p' }, account), '/p');
    assert.equal(evaUserHome({ HOME: '', USERPROFILE: '/p' }, account), '/p');
    assert.equal(evaUserHome({ HOME: 'rel', USERPROFILE: 'rel2' }, account), '/home/account');
    assert.equal(evaUserHome({}, account), '/home/account');
    const ws = f.mkdir('ws');
    assert.equal(parseCommandLine(['list'], { USERPROFILE: f.path('home') }, ws).options.evaHome, f.path('home'));
  });

  it('refuses an empty --state-dir or --cache-dir: never the current directory, never the per-user store in silence', async () => {
    const ws = f.mkdir('ws');
    for (const option of ['--state-dir', '--cache-dir']) {
      const r = await cli(['list', '--no-user', `${option}=`], ws, {});
      assert.equal(r.code, 2, `${option}: ${r.out}`);
      assert.match(r.err, new RegExp(`${option} needs a directory, but got an empty value`));
      assert.deepEqual(fs.readdirSync(ws), [], 'nothing written into the workspace');
    }
  });

  it('refuses an empty --codewhale-home or --eva-home instead of using the current directory', async () => {
    f.mkdir('ws');
    for (const option of ['--codewhale-home', '--eva-home']) {
      const r = await cli(['list', option, ''], f.path('ws'), {});
      assert.equal(r.code, 2, `${option}: ${r.out}`);
      assert.match(r.err, /empty value/);
    }
  });
});
