import { strict as assert } from 'node:assert';
import * as os from 'node:os';
import * as path from 'node:path';
import { defaultStateDirectory } from '../../src/core/trust/stateDirectory';

/** trust.md "The trust store": `$SKILLGATE_STATE_DIR`, else the platform's per-user state directory. */
describe('where the trust store lives (trust.md)', () => {
  const home = os.homedir();

  it('takes $SKILLGATE_STATE_DIR first, made absolute, on every platform', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      assert.equal(
        defaultStateDirectory({ SKILLGATE_STATE_DIR: 'rel/state', XDG_STATE_HOME: '/xdg' }, platform),
        path.resolve('rel/state'),
      );
    }
  });

  it('uses $XDG_STATE_HOME/skillgate on Linux when it is absolute, else ~/.local/state/skillgate', () => {
    assert.equal(defaultStateDirectory({ XDG_STATE_HOME: '/xdg' }, 'linux'), path.join('/xdg', 'skillgate'));
    assert.equal(
      defaultStateDirectory({ XDG_STATE_HOME: 'relative' }, 'linux'),
      path.join(home, '.local', 'state', 'skillgate'),
    );
    assert.equal(
      defaultStateDirectory({ XDG_STATE_HOME: '' }, 'linux'),
      path.join(home, '.local', 'state', 'skillgate'),
    );
    assert.equal(defaultStateDirectory({}, 'linux'), path.join(home, '.local', 'state', 'skillgate'));
    assert.equal(
      defaultStateDirectory({ SKILLGATE_STATE_DIR: '' }, 'linux'),
      path.join(home, '.local', 'state', 'skillgate'),
    );
  });

  it('uses Application Support on macOS and %LOCALAPPDATA% on Windows', () => {
    assert.equal(
      defaultStateDirectory({ XDG_STATE_HOME: '/xdg' }, 'darwin'),
      path.join(home, 'Library', 'Application Support', 'skillgate'),
    );
    assert.equal(defaultStateDirectory({ LOCALAPPDATA: '/local' }, 'win32'), path.join('/local', 'skillgate'));
    assert.equal(defaultStateDirectory({}, 'win32'), path.join(home, 'AppData', 'Local', 'skillgate'));
  });
});
