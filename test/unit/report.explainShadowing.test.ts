import { strict as assert } from 'node:assert';
import { Fixture, index, writeD } from './helpers/fixture';
import type { Snapshot } from '../../src/core/index/snapshot';
import { explainItem } from '../../src/core/report/explain';
import { envelope } from '../../src/core/report/contract';
import type { Item } from '../../src/core/model';

/**
 * `explain` and the JSON contract on a shadowed Codewhale bundle (decisions.md "Explain",
 * "Precedence and shadowing"; cli.md "JSON output"): who shadows whom, from both sides,
 * the part a child belongs to, the gates as they are, and only the item's own diagnostics.
 * The user's home lies inside the workspace folder (a workspace opened at the home).
 */
describe('explain and the JSON contract on a shadowed bundle', () => {
  let f: Fixture;
  let snapshot: Snapshot;
  const find = (scope: Item['scope'], qualifiedName: string): Item => {
    const found = snapshot.items.find((i) => i.scope === scope && i.qualifiedName === qualifiedName);
    assert.ok(found, `${scope} ${qualifiedName}`);
    return found;
  };
  const section = (item: Item, title: string): readonly string[] => {
    const s = explainItem(snapshot, item).find((x) => x.title === title);
    assert.ok(s, `${title} in explain of ${item.id}`);
    return s.lines;
  };

  beforeEach(() => {
    f = new Fixture();
    writeD(f);
    writeD(f, '[skills]\npath = "skills"\n', '.codewhale/plugins/demo');
    f.write('.codewhale/plugins/demo/skills/example/SKILL.md', '---\nname: example\ndescription: example\n---\nbody\n');
    snapshot = index([f.root], { codewhaleHome: f.path('home') });
  });
  afterEach(() => f.remove());

  it('names the winner on the loser and the loser on the winner', () => {
    const winner = find('user', 'demo');
    const loser = find('workspace', 'demo');
    assert.deepEqual(
      [loser.decision, loser.reasons, loser.shadowedBy],
      ['shadowed', ['name_conflict', 'not_reviewed', 'not_enabled'], winner.id],
    );
    assert.ok(
      section(loser, 'Source').includes(`shadowed by: ${winner.id} at ${f.path('home/plugins/demo')}`),
      section(loser, 'Source').join('\n'),
    );
    assert.deepEqual(section(loser, 'Conflicts'), [`loses to ${winner.id}`]);
    assert.deepEqual(section(winner, 'Conflicts'), [`shadows ${loser.id} at .codewhale/plugins/demo`]);
  });

  it('says in the source whom the winner shadows, as it says on the loser who shadows it', () => {
    const loser = find('workspace', 'demo');
    assert.ok(
      section(find('user', 'demo'), 'Source').includes(`shadows: ${loser.id} at .codewhale/plugins/demo`),
      section(find('user', 'demo'), 'Source').join('\n'),
    );
  });

  it("says a child's bundle and its decision", () => {
    const child = find('workspace', 'demo:example');
    assert.ok(section(child, 'Source').includes('part of: demo (shadowed)'), section(child, 'Source').join('\n'));
  });

  it('states the gates as they are: enable bit off, applicable to this host', () => {
    const gates = section(find('user', 'demo'), 'Gates');
    assert.ok(gates.includes('enabled: false'), gates.join('\n'));
    assert.ok(gates.includes('applies to this host: yes'), gates.join('\n'));
  });

  it("lists the item's own diagnostics, the name conflict at its manifest", () => {
    const lines = section(find('workspace', 'demo'), 'Diagnostics');
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(
      lines[0] as string,
      /^\.codewhale\/plugins\/demo\/plugin\.toml:\d+:\d+: warning codewhale\.name-conflict: /,
    );
  });

  it('carries shadowedBy into the JSON contract, and a user bundle path stays absolute inside a workspace', () => {
    const doc = JSON.parse(JSON.stringify(envelope(snapshot))) as {
      items: { id: string; scope: string; path: string; shadowedBy: string | null; qualifiedName: string }[];
    };
    const winner = doc.items.find((i) => i.scope === 'user' && i.qualifiedName === 'demo');
    const loser = doc.items.find((i) => i.scope === 'workspace' && i.qualifiedName === 'demo');
    assert.equal(loser?.shadowedBy, winner?.id);
    assert.equal(winner?.shadowedBy, null);
    assert.equal(winner?.path, f.path('home/plugins/demo'));
    assert.equal(loser?.path, '.codewhale/plugins/demo');
  });
});
