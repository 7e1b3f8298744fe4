import * as path from 'node:path';
import { lstatEntry, statEntry } from '../../fs/safeFs';
import { Findings } from '../../diagnostics/findings';
import type { Diagnostic } from '../../model';
import { listingOrder, listMatching } from './listing';
import { fileStem } from './skillFile';
import { hooksCoverage, rivumiPluginHashes, skillsCoverage } from './hashes';
import { warnTruncation } from './promptSection';
import { emptyRivumiProject, type LoadFailure, type RivumiPlugin, type RivumiProject, type RivumiSkill } from './model';
import { portableRelative } from '../../fs/portablePath';
import { deniedByPermissions } from '../../fs/permissionDenied';
import { MAX_PLUGINS, MAX_SKILLS } from './limits';
import { uninspectable } from './deniedLoad';
import { beyondCap, readSkill } from './skillRecord';
import { readPluginManifest, type PluginDraft } from './pluginManifest';
import { canonicalFile } from './canonicalFile';
import { reportCoverage, reportSkillCoverage } from './coverageFindings';
import { loadHooks } from './hookLoad';
import { warnDuplicates } from './duplicateNames';

/**
 * Reads one workspace's `.rivumi/` the way Rivumi does (rivumi.md §3-§6): caps, order
 * and both fail-fast loads. Unlike Rivumi it does not stop at the first error: every
 * file within the caps gets its own verdict, and the loads record which file aborts them.
 */
