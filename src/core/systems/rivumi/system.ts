import { RivumiIndex, type RivumiOptions } from './rivumiIndex';
import { hashRivumiTarget, readRivumiInvalid, readRivumiSource } from './trustUnit';
import { installPlugin } from './install';
import { rivumiHooksOptIn } from './hooksOptIn';
import { hookArgvCoverage } from './hookArgvFiles';
import { afterOverlongLabel } from './hookLabel';
import { sameNameConflicts } from './sameNameConflicts';
import type { AgentSystem } from '../agentSystem';

/**
 * Rivumi: `.rivumi/` in each workspace. It loads every plugin it finds and runs hooks
 * whenever the opt-in is set, so it has no enable switch: an enable bit would claim a
 * control that does not exist; its units are trusted or not (trust.md "Status").
 */
export const rivumi: AgentSystem<RivumiOptions> = {
  id: 'rivumi',
  label: 'Rivumi',
  icon: 'book',
  bundleIcon: 'plug',
  workspaceRoots: ['.rivumi'],
  lookedFor: '.rivumi',
  noEnableSwitch: {
    refusal: (item, operation) => {
      const off =
        item.kind === 'hooks'
          ? 'To stop Rivumi running these hooks, remove or rename .rivumi/hooks.json (or leave RIVUMI_ENABLE_PROJECT_HOOKS unset).'
          : `To switch ${item.name} off, remove its manifest from .rivumi/plugins/ or rename it so it no longer ends in .json.`;
      return `Rivumi has no enable switch, so Skillgate cannot ${operation} \`${item.name}\`: Rivumi loads every plugin in .rivumi/plugins/, and runs .rivumi/hooks.json and plugin hooks whenever RIVUMI_ENABLE_PROJECT_HOOKS=1, whatever Skillgate says. ${off} To vouch for it as it is, review and trust it.`;
    },
    notice: (item) =>
      item.kind === 'hooks'
        ? 'Rivumi has no enable switch: with RIVUMI_ENABLE_PROJECT_HOOKS=1 it runs these hooks whether or not you trust them. Trust records that you reviewed exactly these bytes; to stop Rivumi running them, remove or rename .rivumi/hooks.json.'
        : item.decision === 'registered'
          ? 'Rivumi has no enable switch: it loads this plugin whether or not you trust it. Trust records that you reviewed exactly these bytes; to switch it off, remove or rename its manifest in .rivumi/plugins/.'
          : // Past the cap, rejected, or in a failed load: Rivumi does not load it now, whatever trust says.
            'Rivumi has no enable switch: it loads a plugin whether or not you trust it, though not this one now (see its reasons). Trust records that you reviewed exactly these bytes.',
  },
  hooks: {
    optIn: 'RIVUMI_ENABLE_PROJECT_HOOKS=1',
    when: 'Rivumi runs these whenever RIVUMI_ENABLE_PROJECT_HOOKS=1 is set in its environment, whether or not you trust them.',
    optedIn: (env) => rivumiHooksOptIn(env.RIVUMI_ENABLE_PROJECT_HOOKS),
    optInNow: (set, loadFails = false) =>
      !set
        ? 'RIVUMI_ENABLE_PROJECT_HOOKS is not 1 here: Rivumi runs no project hooks now.'
        : loadFails
          ? "RIVUMI_ENABLE_PROJECT_HOOKS=1 is set here, but Rivumi's hook load fails (see Diagnostics): it runs none of these hooks now."
          : 'RIVUMI_ENABLE_PROJECT_HOOKS=1 is set here: Rivumi runs these hooks now.',
    // Rivumi spawns a hook's argv with no shell, in the workspace folder (hookArgvFiles.ts).
    cwd: 'workspace folder',
    afterRun: afterOverlongLabel,
    argvFiles: hookArgvCoverage,
  },
  reasonText: {
    loaded_unreviewed:
      'Rivumi loads it whatever Skillgate says (its skills enter the prompt; with the opt-in, its hooks run), and it is not trusted at its current hashes: review it, then trust it.',
  },
  conflicts: sameNameConflicts,
  unitLabel: (item) => (item.kind === 'hooks' ? 'Rivumi hooks file' : 'Rivumi plugin'),
  trustUnitsInWords: 'Rivumi plugins and the Rivumi hooks file',
  createIndex: (options) => new RivumiIndex(options),
  // Rivumi loads every plugin it lists; it runs the hooks file only under the opt-in the index saw.
  loads: (item) => (item.kind === 'hooks' ? item.detail.hooksOptIn === true : item.decision !== 'display_only'),
  readSource: (item) => readRivumiSource(item),
  readInvalid: (item, reviewed) => readRivumiInvalid(item, reviewed),
  hashTarget: (abs, shown) => hashRivumiTarget(abs, shown),
  hashTargetHint: 'a Rivumi plugin manifest (.rivumi/plugins/*.json) or .rivumi/hooks.json',
  agentTrustCommand: () => null,
  reviewAgainHint: () => 'review it again',
  installPlugin: (manifest, workspace, options) => {
    const r = installPlugin(manifest, workspace, options);
    return r.ok
      ? {
          ok: true,
          name: r.plugin.name,
          source: r.plugin.source,
          file: r.plugin.file,
          written: r.written,
          loads: 'Rivumi loads it from now on',
        }
      : r;
  },
};
