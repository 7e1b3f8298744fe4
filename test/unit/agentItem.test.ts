import { strict as assert } from 'node:assert';
import { agentItem, type AgentItemFields } from '../../src/core/agentItem';
import { FILE_START } from '../../src/core/model';
import { v8Probe } from './helpers/v8Probe';

/**
 * Every agent system builds its items with one constructor (core/agentItem.ts): it states
 * what the agent decided, and the fields only a trust unit fills stay null unless it sets them.
 */
describe('an item as an agent system decides it (agentItem)', () => {
  const decided: AgentItemFields = {
    id: 'rivumi:0123456789ab:.rivumi/skills/notes.md',
    system: 'rivumi',
    kind: 'skill',
    name: 'notes',
    qualifiedName: 'notes',
    scope: 'workspace',
    workspace: '/ws',
    path: '/ws/.rivumi/skills/notes.md',
    location: { file: '/ws/.rivumi/skills/notes.md', range: FILE_START },
    parent: null,
    decision: 'registered',
    reasons: ['guidance'],
    detail: { description: 'd' },
  };

  it('leaves shadowedBy and every field of a trust unit null on an item that is no unit', () => {
    assert.deepEqual(agentItem(decided), {
      ...decided,
      shadowedBy: null,
      trust: null,
      enabled: null,
      compatibility: null,
      contentHash: null,
      capabilityHash: null,
      reviewToken: null,
    });
  });

  it("keeps what a system sets of them: a bundle's hashes and trust, an enable bit that is off, its shadower", () => {
    const item = agentItem(decided, {
      shadowedBy: 'codewhale:0123456789ab:plugins/other',
      trust: 'not-reviewed',
      enabled: false,
      compatibility: 'partial',
      contentHash: 'c'.repeat(64),
      capabilityHash: 'p'.repeat(64),
      reviewToken: 'sgrt1-x',
    });
    assert.equal(item.shadowedBy, 'codewhale:0123456789ab:plugins/other');
    assert.equal(item.trust, 'not-reviewed');
    assert.equal(item.enabled, false);
    assert.equal(item.compatibility, 'partial');
    assert.equal(item.contentHash, 'c'.repeat(64));
    assert.equal(item.capabilityHash, 'p'.repeat(64));
    assert.equal(item.reviewToken, 'sgrt1-x');
  });

  it('keeps the detail it is given, typed as given (an Eva item stays one)', () => {
    const detail = { description: 'd', eva: { id: 'x' } };
    const item = agentItem({ ...decided, detail });
    assert.equal(item.detail, detail);
    assert.equal(item.detail.eva.id, 'x');
  });

  it('gives every item the fields in one order, whatever order they are given in and whichever a unit sets', () => {
    const sameMap = v8Probe<(a: unknown, b: unknown) => boolean>(['a', 'b'], 'return %HaveSameMap(a, b)');
    const reversed = Object.fromEntries(Object.entries(decided).reverse()) as unknown as AgentItemFields;
    const plain = agentItem(decided);
    const unit = agentItem(reversed, { reviewToken: 'sgrt1-x', trust: 'trusted', enabled: true });
    assert.deepEqual(Object.keys(unit), Object.keys(plain));
    // One hidden class for items of every system (docs/memory.md): the probe tells two apart.
    assert.equal(sameMap(plain, unit), true);
    assert.equal(sameMap(plain, { ...plain, extra: 1 }), false);
  });
});
