import { strict as assert } from 'node:assert';
import { Indexer } from '../../src/core/index/indexer';
import type { Diagnostic, Item } from '../../src/core/model';
import { inTurns, nextTurn, stepsInTurns } from '../../src/extension/flows/turns';
import { problemBatches, type ProblemEntry } from '../../src/extension/problems/problemBatches';
import { treeRowOf } from '../../src/extension/tree/treeRow';
import { itemAriaLabel, itemDescription, itemLabel, kindIcon } from '../../src/extension/tree/itemText';
import { contextValueOf } from '../../src/extension/tree/contextValue';
import { Fixture, LINUX_HOST, writeD, writeW } from './helpers/fixture';
import { itemOf } from './helpers/item';

/** Counts event-loop turns: a chain of setImmediate callbacks, one per turn, until stopped. */
function turnCounter(): { readonly now: () => number; readonly stop: () => void } {
  let turns = 0;
  let running = true;
  const tick = () => {
    turns++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return { now: () => turns, stop: () => (running = false) };
}

const diagnostic = (file: string, code: string): Diagnostic => ({
  file,
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
  severity: 'error',
  code,
  message: code,
  itemId: null,
});

/** A panel that shows `files`, each with a diagnostic no snapshot here has. */
const showing = (...files: string[]): Map<string, Diagnostic[]> =>
  new Map(files.map((file) => [file, [diagnostic(file, 'shown before')]]));

/** What one `set` of every entry leaves in the panel: file → codes, or null for a cleared file. */
function applied(batches: readonly (readonly ProblemEntry[])[]): Map<string, string[] | null> {
  const panel = new Map<string, string[] | null>();
  for (const batch of batches) for (const [file, ds] of batch) panel.set(file, ds ? ds.map((d) => d.code) : null);
  return panel;
}

describe('a snapshot shown over several event-loop turns (docs/editor-performance.md)', () => {
  describe('inTurns', () => {
    it('calls each element in order, a slice per turn, none in the caller’s turn', async () => {
      const turns = turnCounter();
      const seen: [number, number][] = [];
      const done = inTurns([0, 1, 2, 3, 4, 5, 6], 3, (x) => seen.push([x, turns.now()]));
      assert.equal(seen.length, 0, 'nothing runs in the turn that asked');
      assert.equal(await done, true);
      turns.stop();
      assert.deepEqual(
        seen.map(([x]) => x),
        [0, 1, 2, 3, 4, 5, 6],
      );
      const turnOf = seen.map(([, t]) => t);
      assert.equal(new Set(turnOf.slice(0, 3)).size, 1, 'a slice runs in one turn');
      assert.equal(new Set(turnOf.slice(3, 6)).size, 1);
      assert.ok((turnOf[0] as number) < (turnOf[3] as number), 'the second slice runs in a later turn');
      assert.ok((turnOf[3] as number) < (turnOf[6] as number), 'and the third in a later one still');
    });

    it('stops before the next slice once it is no longer wanted, and says so', async () => {
      const seen: number[] = [];
      let wanted = true;
      const done = inTurns(
        [0, 1, 2, 3, 4],
        2,
        (x) => {
          seen.push(x);
          if (x === 1) wanted = false;
        },
        () => wanted,
      );
      assert.equal(await done, false);
      assert.deepEqual(seen, [0, 1]);
    });

    it('has nothing to wait for with nothing to do', async () => {
      let called = false;
      const order: string[] = [];
      setImmediate(() => order.push('a later turn'));
      assert.equal(await inTurns([], 5, () => (called = true)), true);
      order.push('done');
      assert.equal(called, false);
      assert.deepEqual(order, ['done'], 'done in the caller’s turn');
    });

    it('is done with the last slice, even when no longer wanted after it', async () => {
      // Four elements, two a turn: the second slice ends the list, and no third turn asks.
      let wanted = true;
      const seen: number[] = [];
      const done = inTurns(
        [0, 1, 2, 3],
        2,
        (x) => {
          seen.push(x);
          if (x === 3) wanted = false;
        },
        () => wanted,
      );
      assert.equal(await done, true);
      assert.deepEqual(seen, [0, 1, 2, 3]);
    });

    it('stepsInTurns takes one step per turn until a step says it is done, or it is no longer wanted', async () => {
      const turns = turnCounter();
      const stepTurns: number[] = [];
      const done = stepsInTurns(() => stepTurns.push(turns.now()) === 3);
      assert.equal(stepTurns.length, 0, 'no step in the turn that asked');
      assert.equal(await done, true);
      assert.equal(stepTurns.length, 3);
      assert.ok(
        (stepTurns[0] as number) < (stepTurns[1] as number) && (stepTurns[1] as number) < (stepTurns[2] as number),
      );
      let wanted = true;
      let taken = 0;
      const stopped = stepsInTurns(
        () => {
          taken++;
          wanted = false;
          return false;
        },
        () => wanted,
      );
      assert.equal(await stopped, false);
      turns.stop();
      assert.equal(taken, 1);
    });

    it('nextTurn resolves after a turn already queued', async () => {
      const order: string[] = [];
      setImmediate(() => order.push('queued'));
      await nextTurn();
      order.push('after');
      assert.deepEqual(order, ['queued', 'after']);
    });
  });

  describe('problemBatches: the one change to the Problems panel, in batches of whole files', () => {
    const diagnostics = [
      diagnostic('/a', 'a1'),
      diagnostic('/b', 'b1'),
      diagnostic('/a', 'a2'),
      diagnostic('/c', 'c1'),
      diagnostic('/c', 'c2'),
      diagnostic('/c', 'c3'),
      diagnostic('/d', 'd1'),
    ];

    it('together set every file’s diagnostics in snapshot order and clear the files that lost theirs', () => {
      const batches = problemBatches(diagnostics, showing('/a', '/gone', '/old'), 2);
      assert.deepEqual(
        [...applied(batches)],
        [
          ['/gone', null],
          ['/old', null],
          ['/a', ['a1', 'a2']],
          ['/b', ['b1']],
          ['/c', ['c1', 'c2', 'c3']],
          ['/d', ['d1']],
        ],
      );
      assert.deepEqual(
        [...applied(batches)],
        [...applied([problemBatches(diagnostics, showing('/a', '/gone', '/old'), Infinity).flat()])],
        'the same as one batch',
      );
    });

    it('never splits a file, and holds at most perBatch diagnostics unless one file alone has more', () => {
      const batches = problemBatches(diagnostics, showing(), 2);
      assert.deepEqual(
        batches.map((b) => b.map(([file, ds]) => `${file}:${ds?.length ?? 0}`)),
        [['/a:2'], ['/b:1'], ['/c:3'], ['/d:1']],
      );
      assert.deepEqual(
        problemBatches(diagnostics, showing(), 3).map((b) => b.map(([file]) => file)),
        [['/a', '/b'], ['/c'], ['/d']],
      );
    });

    it('clears the files that lost their diagnostics in the first batch, and nothing else when none are left', () => {
      assert.deepEqual(problemBatches([], showing('/x', '/y'), 2), [
        [
          ['/x', null],
          ['/y', null],
        ],
      ]);
      assert.deepEqual(problemBatches([], showing(), 2), []);
      assert.deepEqual(problemBatches(diagnostics, showing('/x'), 2)[0]?.[0], ['/x', null]);
    });

    it('leaves alone a file whose diagnostics read the same, and sets again one where anything shown changed', () => {
      const panel = new Map<string, readonly Diagnostic[]>();
      for (const [file, ds] of problemBatches(diagnostics, panel, 2).flat()) if (ds) panel.set(file, ds);
      // The next snapshot's diagnostics are new objects with the same content (a refresh, a trust change).
      const copies = (): Diagnostic[] => diagnostics.map((d) => structuredClone(d));
      assert.deepEqual(problemBatches(copies(), panel, 2), [], 'nothing to set');
      assert.deepEqual(problemBatches(diagnostics, panel, 2), [], 'the very objects');
      const related = { file: '/c', range: diagnostic('/c', '').range, message: 'why' };
      const changes: [string, (d: Diagnostic) => Diagnostic][] = [
        ['message', (d) => ({ ...d, message: 'other' })],
        ['code', (d) => ({ ...d, code: 'other' })],
        ['severity', (d) => ({ ...d, severity: 'warning' })],
        ['start line', (d) => ({ ...d, range: { ...d.range, start: { line: 1, character: 0 } } })],
        ['start character', (d) => ({ ...d, range: { ...d.range, start: { line: 0, character: 1 } } })],
        ['end line', (d) => ({ ...d, range: { ...d.range, end: { line: 1, character: 1 } } })],
        ['end character', (d) => ({ ...d, range: { ...d.range, end: { line: 0, character: 2 } } })],
        ['related added', (d) => ({ ...d, related: [related] })],
      ];
      for (const [what, change] of changes) {
        const next = copies();
        next[3] = change(next[3] as Diagnostic); // c1
        assert.deepEqual(
          problemBatches(next, panel, 2).map((b) => b.map(([file]) => file)),
          [['/c']],
          `${what} changed: only /c is set again`,
        );
      }
      const withRelated = (message: string, file = related.file) =>
        diagnostics.map((d) => (d.file === '/c' ? { ...d, related: [{ ...related, file, message }] } : d));
      const shownRelated = new Map(panel);
      shownRelated.set(
        '/c',
        withRelated('why').filter((d) => d.file === '/c'),
      );
      assert.deepEqual(problemBatches(withRelated('why'), shownRelated, 2), [], 'the same related locations');
      assert.deepEqual(
        problemBatches(withRelated('another cause'), shownRelated, 2).map((b) => b.map(([file]) => file)),
        [['/c']],
        'a related message changed',
      );
      assert.deepEqual(
        problemBatches(withRelated('why', '/elsewhere'), shownRelated, 2).map((b) => b.map(([file]) => file)),
        [['/c']],
        'a related location moved to another file',
      );
      assert.deepEqual(
        problemBatches([...copies(), diagnostic('/c', 'c4')], panel, 2).map((b) =>
          b.map(([file, ds]) => `${file}:${ds?.length ?? 0}`),
        ),
        [['/c:4']],
        'one diagnostic more, after those shown',
      );
      const fewer = copies().filter((d) => d.code !== 'c3');
      assert.deepEqual(
        problemBatches(fewer, panel, 2).map((b) => b.map(([file, ds]) => `${file}:${ds?.length ?? 0}`)),
        [['/c:2']],
        'one diagnostic fewer',
      );
      const bGone = copies().filter((d) => d.file !== '/b');
      assert.deepEqual(
        problemBatches(bGone, panel, 2),
        [[['/b', null]]],
        'a file that lost its diagnostics is cleared',
      );
    });
  });

  describe('treeRowOf: a row computed ahead is the row the tree would build when asked', () => {
    let f: Fixture;
    beforeEach(() => (f = new Fixture()));
    afterEach(() => f.remove());

    it('carries the label, description, screen-reader label, icon, context value and whether it has parts', () => {
      writeW(f);
      writeD(f, '', 'ws/.codewhale/plugins/demo');
      const s = new Indexer({ workspaces: [f.path('ws')], codewhaleHome: f.path('home'), host: LINUX_HOST }).indexAll();
      const plugin = s.items.find((i) => i.name === 'example-plugin' && i.parent === null) as Item;
      const skill = s.items.find((i) => i.parent === plugin.id) as Item;
      assert.ok(plugin && skill, 'a plugin with a part');
      for (const item of s.items) {
        const row = treeRowOf(item, s);
        assert.deepEqual(
          { ...row, color: undefined },
          {
            label: itemLabel(item),
            description: itemDescription(item, s),
            ariaLabel: itemAriaLabel(item, s),
            icon: kindIcon(item),
            color: undefined,
            contextValue: contextValueOf(item),
            hasChildren: s.items.some((i) => i.parent === item.id),
          },
        );
      }
      assert.equal(treeRowOf(plugin, s).hasChildren, true);
      assert.equal(treeRowOf(skill, s).hasChildren, false);
    });

    it('colours the icon by the decision, and what the agent loads unreviewed in the warning colour', () => {
      const s = { generation: 1, workspaces: ['/ws'], items: [], diagnostics: [], trustProblem: null };
      const colour = (decision: string, reasons: string[]) =>
        treeRowOf(
          itemOf({
            contentHash: null,
            capabilityHash: null,
            reviewToken: null,
            decision: decision as Item['decision'],
            reasons: reasons as Item['reasons'],
          }),
          s,
        ).color;
      assert.equal(colour('registered', ['active']), 'testing.iconPassed');
      assert.equal(colour('registered', ['loaded_unreviewed']), 'list.warningForeground');
      assert.equal(colour('rejected', ['manifest_invalid']), 'errorForeground');
      assert.equal(colour('display_only', ['not_applicable']), 'descriptionForeground');
      assert.equal(colour('disabled', ['not_enabled']), 'list.warningForeground');
      assert.equal(colour('shadowed', ['name_conflict']), 'disabledForeground');
    });
  });
});
