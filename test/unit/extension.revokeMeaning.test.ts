import { strict as assert } from 'node:assert';
import { revokeMeaning } from '../../src/extension/flows/trustFlow';
import { itemOf as item } from './helpers/item';

/**
 * The Revoke confirmation says what revoking changes for the bundle's own agent: a decision
 * states what the agent will actually do (decisions.md), so an Eva-CLI skill is never said to
 * be loaded by Rivumi, and what its agent does not load now is never said to be loaded still.
 */
describe('the Revoke confirmation: what revoking changes, per agent', () => {
  it('says a Codewhale bundle stays inactive', () => {
    assert.equal(revokeMeaning(item()), 'the bundle stays inactive until you review and trust it again.');
  });

  it('says Rivumi still loads a plugin it loads', () => {
    const plugin = item({ system: 'rivumi', enabled: null, decision: 'registered', trust: 'trusted' });
    assert.equal(
      revokeMeaning(plugin),
      'Rivumi still loads it; Skillgate shows it as loaded and not reviewed until you review and trust it again.',
    );
  });

  it('names Eva-CLI, not Rivumi, for an Eva skill', () => {
    const adapter = item({ system: 'eva', kind: 'skill-adapter', enabled: null, decision: 'registered' });
    assert.equal(
      revokeMeaning(adapter),
      'Eva-CLI still loads it; Skillgate shows it as loaded and not reviewed until you review and trust it again.',
    );
  });

  it('never says "still loads" of what the agent does not load now (hooks without the opt-in, a skill its manifest disables)', () => {
    const hooks = item({ system: 'rivumi', kind: 'hooks', enabled: null, decision: 'disabled' });
    assert.equal(
      revokeMeaning(hooks),
      'Rivumi does not load it now, and revoking does not change that; Skillgate shows it as not reviewed until you review and trust it again.',
    );
    const off = item({ system: 'eva', kind: 'skill-adapter', enabled: null, decision: 'display_only' });
    assert.match(revokeMeaning(off), /^Eva-CLI does not load it now/);
  });
});
