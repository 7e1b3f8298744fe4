import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { run } from '../../src/cli/main';
import { EvaIndex } from '../../src/core/systems/eva/evaIndex';
import { EMPTY_TRUST } from '../../src/core/decisions/trustView';
import { CORPUS, EvaFixture } from './helpers/evaFixture';

/**
 * `--no-user` (`skillgate.includeUserBundles: false`) lists no user skill folder, but the
 * home still expands `~/` in a project's `skill.path` (eva.md §1.3, §3.5): Eva-CLI
 * registers upstream's sample `code-review-skill` whatever Skillgate lists, so the
 * adapter's decision, and the `check` gate on it, must not change with the switch.
 */
describe('Eva with user skill folders turned off', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
    f.adapter(fs.readFileSync(path.join(CORPUS, 'config/adapters/code-review-skill.yaml')), 'code-review-skill.yaml');
    f.user('code-review');
    f.user('foo');
  });
  afterEach(() => f.remove());

  it('keeps a `~/` skill.path adapter registered and lists no user item or user folder watch', () => {
    const index = new EvaIndex({ workspaces: [f.ws], evaHome: f.home, evaUserSkills: false });
    for (const load of index.scan()) load();
    const items = index.compose({ trust: EMPTY_TRUST, workspaceTrusted: true }).items;
    assert.deepEqual(
      items.map((i) => [i.id, i.decision, i.reasons]),
      [[f.id('adapters/code-review-skill.yaml'), 'registered', ['loaded_unreviewed', 'not_reviewed']]],
    );
    assert.ok(!index.watchedTrees().some((t) => t.pattern === '{.codex,.agents}/skills/**'));
  });

  it('`check --no-user` fails on the unreviewed adapter Eva registers, as `check` does', async () => {
    const check = async (...extra: string[]) => {
      let out = '';
      // A Codewhale home only where user bundles are read: beside --no-user it is a usage error.
      const codewhaleHome = extra.includes('--no-user') ? [] : ['--codewhale-home', f.mkdir('cw')];
      const code = await run(['check', '--eva-home', f.home, ...codewhaleHome, ...extra], {
        out: (t) => (out += t),
        err: (t) => (out += t),
        env: { SKILLGATE_STATE_DIR: f.path('state') },
        cwd: f.ws,
      });
      return { code, out };
    };
    assert.equal((await check()).code, 1);
    const noUser = await check('--no-user');
    assert.equal(noUser.code, 1, noUser.out);
    assert.match(noUser.out, /code-review-skill/);
  });
});
