import { strict as assert } from 'node:assert';
import { run } from '../../src/cli/main';
import { Fixture, writeW } from './helpers/fixture';

/**
 * `disable` and `revoke` say whether they changed anything (cli.md: one clear sentence;
 * `--json` carries `changed`). A bundle already disabled, or already without a receipt,
 * is left as it is, and the answer says there was nothing to do.
 */
describe('cli: disable and revoke of what is already so', () => {
  let f: Fixture;
  beforeEach(() => {
    f = new Fixture();
    writeW(f);
  });
  afterEach(() => f.remove());

  const cli = async (...args: string[]) => {
    let out = '';
    const code = await run([...args, '--no-user'], {
      out: (t) => (out += t),
      err: (t) => (out += t),
      env: { SKILLGATE_STATE_DIR: f.path('state') },
      cwd: f.path('ws'),
    });
    return { code, out };
  };
  const trusted = async () => {
    const review = JSON.parse((await cli('review', 'example-plugin', '--json')).out);
    assert.equal((await cli('trust', 'example-plugin', review.reviewToken)).code, 0);
  };

  it('a second revoke changes nothing and says there is no trust record', async () => {
    await trusted();
    assert.equal(JSON.parse((await cli('revoke', 'example-plugin', '--json')).out).changed, true);
    const again = await cli('revoke', 'example-plugin', '--json');
    assert.equal(again.code, 0);
    assert.deepEqual(JSON.parse(again.out), {
      ok: true,
      message: 'example-plugin has no trust record; nothing to revoke.',
      id: JSON.parse(again.out).id,
      changed: false,
    });
  });

  it('disabling a trusted bundle that was never enabled changes nothing and says it is not enabled', async () => {
    await trusted();
    const r = await cli('disable', 'example-plugin');
    assert.deepEqual(r, { code: 0, out: 'example-plugin is not enabled; nothing to disable.\n' });
    assert.equal((await cli('enable', 'example-plugin')).code, 0);
    assert.deepEqual(await cli('disable', 'example-plugin'), { code: 0, out: 'Disabled example-plugin.\n' });
  });
});
