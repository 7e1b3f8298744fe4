import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { CLI_V8_FLAGS, cliV8Flags } from '../../src/cli/v8Flags';

/**
 * The V8 options the `skillgate` binary sets for itself (src/cli/v8Flags.ts). V8 ignores
 * an option it does not know but prints "unrecognized flag" on standard error, which
 * would reach every user of the CLI: each one must be known to this Node's V8.
 */
describe('the V8 options of the skillgate binary', () => {
  const stderrOf = (flag: string) =>
    spawnSync(process.execPath, ['-e', `require('node:v8').setFlagsFromString(${JSON.stringify(flag)})`], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    }).stderr;

  it('are options this V8 knows: setting one prints nothing', () => {
    assert.ok(CLI_V8_FLAGS.length > 0);
    for (const flag of CLI_V8_FLAGS) assert.equal(stderrOf(flag), '', flag);
  });

  it("are set only on the V8 they were measured on (Node 20's)", () => {
    assert.deepEqual(cliV8Flags('12.4.254.21-node.33'), []);
    assert.deepEqual(cliV8Flags('11.3.244.8-node.38'), CLI_V8_FLAGS);
  });

  it('would show an option this V8 does not know', () => {
    assert.match(stderrOf('--no-such-skillgate-option'), /unrecognized flag/);
  });
});
