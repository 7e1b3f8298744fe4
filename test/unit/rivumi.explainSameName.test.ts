import { strict as assert } from 'node:assert';
import { Fixture, index } from './helpers/fixture';
import type { Snapshot } from '../../src/core/index/snapshot';
import { explainItem } from '../../src/core/report/explain';
import { contractDetail } from '../../src/core/report/contract';
import type { Item } from '../../src/core/model';

/**
 * `explain` on Rivumi's same-named skills and plugins (decisions.md "Precedence and shadowing",
 * "Explain"; rivumi.md §3.5, §3.6, §5.5): both load and stay registered, and a selection by name
 * picks the later one, so the Conflicts section of each names the other, where it is, and which
 * one a selection picks.
 */
describe('explain names the other of a Rivumi same-name pair', () => {
  let f: Fixture;
  let snapshot: Snapshot;
  const ws = () => f.path('ws');
  const item = (path: string, entry?: number): Item => {
    const found = snapshot.items.find(
      (i) => i.path === f.path('ws', path) && (entry === undefined || i.id.endsWith(`#skills/${entry}`)),
    );
    assert.ok(found, path);
    return found;
  };
  const conflicts = (i: Item): readonly string[] =>
    explainItem(snapshot, i).find((s) => s.title === 'Conflicts')?.lines ?? [];

  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  it('names each of two same-named project skills on the other, the later one picked', () => {
    f.write('ws/.rivumi/skills/a.md', '---\nname: same\n---\nA');
    f.write('ws/.rivumi/skills/b.md', '---\nname: same\n---\nB');
    snapshot = index([ws()]);
    const [a, b] = [item('.rivumi/skills/a.md'), item('.rivumi/skills/b.md')];
    assert.deepEqual([a.decision, b.decision], ['registered', 'registered']);
    assert.deepEqual(conflicts(a), [
      `skill name same is also used by ${b.id} at .rivumi/skills/b.md, later in Rivumi's load order: a selection by name (enabled_skills) picks that one`,
    ]);
    assert.deepEqual(conflicts(b), [
      `skill name same is also used by ${a.id} at .rivumi/skills/a.md, earlier in Rivumi's load order: a selection by name (enabled_skills) picks this one`,
    ]);
  });

  it('pairs a project skill file pk.x.md with the plugin skill pk.x, the plugin skill picked', () => {
    f.write('ws/.rivumi/skills/pk.x.md', 'project');
    f.write('ws/.rivumi/plugins/pk.json', '{"skills": [{"path": "x.md"}]}');
    f.write('ws/.rivumi/plugins/x.md', 'plugin');
    snapshot = index([ws()]);
    const project = item('.rivumi/skills/pk.x.md');
    const plugin = item('.rivumi/plugins/x.md');
    assert.deepEqual([project.qualifiedName, plugin.qualifiedName], ['pk.x', 'pk.x']);
    assert.deepEqual(conflicts(project), [
      `skill name pk.x is also used by ${plugin.id} at .rivumi/plugins/x.md, later in Rivumi's load order: a selection by name (enabled_skills) picks that one`,
    ]);
    assert.deepEqual(conflicts(plugin), [
      `skill name pk.x is also used by ${project.id} at .rivumi/skills/pk.x.md, earlier in Rivumi's load order: a selection by name (enabled_skills) picks this one`,
    ]);
  });

  it('tells apart two entries of one file by their ids, and names every other of three', () => {
    f.write('ws/.rivumi/skills/pk.x.md', 'project');
    f.write('ws/.rivumi/plugins/pk.json', '{"skills": [{"path": "x.md"}, {"path": "./x.md"}]}');
    f.write('ws/.rivumi/plugins/x.md', 'plugin');
    snapshot = index([ws()]);
    const [project, first, second] = [
      item('.rivumi/skills/pk.x.md'),
      item('.rivumi/plugins/x.md', 0),
      item('.rivumi/plugins/x.md', 1),
    ];
    assert.deepEqual(conflicts(first), [
      `skill name pk.x is also used by ${project.id} at .rivumi/skills/pk.x.md, earlier in Rivumi's load order`,
      `skill name pk.x is also used by ${second.id} at .rivumi/plugins/x.md, later in Rivumi's load order: a selection by name (enabled_skills) picks that one`,
    ]);
    assert.deepEqual(conflicts(second), [
      `skill name pk.x is also used by ${project.id} at .rivumi/skills/pk.x.md, earlier in Rivumi's load order: a selection by name (enabled_skills) picks this one`,
      `skill name pk.x is also used by ${first.id} at .rivumi/plugins/x.md, earlier in Rivumi's load order: a selection by name (enabled_skills) picks this one`,
    ]);
  });

  it('names each of two same-named plugins on the other', () => {
    f.write('ws/.rivumi/plugins/a.json', '{"name": "pk"}');
    f.write('ws/.rivumi/plugins/b.json', '{"name": "pk"}');
    snapshot = index([ws()]);
    const [a, b] = [item('.rivumi/plugins/a.json'), item('.rivumi/plugins/b.json')];
    assert.deepEqual(conflicts(a), [
      `plugin name pk is also used by ${b.id} at .rivumi/plugins/b.json, later in Rivumi's load order: a selection by name picks that one`,
    ]);
    assert.deepEqual(conflicts(b), [
      `plugin name pk is also used by ${a.id} at .rivumi/plugins/a.json, earlier in Rivumi's load order: a selection by name picks this one`,
    ]);
  });

  it('pairs no skill Rivumi never loads: the plugin skill pk.x past the cap leaves pk.x.md without a conflict', () => {
    for (let i = 0; i < 15; i++) f.write(`ws/.rivumi/skills/a${String(i).padStart(2, '0')}.md`, 'x');
    f.write('ws/.rivumi/skills/pk.x.md', 'project');
    f.write('ws/.rivumi/plugins/pk.json', '{"skills": [{"path": "x.md"}]}');
    f.write('ws/.rivumi/plugins/x.md', 'plugin');
    snapshot = index([ws()]);
    const plugin = item('.rivumi/plugins/x.md');
    assert.deepEqual([plugin.qualifiedName, plugin.reasons], ['pk.x', ['skill_limit_exceeded']]);
    assert.deepEqual(conflicts(item('.rivumi/skills/pk.x.md')), []);
    assert.deepEqual(conflicts(plugin), []);
  });

  it('keeps the pair out of the JSON contract: show --json detail is as before', () => {
    f.write('ws/.rivumi/skills/a.md', '---\nname: same\n---\nA');
    f.write('ws/.rivumi/skills/b.md', '---\nname: same\n---\nB');
    snapshot = index([ws()]);
    assert.deepEqual(contractDetail(item('.rivumi/skills/a.md'), []), { description: '' });
  });
});
