import { strict as assert } from 'node:assert';
import { hasEnableSwitch, noEnableSwitchNotice, noEnableSwitchRefusal } from '../../src/core/trust/enableSwitch';
import type { ItemKind } from '../../src/core/model';

/**
 * trust.md "Status" and decisions.md: only an agent that honours an enable switch gets
 * one in Skillgate. Codewhale loads a trusted bundle only when enabled; Rivumi and Eva
 * load what they find, so Skillgate refuses to pretend and says how to switch them off.
 */
describe('the enable switch, per agent', () => {
  const unit = (system: 'codewhale' | 'rivumi' | 'eva', kind: ItemKind) =>
    ({ system, kind, name: 'p', path: '/ws/x', workspace: '/ws' }) as Parameters<typeof noEnableSwitchRefusal>[0];

  it('Codewhale has one: no refusal, no notice', () => {
    assert.equal(hasEnableSwitch({ system: 'codewhale' }), true);
    assert.equal(noEnableSwitchNotice({ system: 'codewhale', kind: 'plugin', decision: 'registered' }), null);
    assert.equal(noEnableSwitchRefusal(unit('codewhale', 'plugin'), 'enable'), '');
  });

  it('Rivumi has none: enable and disable are refused with how to switch the plugin or the hooks off', () => {
    assert.equal(hasEnableSwitch({ system: 'rivumi' }), false);
    const plugin = noEnableSwitchRefusal(unit('rivumi', 'plugin'), 'enable');
    assert.match(plugin, /^Rivumi has no enable switch, so Skillgate cannot enable `p`/);
    assert.match(plugin, /remove its manifest from \.rivumi\/plugins\//);
    assert.match(
      noEnableSwitchRefusal(unit('rivumi', 'hooks'), 'disable'),
      /cannot disable `p`.*rename \.rivumi\/hooks\.json/,
    );
    assert.match(
      noEnableSwitchNotice({ system: 'rivumi', kind: 'plugin', decision: 'registered' }) ?? '',
      /loads this plugin whether or not you trust it/,
    );
    assert.match(
      noEnableSwitchNotice({ system: 'rivumi', kind: 'hooks', decision: 'registered' }) ?? '',
      /runs these hooks whether or not you trust them/,
    );
  });

  it('Eva has none: enable is refused and the review says so', () => {
    assert.equal(hasEnableSwitch({ system: 'eva' }), false);
    assert.notEqual(noEnableSwitchRefusal(unit('eva', 'skill-adapter'), 'enable'), '');
    assert.notEqual(noEnableSwitchNotice({ system: 'eva', kind: 'skill-adapter', decision: 'registered' }), null);
  });
});
