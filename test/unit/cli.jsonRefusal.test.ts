import { strict as assert } from 'node:assert';
import { runCli } from './helpers/runCli';
import { Fixture, writeW } from './helpers/fixture';

/**
 * cli.md: "Errors go to stderr as one clear sentence", and other commands with `--json` print
 * `{ ok, message, ... }`. A refused operation with `--json` does both: the object on standard
 * output for a script, the sentence on standard error for the person reading the CI log.
 */
describe('cli: a refused operation with --json', () => {
  let f: Fixture;
  beforeEach(() => {
    f = new Fixture();
    writeW(f);
  });
  afterEach(() => f.remove());

  const cli = (...args: string[]) =>
    runCli([...args, '--no-user'], { SKILLGATE_STATE_DIR: f.path('state') }, f.path('ws'));

  it('prints the object on stdout and the sentence on stderr', async () => {
    const r = await cli('enable', 'example-plugin', '--json');
    assert.equal(r.code, 1);
    const json = JSON.parse(r.out) as { ok: boolean; message: string };
    assert.equal(json.ok, false);
    assert.equal(r.err, `skillgate: ${json.message}\n`);
  });

  it('prints nothing on stderr when the operation succeeds', async () => {
    const review = JSON.parse((await cli('review', 'example-plugin', '--json')).out) as { reviewToken: string };
    const r = await cli('trust', 'example-plugin', review.reviewToken, '--json');
    assert.deepEqual([r.code, JSON.parse(r.out).ok, r.err], [0, true, '']);
  });
});
