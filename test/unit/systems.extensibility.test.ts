import { strict as assert } from 'node:assert';
import { run } from '../../src/cli/main';
import { registerSystem } from '../../src/core/systems/registry';
import { Indexer } from '../../src/core/index/indexer';
import { childNodes, type TreeNode } from '../../src/extension/tree/treeNodes';
import { Fixture } from './helpers/fixture';
import { review } from '../../src/core/trust/reviewBundle';
import { TrustStore } from '../../src/core/trust/trustStore';
import { reviewViewModel } from '../../src/core/review/reviewViewModel';
import type { Item } from '../../src/core/model';
import { TOY_ID, toySystem } from './helpers/toySystem';

/**
 * Adding an agent is one folder and one registry line (docs/architecture.md): a
 * test-only agent, registered here and nowhere else, reaches the CLI's `list`,
 * `validate`, `explain`, `check`, `trust`, and the snapshot the tree renders.
 */
describe('a new agent system needs nothing outside its folder', () => {
  let f: Fixture;
  let unregister: () => void;
  beforeEach(() => {
    f = new Fixture();
    f.write('ws/.toy/hello.md', 'Say hello.\n');
    f.write('ws/.toy/empty.md', '');
    unregister = registerSystem(toySystem);
  });
  afterEach(() => {
    unregister();
    f.remove();
  });

  const cli = async (...args: string[]) => {
    let out = '';
    let err = '';
    const code = await run(args, {
      out: (t) => (out += t),
      err: (t) => (err += t),
      env: { SKILLGATE_STATE_DIR: f.path('state') },
      cwd: f.path('ws'),
    });
    return { code, out, err };
  };

  it('lists its items with their decisions (list --json, list)', async () => {
    const doc = JSON.parse((await cli('list', '--json', '--no-user')).out) as {
      items: { system: string; name: string; decision: string; reasons: string[] }[];
    };
    const toy = doc.items.filter((i) => i.system === TOY_ID).map((i) => [i.name, i.decision, i.reasons[0]]);
    assert.deepEqual(toy, [
      ['empty', 'rejected', 'skill_invalid'],
      ['hello', 'registered', 'loaded_unreviewed'],
    ]);
    assert.match((await cli('list', '--no-user')).out, /^ {2}Toy$/m);
  });

  it('reports its diagnostics (validate --json, SARIF)', async () => {
    const doc = JSON.parse((await cli('validate', '--json', '--no-user')).out) as {
      diagnostics: { code: string; message: string }[];
    };
    assert.deepEqual(
      doc.diagnostics.filter((d) => d.code.startsWith('toy.')).map((d) => d.message),
      ['a toy skill may not be empty'],
    );
    const sarif = JSON.parse((await cli('validate', '--format', 'sarif', '--no-user')).out) as {
      runs: { results: { ruleId: string }[] }[];
    };
    assert.ok(sarif.runs[0]?.results.some((r) => r.ruleId === 'toy.empty'));
  });

  it('explains a decision', async () => {
    const r = await cli('explain', 'hello', '--no-user');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /system: toy/);
    // An agent with no sentence of its own gets the shared one, which names no agent.
    assert.match(r.out, /loaded_unreviewed: Its agent loads it whatever Skillgate says/);
    assert.match(r.out, /no enable switch \(Toy has none\)|no enable switch/);
  });

  it('fails check until its loaded units are trusted, and trusts one by its token', async () => {
    const failing = await cli('check', '--no-user');
    assert.equal(failing.code, 1);
    assert.match(failing.err + failing.out, /toy skill hello/);
    const token = (
      JSON.parse((await cli('list', '--json', '--no-user')).out) as { items: { name: string; reviewToken: string }[] }
    ).items.find((i) => i.name === 'hello')?.reviewToken as string;
    const trusted = await cli('trust', 'hello', token, '--no-user');
    assert.equal(trusted.code, 0, trusted.err);
    const after = JSON.parse((await cli('list', '--json', '--no-user')).out) as {
      items: { name: string; trust: string; reasons: string[] }[];
    };
    assert.deepEqual(
      after.items.filter((i) => i.name === 'hello').map((i) => [i.trust, i.reasons[0]]),
      [['trusted', 'active']],
    );
    // What is left failing is the empty one, which is invalid.
    const still = await cli('check', '--no-user');
    assert.doesNotMatch(still.err + still.out, /toy skill hello/);
    assert.match(still.err + still.out, /toy skill empty/);
  });

  it("reviews a unit with its contract in the agent's terms (review, and the panel's view model)", async () => {
    const r = await cli('review', 'hello', '--no-user');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^Toy contract:\n {2}greets {2}yes$/m);
    const snapshot = new Indexer({ workspaces: [f.path('ws')], codewhaleHome: null }).indexAll();
    const item = snapshot.items.find((i) => i.name === 'hello');
    const report = review(item as Item, { store: new TrustStore(f.path('state')) });
    assert.ok(report.ok);
    assert.deepEqual(reviewViewModel(report.value, snapshot, false).contract, {
      title: 'Toy contract',
      rows: [{ label: 'greets', value: { text: 'yes', hidden: false } }],
    });
  });

  it('appears in the snapshot the tree renders, under its own agent node', () => {
    const snapshot = new Indexer({ workspaces: [f.path('ws')], codewhaleHome: null }).indexAll();
    const [folder] = childNodes(snapshot);
    const systems = childNodes(snapshot, folder as TreeNode);
    const toy = systems.find((n) => n.kind === 'system' && n.system === TOY_ID);
    assert.ok(toy, JSON.stringify(systems.map((n) => n.id)));
    assert.deepEqual(
      childNodes(snapshot, toy).map((n) => (n.kind === 'item' ? n.item.name : n.kind)),
      ['empty', 'hello'],
    );
  });
});
