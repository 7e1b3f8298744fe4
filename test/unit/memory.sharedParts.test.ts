import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { emptyOwnRecord, ownRecordOf } from '../../src/core/documents/ownRecord';
import { onlyReason } from '../../src/core/decisions/reasonList';
import { Indexer } from '../../src/core/index/indexer';
import { generateWorkspace } from '../../bench/syntheticWorkspace';
import { Fixture } from './helpers/fixture';
import { v8Probe } from './helpers/v8Probe';

/**
 * What a snapshot holds by the ten thousand is small or shared (docs/memory.md): records
 * keyed by names keep V8's fast properties, a bundle's parts share one frozen list per
 * reason and one empty detail, and the ids and names every report writes are flat
 * strings. Asked of V8 itself (`%HasFastProperties` for this file's probe only, and a
 * heap snapshot of a process of its own).
 */
describe('records and parts a snapshot holds by the ten thousand (docs/memory.md)', () => {
  let fast: (o: unknown) => boolean;
  before(() => {
    fast = v8Probe<typeof fast>(['o'], 'return %HasFastProperties(o)');
  });

  it('makes prototype-free records with fast properties, a `__proto__` key an own one', () => {
    const empty = emptyOwnRecord<string>();
    assert.equal(Object.getPrototypeOf(empty), null);
    assert.equal(fast(empty), true);
    const record = ownRecordOf([
      ['__proto__', 'a'],
      ['constructor', 'b'],
    ]);
    assert.equal(Object.getPrototypeOf(record), null);
    assert.deepEqual(Object.keys(record), ['__proto__', 'constructor']);
    assert.equal(record['__proto__'], 'a');
    assert.equal(fast(record), true);
    assert.equal(fast(Object.create(null)), false, 'the probe tells a dictionary');
  });

  it('gives every item of a reason the one frozen list, and parts without detail one empty detail', () => {
    const f = new Fixture();
    try {
      generateWorkspace(f.path('ws'), 6);
      const { items } = new Indexer({ workspaces: [f.path('ws')], codewhaleHome: null }).indexAll();
      const parts = items.filter((i) => i.system === 'codewhale' && i.parent !== null);
      // Nothing is trusted here: every part of an untrusted bundle gives `bundle_inactive`.
      assert.ok(parts.length > 6);
      assert.ok(parts.every((i) => i.reasons === onlyReason('bundle_inactive')));
      assert.ok(Object.isFrozen(onlyReason('bundle_inactive')));
      const bare = parts.filter((i) => Object.keys(i.detail).length === 0);
      assert.ok(bare.length > 6);
      assert.ok(bare.every((i) => i.detail === bare[0]?.detail && Object.isFrozen(i.detail)));
    } finally {
      f.remove();
    }
  });

  it('makes the ids, qualified names and review tokens reports write flat strings, not trees of their pieces', () => {
    const f = new Fixture();
    try {
      generateWorkspace(f.path('ws'), 2);
      const printed = execFileSync(
        process.execPath,
        ['--require', 'tsx/cjs', path.join(__dirname, 'helpers', 'printStringTypes.ts'), f.path('ws')],
        { encoding: 'utf8' },
      );
      // A part's id and qualified name, its bundle's id and review token; then the control, a template literal.
      assert.deepEqual(JSON.parse(printed), [true, true, true, true, false]);
    } finally {
      f.remove();
    }
  });
});
