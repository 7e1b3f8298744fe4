import { strict as assert } from 'node:assert';
import { Fixture } from './helpers/fixture';
import { loadRivumiProject } from '../../src/core/systems/rivumi/load';
import { rivumiItems } from '../../src/core/systems/rivumi/items';
import type { TrustView } from '../../src/core/decisions/trustView';
import type { Item } from '../../src/core/model';

const json = (v: unknown) => JSON.stringify(v, null, 2);
const EMPTY: TrustView = { available: true, lookup: () => undefined };

/**
 * A plugin outlives an aborted skill load only through hooks Rivumi runs (decisions.md
 * "Precedence and shadowing"): the opt-in and a hook load that succeeds are not enough by
 * themselves; the plugin must declare hooks for Rivumi to load anything of it.
 */
describe('Rivumi: a failed skill load beside a hook load that runs', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const fate = (items: readonly Item[], qualifiedName: string) => {
    const i = items.find((x) => x.qualifiedName === qualifiedName);
    assert.ok(i, `${qualifiedName} in ${items.map((x) => x.qualifiedName).join(', ')}`);
    return [i.decision, i.reasons];
  };

  it('aborts a plugin without hooks although the opt-in is set and the project hooks run', () => {
    f.write('ws/.rivumi/skills/bad.md', '   ');
    f.write('ws/.rivumi/hooks.json', json({ pre_compact: [{ command: ['true'] }] }));
    f.write('ws/.rivumi/plugins/a.md', 'Check the risks.');
    f.write('ws/.rivumi/plugins/pk.json', json({ skills: [{ path: 'a.md' }] }));
    const project = loadRivumiProject(f.path('ws'));
    assert.equal(project.hookLoad, null, 'the hook load succeeds');
    const { items } = rivumiItems(project, { trust: EMPTY, workspaceTrusted: true, hooksOptIn: true });
    // The hooks file runs: Rivumi loads it.
    assert.deepEqual(fate(items, 'hooks.json'), ['registered', ['loaded_unreviewed', 'not_reviewed']]);
    // The plugin has only skills, and the skill load fails: Rivumi loads nothing of it.
    assert.deepEqual(fate(items, 'pk'), ['rejected', ['load_aborted', 'not_reviewed']]);
    assert.deepEqual(fate(items, 'pk.a'), ['rejected', ['load_aborted']]);
  });
});
