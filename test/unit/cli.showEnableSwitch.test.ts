import { strict as assert } from 'node:assert';
import { runCli } from './helpers/runCli';
import { Fixture } from './helpers/fixture';

/**
 * `show` states the enable bit as explain and review do: a bundle of an agent without an
 * enable switch (Rivumi, Eva-CLI) says so, never `enabled: null`.
 */
describe('cli: show and the enable switch', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  it('says a Rivumi plugin has no enable switch', async () => {
    f.write('ws/.rivumi/plugins/pack.json', JSON.stringify({ name: 'pack', skills: [] }));
    const { code, out } = await runCli(
      ['show', 'pack', '--no-user'],
      { SKILLGATE_STATE_DIR: f.path('state') },
      f.path('ws'),
    );
    assert.equal(code, 0, out);
    assert.match(out, /^ {2}trust: not-reviewed, no enable switch \(Rivumi has none\)$/m);
    assert.doesNotMatch(out, /enabled: null/);
  });
});
