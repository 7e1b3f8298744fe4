import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { Fixture } from './helpers/fixture';

/**
 * The trust store loads its locking library with its first write: a read-only command
 * never pays for loading it, nor runs every file the index closes through the
 * `fs.closeSync` wrapper graceful-fs (which it loads) installs for the whole process.
 */
describe('the trust store loads its locking library only to write', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  it('a `list` leaves it unloaded and fs.closeSync as Node made it; a write loads it', () => {
    const repo = path.resolve(__dirname, '../..');
    const script = `
      const fs = require('node:fs');
      const closeSync = fs.closeSync;
      const loaded = () => Object.keys(require.cache).filter((k) => /[\\\\/](proper-lockfile|graceful-fs)[\\\\/]/.test(k)).length > 0;
      const { run } = require(${JSON.stringify(path.join(repo, 'src/cli/main'))});
      const { TrustStore } = require(${JSON.stringify(path.join(repo, 'src/core/trust/trustStore'))});
      const io = { out: () => {}, err: (t) => process.stderr.write(t), env: {}, cwd: ${JSON.stringify(f.mkdir('ws'))} };
      (async () => {
        const code = await run(['list', '--no-user', '--no-cache', '--state-dir', '../state'], io);
        const afterList = { code, loaded: loaded(), closeSync: fs.closeSync === closeSync };
        await new TrustStore(${JSON.stringify(f.path('state'))}).mutate(() => ({ ok: true, value: null }));
        process.stdout.write(JSON.stringify({ afterList, afterWrite: loaded() }));
      })();
    `;
    const out = execFileSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: repo, encoding: 'utf8' });
    assert.deepEqual(JSON.parse(out), { afterList: { code: 0, loaded: false, closeSync: true }, afterWrite: true });
  });
});
