import { strict as assert } from 'node:assert';
import { hooksOptedIn, systemOf } from '../../src/core/systems/registry';
import { hasEnableSwitch, noEnableSwitchNotice, noEnableSwitchRefusal } from '../../src/core/trust/enableSwitch';

/**
 * What Skillgate says about Eva-CLI as an agent (decisions.md "no enable switch", eva.md
 * §4.6): Eva honours only its manifest's `enabled`, so `enable`/`disable` are refused with
 * the manifest to edit (as the user reads it: relative to the workspace, or the full path of
 * a user-level skill), and Eva runs no hooks Skillgate knows of. (How to review a unit again
 * is in eva.checkGate, where a token goes stale.)
 */
describe('Eva-CLI as an agent: no enable switch, what each unit is called', () => {
  const adapter = {
    system: 'eva',
    kind: 'skill-adapter',
    name: 'review-skill',
    path: '/w/config/adapters/review.yaml',
    workspace: '/w',
  } as const;
  const lua = { ...adapter, kind: 'lua-skill', name: 'lint', path: '/w/config/capabilities/lint.yaml' } as const;

  it('refuses enable and disable, naming the manifest to edit', () => {
    assert.equal(hasEnableSwitch(adapter), false);
    assert.equal(
      noEnableSwitchRefusal(adapter, 'enable'),
      'Eva-CLI reads "enabled" from the manifest; edit config/adapters/review.yaml to change it',
    );
    assert.equal(
      noEnableSwitchRefusal({ ...adapter, path: '/home/u/eva/review.yaml', workspace: null }, 'disable'),
      'Eva-CLI reads "enabled" from the manifest; edit /home/u/eva/review.yaml to change it',
    );
  });

  it("the review's notice says Eva registers it by its own rules, and how to switch it off", () => {
    assert.match(
      noEnableSwitchNotice({ ...adapter, decision: 'registered' }) ?? '',
      /registers this skill by its own rules whether or not you trust it/,
    );
    assert.match(
      noEnableSwitchNotice({ ...adapter, decision: 'registered' }) ?? '',
      /set enabled: false in the manifest/,
    );
  });

  it('names a unit as a skill adapter or a lua_skill', () => {
    assert.equal(systemOf('eva').unitLabel(adapter), 'Eva skill adapter');
    assert.equal(systemOf('eva').unitLabel(lua), 'Eva lua_skill');
  });

  it('runs no hooks, whatever the environment', () => {
    assert.equal(hooksOptedIn(adapter, { RIVUMI_ENABLE_PROJECT_HOOKS: '1' }), false);
  });
});
