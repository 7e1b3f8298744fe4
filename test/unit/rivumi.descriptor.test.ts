import { strict as assert } from 'node:assert';
import { hooksOptedIn, systemOf } from '../../src/core/systems/registry';
import { hasEnableSwitch, noEnableSwitchNotice, noEnableSwitchRefusal } from '../../src/core/trust/enableSwitch';

/**
 * What Skillgate says about Rivumi as an agent (decisions.md "no enable switch", rivumi.md
 * §4.5): it has no enable switch, so `enable`/`disable` are refused with how Rivumi is
 * switched off — removing or renaming the file, and for hooks leaving the opt-in unset —
 * and the review says whether hooks run now, which is true only for the value `1`.
 */
describe('Rivumi as an agent: opt-in, no enable switch, what each unit is called', () => {
  const hooks = {
    system: 'rivumi',
    kind: 'hooks',
    name: 'hooks.json',
    path: '/w/.rivumi/hooks.json',
    workspace: '/w',
  } as const;
  const plugin = {
    system: 'rivumi',
    kind: 'plugin',
    name: 'pk',
    path: '/w/.rivumi/plugins/pk.json',
    workspace: '/w',
  } as const;

  it('runs hooks only when RIVUMI_ENABLE_PROJECT_HOOKS is exactly 1', () => {
    assert.equal(hooksOptedIn(hooks, { RIVUMI_ENABLE_PROJECT_HOOKS: '1' }), true);
    for (const v of [undefined, '', '0', ' 1', '1 ', 'true', 'yes', '01'])
      assert.equal(hooksOptedIn(hooks, { RIVUMI_ENABLE_PROJECT_HOOKS: v }), false, String(v));
    assert.equal(hooksOptedIn(hooks, { OTHER: '1' }), false);
  });

  it('tells the reviewer whether hooks run now', () => {
    const optInNow = systemOf('rivumi').hooks?.optInNow;
    assert.match(optInNow?.(true) ?? '', /RIVUMI_ENABLE_PROJECT_HOOKS=1 is set here: Rivumi runs these hooks now/);
    assert.match(
      optInNow?.(false) ?? '',
      /RIVUMI_ENABLE_PROJECT_HOOKS is not 1 here: Rivumi runs no project hooks now/,
    );
  });

  it('has no enable switch: enable and disable say how to switch each unit off instead', () => {
    assert.equal(hasEnableSwitch(hooks), false);
    const h = noEnableSwitchRefusal(hooks, 'disable');
    assert.match(h, /^Rivumi has no enable switch, so Skillgate cannot disable `hooks\.json`/);
    assert.match(h, /remove or rename \.rivumi\/hooks\.json \(or leave RIVUMI_ENABLE_PROJECT_HOOKS unset\)/);
    const p = noEnableSwitchRefusal(plugin, 'enable');
    assert.match(p, /^Rivumi has no enable switch, so Skillgate cannot enable `pk`/);
    assert.match(p, /To switch pk off, remove its manifest from \.rivumi\/plugins\/ or rename it/);
    assert.doesNotMatch(p, /hooks\.json \(or leave/);
  });

  it("the review's notice says what Rivumi does with each unit whether or not it is trusted", () => {
    assert.match(
      noEnableSwitchNotice({ ...hooks, decision: 'registered' }) ?? '',
      /with RIVUMI_ENABLE_PROJECT_HOOKS=1 it runs these hooks/,
    );
    assert.match(
      noEnableSwitchNotice({ ...hooks, decision: 'registered' }) ?? '',
      /remove or rename \.rivumi\/hooks\.json/,
    );
    assert.match(
      noEnableSwitchNotice({ ...plugin, decision: 'registered' }) ?? '',
      /it loads this plugin whether or not you trust it/,
    );
    assert.match(
      noEnableSwitchNotice({ ...plugin, decision: 'registered' }) ?? '',
      /remove or rename its manifest in \.rivumi\/plugins\//,
    );
  });

  it("the review's notice never says Rivumi loads a plugin it does not load now (past the cap, rejected)", () => {
    for (const decision of ['display_only', 'rejected'] as const) {
      const notice = noEnableSwitchNotice({ ...plugin, decision }) ?? '';
      assert.doesNotMatch(notice, /it loads this plugin/);
      assert.match(notice, /though not this one now \(see its reasons\)/);
    }
  });

  it('names a unit as the hooks file or a plugin', () => {
    assert.equal(systemOf('rivumi').unitLabel(hooks), 'Rivumi hooks file');
    assert.equal(systemOf('rivumi').unitLabel(plugin), 'Rivumi plugin');
  });
});
