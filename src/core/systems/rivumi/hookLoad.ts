import * as path from 'node:path';
import type { Findings } from '../../diagnostics/findings';
import type { Diagnostic } from '../../model';
import { HOOK_EVENTS, hookCommand, pydanticDetails, type HookEvent } from './schemas';
import { hooksCoverage, rivumiHooksHashes } from './hashes';
import type { LoadFailure, RivumiHook, RivumiHooksFile } from './model';
import { REPORT_INPUT } from '../../documents/parseContext';
import { canonicalFile } from './canonicalFile';
import { reportCoverage } from './coverageFindings';
import { readProjectHooks, type ProjectHooksRead } from './hookFiles';
import type { PluginDraft } from './pluginManifest';
import { MAX_HOOKS_PER_EVENT } from './limits';
import { pythonKeyOrder } from './pythonDictOrder';
import { overlongLabelMessage } from './hookLabel';

/**
 * Rivumi's hook load (hooks.py `load_project_hook_config`, rivumi.md §4.4; §6 H1-H4):
 * hooks.json, then each valid plugin's hooks merged in after the project's, per event, then
 * the merged configuration validated as one, so a fault in any file fails the whole load.
 * Unlike Rivumi it goes on past the first fault: every entry gets its own verdict, and the
 * load records which one Rivumi stops at.
 */

export interface HookLoad {
  file?: RivumiHooksFile;
  /** The failure of the hook load (first in Rivumi's order), ignoring plugin-manifest failures. */
  failure: LoadFailure | null;
  /** A failure caused by hooks.json itself (H1), which precedes plugin failures. */
  projectFailure: LoadFailure | null;
  overflowFile: string | null;
  byOrigin: Map<string, RivumiHook[]>;
  pluginErrors: Map<string, Diagnostic>;
}

/** A hooks entry as merged (H3), tagged with where it came from. */
interface TaggedHook {
  raw: unknown;
  origin: string;
  file: string;
  path: (string | number)[];
  index: number;
  /** The JSON text of its file, for the order of its keys (pythonDictOrder.ts). */
  text: string;
}

/**
 * Merge (H3): the project's entries, then each valid plugin's, per event. `mergeErrors`
 * gets the entries that cannot be merged.
 */
function mergeHooks(
  hooksPath: string,
  read: ProjectHooksRead,
  drafts: readonly PluginDraft[],
  findings: Findings,
  out: HookLoad,
  mergeErrors: Diagnostic[],
): Map<HookEvent, TaggedHook[]> {
  const merged = new Map<HookEvent, TaggedHook[]>(HOOK_EVENTS.map((e) => [e, []]));
  // A hooks.json that could not be read is the empty object here: its error is the hook load's already.
  const project = read.project;
  for (const event of HOOK_EVENTS) {
    const v = project[event];
    if (!Array.isArray(v)) continue;
    v.forEach((raw, index) =>
      merged
        .get(event)
        ?.push({ raw, origin: 'project', file: hooksPath, path: [event, index], index, text: read.text ?? '' }),
    );
  }
  // An invalid manifest's draft has no hooks (rawHooks {}): only valid plugins' entries merge.
  for (const d of drafts) {
    for (const event of HOOK_EVENTS) {
      const v = d.rawHooks[event];
      if (v === undefined || v === null) continue;
      if (!Array.isArray(v)) {
        const diag = findings.at('rivumi.hooks.invalid', 'plugin hook entries must be arrays', {
          file: d.plugin.file,
          path: ['hooks', event],
        });
        mergeErrors.push(diag);
        out.pluginErrors.set(d.plugin.file, out.pluginErrors.get(d.plugin.file) ?? diag);
        continue;
      }
      if (event in project && !Array.isArray(project[event])) {
        mergeErrors.push(
          findings.at('rivumi.hooks.invalid', 'project hook entries must be arrays', {
            file: hooksPath,
            path: [event],
          }),
        );
        // hooks.json's fault, which fails the whole hook load: the plugin's entries are still
        // its hooks (in its capabilities and hash, shown with the merged configuration's fate, rivumi.md §6).
      }
      v.forEach((raw, index) =>
        merged.get(event)?.push({
          raw,
          origin: d.plugin.name,
          file: d.plugin.file,
          path: ['hooks', event, index],
          index,
          text: d.doc?.text ?? '',
        }),
      );
    }
  }
  return merged;
}