export function loadRivumiProject(workspace: string): RivumiProject {
  const findings = new Findings();
  const rivumiDir = path.join(workspace, '.rivumi');
  if (lstatEntry(rivumiDir).type === 'symlink') {
    findings.inFile(
      'rivumi.root-symlink',
      '.rivumi is a symbolic link; Rivumi follows it, so its target is what Rivumi loads',
      rivumiDir,
    );
  }
  if (statEntry(rivumiDir).type !== 'directory') return emptyRivumiProject(workspace, findings.diagnostics);

  let skillLoad: LoadFailure | null = null;
  const failure = (d: Diagnostic | undefined): LoadFailure | null =>
    d ? { file: d.file, message: d.message, diagnostic: d } : null;

  // S1, S2: project skills, the first 16 by name.
  const skills: RivumiSkill[] = [];
  const skillsDir = path.join(rivumiDir, 'skills');
  const skillsEntry = statEntry(skillsDir);
  if (deniedByPermissions(skillsEntry.fault)) {
    skillLoad ??= failure(uninspectable(skillsDir, 'skill', skillsEntry, findings));
  } else if (skillsEntry.type !== 'missing') {
    if (lstatEntry(skillsDir).type !== 'directory') {
      skillLoad ??= failure(
        findings.inFile('rivumi.skills.path', 'project skills path must be a directory', skillsDir),
      );
    } else {
      listMatching(skillsDir, '.md', findings).forEach((fileName, i) => {
        const abs = path.join(skillsDir, fileName);
        const source = `.rivumi/skills/${fileName}`;
        if (i >= MAX_SKILLS) {
          skills.push(beyondCap(fileName, abs, source, null));
          findings.inFile(
            'rivumi.skill.not-loaded',
            `Rivumi loads at most ${MAX_SKILLS} skills; ${fileName} is never opened`,
            abs,
          );
          return;
        }
        const skill = readSkill(abs, fileName, source, null, findings);
        skills.push(skill);
        skillLoad ??= failure(skill.error);
      });
    }
  }

  // S3 / H2: every plugin manifest, the first 16 by name.
  const drafts: PluginDraft[] = [];
  const plugins: RivumiPlugin[] = [];
  let pluginsFailure: LoadFailure | null = null;
  const pluginsDir = path.join(rivumiDir, 'plugins');
  const pluginsEntry = statEntry(pluginsDir);
  if (deniedByPermissions(pluginsEntry.fault)) {
    pluginsFailure = failure(uninspectable(pluginsDir, 'plugin', pluginsEntry, findings));
  } else if (pluginsEntry.type !== 'missing') {
    if (lstatEntry(pluginsDir).type !== 'directory') {
      pluginsFailure = failure(
        findings.inFile('rivumi.plugins.path', 'project plugins path must be a directory', pluginsDir),
      );
    } else {
      listMatching(pluginsDir, '.json', findings).forEach((fileName, i) => {
        const abs = path.join(pluginsDir, fileName);
        if (i >= MAX_PLUGINS) {
          plugins.push({
            name: fileStem(fileName),
            file: abs,
            // Keyed as within the cap (Rivumi never reads it, but a receipt names it): not as spelled,
            // which through a workspace folder given by a link is another key.
            canonicalFile: canonicalFile(abs),
            fileName,
            source: `.rivumi/plugins/${fileName}`,
            state: 'beyond_cap',
            description: '',
            discovery: {},
            skills: [],
            hooks: [],
          });
          findings.inFile(
            'rivumi.plugin.not-loaded',
            `Rivumi loads at most ${MAX_PLUGINS} plugins; ${fileName} is never read`,
            abs,
          );
          return;
        }
        const draft = readPluginManifest(workspace, pluginsDir, abs, fileName, findings);
        drafts.push(draft);
        pluginsFailure ??= failure(draft.plugin.error);
      });
    }
  }
  skillLoad ??= pluginsFailure;

  // S4: plugin skills, appended until 16 skills in all.
  let loaded = Math.min(skills.length, MAX_SKILLS);
  for (const d of drafts) {
    if (d.plugin.state !== 'valid') continue;
    const pluginSkills: RivumiSkill[] = [];
    for (const ref of d.skillRefs) {
      const fileName = path.basename(ref.abs);
      const source = portableRelative(workspace, ref.abs);
      if (loaded >= MAX_SKILLS) {
        pluginSkills.push(beyondCap(fileName, ref.abs, source, d.plugin.name));
        continue;
      }
      loaded++;
      const skill = readSkill(ref.abs, fileName, source, d.plugin.name, findings);
      pluginSkills.push(skill);
      skillLoad ??= failure(skill.error);
    }
    d.plugin = { ...d.plugin, skills: pluginSkills };
  }

  // H1, H3, H4: hooks.json, merged with plugin hooks, validated as one configuration.
  const hooks = loadHooks(workspace, rivumiDir, drafts, findings);
  const hookLoad = pluginsFailure ? (hooks.projectFailure ?? pluginsFailure) : hooks.failure;

  for (const d of drafts) {
    const hookError = hooks.pluginErrors.get(d.plugin.file);
    // A hook defect fails only the hook load: the plugin and its skills stay the skill load's (decisions.md).
    // Only a valid plugin's hooks are merged, so only a valid plugin has a hook error.
    const plugin: RivumiPlugin = {
      ...d.plugin,
      hooks: hooks.byOrigin.get(d.plugin.file) ?? [],
      ...(hookError ? { hookError } : {}),
    };
    const hashes = d.manifestBytes
      ? rivumiPluginHashes(
          workspace,
          plugin.source,
          d.manifestBytes,
          d.manifestExecutable ?? false,
          reportSkillCoverage(skillsCoverage(workspace, d.skillRefs), plugin.file, findings),
          d.skillRefs.length,
          plugin.hooks,
          reportCoverage(hooksCoverage(workspace, plugin.hooks), findings),
        )
      : undefined;
    plugins.push(hashes ? { ...plugin, hashes } : plugin);
  }
  const byListing = listingOrder();
  plugins.sort((a, b) => byListing(a.fileName, b.fileName));

  warnDuplicates(skills, plugins, findings);
  if (!skillLoad) warnTruncation([...skills, ...plugins.flatMap((p) => p.skills)], findings, skillsDir);

  return {
    workspace,
    skills,
    plugins,
    ...(hooks.file ? { hooksFile: hooks.file } : {}),
    skillLoad,
    hookLoad,
    hookOverflowFile: hooks.overflowFile,
    diagnostics: findings.diagnostics,
  };
}