/** Validate (H4): each merged entry, and the per-event cap; returns the project's own hooks, files the plugins' in `out`. */
function validateHooks(
  merged: ReadonlyMap<HookEvent, TaggedHook[]>,
  hooksPath: string,
  project: Record<string, unknown>,
  findings: Findings,
  out: HookLoad,
  problems: Diagnostic[],
): RivumiHook[] {
  const projectHooks: RivumiHook[] = [];
  for (const event of HOOK_EVENTS) {
    // An event of hooks.json that is null or no array is that field's error, in the field's place.
    if (event in project && !Array.isArray(project[event])) {
      problems.push(
        findings.at('rivumi.hooks.invalid', `project hook config is invalid: ${event}: Input should be a valid tuple`, {
          file: hooksPath,
          path: [event],
        }),
      );
    }
    const list = merged.get(event) ?? [];
    const entryProblems: { diag: Diagnostic; from: TaggedHook }[] = [];
    let overflow: { diag: Diagnostic; from: TaggedHook } | undefined;
    let validated = 0;
    list.forEach((t, position) => {
      const r = hookCommand.safeParse(t.raw, REPORT_INPUT);
      const valid = r.success;
      if (valid) validated++;
      // The schema passes it and the runner denies it, after it ran: a warning, its fate unchanged.
      const overlong = r.success ? overlongLabelMessage(r.data.command) : undefined;
      if (overlong)
        findings.at('rivumi.hooks.label-too-long', overlong, { file: t.file, path: [...t.path, 'command'] });
      if (!r.success) {
        for (const d of pydanticDetails(r.error, (at, keys) => pythonKeyOrder(t.text, [...t.path, ...at], keys))) {
          const diag = findings.at(
            'rivumi.hooks.invalid',
            `project hook config is invalid: ${[event, position, ...d.path].join('.')}: ${d.message}`,
            { file: t.file, path: [...t.path, ...d.path], key: d.text.includes('Extra inputs') },
          );
          entryProblems.push({ diag, from: t });
        }
      }
      if (position === MAX_HOOKS_PER_EVENT) {
        const diag = findings.at(
          'rivumi.hooks.too-many',
          `project hook config is invalid: ${event}: Tuple should have at most ${MAX_HOOKS_PER_EVENT} items after validation, not ${list.length} (after plugin hooks are merged)`,
          { file: t.file, path: t.path },
          // At the entry past the cap, whose file the merge order picks (a plugin sorting first moves it); about
          // the event of the merged project hook config, as Rivumi words it: hooks.json names that config.
          { place: hooksPath },
        );
        overflow = { diag, from: t };
        out.overflowFile ??= t.file;
        // The entry itself validates: the overflow is its file's (decisions.md: the entries of the file
        // or plugin that overflows the merge carry `manifest_invalid`, not `component_invalid`).
      }
      const raw = (typeof t.raw === 'object' && t.raw !== null ? t.raw : {}) as Record<string, unknown>;
      const argv = r.success
        ? r.data.command
        : Array.isArray(raw.command)
          ? raw.command.filter((a): a is string => typeof a === 'string')
          : [];
      const hook: RivumiHook = {
        event,
        index: t.index,
        argv,
        timeoutSeconds: r.success ? (r.data.timeout_seconds ?? 5) : 5,
        tools: r.success ? (r.data.tools ?? ['*']) : [],
        origin: t.origin,
        file: t.file,
        at: { file: t.file, path: t.path },
        valid,
      };
      if (t.origin === 'project') projectHooks.push(hook);
      else {
        // Appended in place: a copy per hook is quadratic in a plugin's hooks.
        const hooks = out.byOrigin.get(t.file);
        if (hooks) hooks.push(hook);
        else out.byOrigin.set(t.file, [hook]);
      }
    });
    // pydantic-core's tuple counts the entries that validate: the one that makes them 17 ends the event
    // with `too_long` alone, its entry errors dropped. With 16 or fewer only the entry errors are
    // pydantic's, and the overflow Skillgate still reports follows them.
    const ordered = validated > MAX_HOOKS_PER_EVENT ? [overflow, ...entryProblems] : [...entryProblems, overflow];
    for (const p of ordered) {
      if (!p) continue;
      problems.push(p.diag);
      if (p.from.origin !== 'project') out.pluginErrors.set(p.from.file, out.pluginErrors.get(p.from.file) ?? p.diag);
    }
  }
  return projectHooks;
}

/** Rivumi's hook load (rivumi.md): read hooks.json, merge the plugins' hooks in, validate; the first failure in Rivumi's order. */
export function loadHooks(workspace: string, rivumiDir: string, drafts: PluginDraft[], findings: Findings): HookLoad {
  const out: HookLoad = {
    failure: null,
    projectFailure: null,
    overflowFile: null,
    byOrigin: new Map(),
    pluginErrors: new Map(),
  };
  const hooksPath = path.join(rivumiDir, 'hooks.json');
  const fail = (d: Diagnostic): LoadFailure => ({ file: d.file, message: d.message, diagnostic: d });
  const read = readProjectHooks(hooksPath, findings);
  if (read.error) out.projectFailure = fail(read.error);
  const problems: Diagnostic[] = [];
  const mergeErrors: Diagnostic[] = [];
  const merged = mergeHooks(hooksPath, read, drafts, findings, out, mergeErrors);
  const projectHooks = validateHooks(merged, hooksPath, read.project, findings, out, problems);
  // pydantic reports the fields in their order, then each extra key in the file's order (model_fields.rs).
  for (const key of pythonKeyOrder(read.text ?? '', [], Object.keys(read.project))) {
    if (!(HOOK_EVENTS as readonly string[]).includes(key)) {
      problems.push(
        findings.at('rivumi.hooks.invalid', `project hook config is invalid: ${key}: Extra inputs are not permitted`, {
          file: hooksPath,
          path: [key],
          key: true,
        }),
      );
    }
  }
  const firstProblem = mergeErrors[0] ?? problems[0];
  out.failure = out.projectFailure ?? (firstProblem ? fail(firstProblem) : null);
  if (read.exists) {
    // hooks.json's only merge error (an event that is not an array) is among `problems` too, as "a valid tuple".
    const projectInvalid = read.error ?? problems.find((p) => p.file === hooksPath);
    out.file = {
      file: hooksPath,
      valid: !projectInvalid,
      hooks: projectHooks,
      canonicalFile: canonicalFile(hooksPath),
      ...(read.bytes
        ? {
            hashes: rivumiHooksHashes(
              workspace,
              read.bytes,
              read.executable ?? false,
              projectHooks,
              reportCoverage(hooksCoverage(workspace, projectHooks), findings),
            ),
          }
        : {}),
      ...(projectInvalid ? { error: projectInvalid } : {}),
    };
  }
  return out;
}
