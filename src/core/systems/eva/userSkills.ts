import * as path from 'node:path';
import { canonicalPath, isInside, readRegularFile } from '../../fs/safeFs';
import { readFailureText, rustFaultText } from '../../fs/rustIoErrorText';
import { decodeUtf8 } from '../../fs/rawNames';
import { joinAsSpelled } from '../../fs/spelledPath';
import { FILE_START, type Decision, type Diagnostic } from '../../model';
import { agentItem } from '../../agentItem';
import { decisionOf, primaryFirst } from './reasonOrder';
import { evaDiagnostic } from './diagnostics';
import { MAX_FILES_PER_DIR, MAX_MANIFEST_BYTES, scanUserSkills, type RefusedDir, type UserSkillDir } from './files';
import type { EvaItem } from './item';
import type { EvaPolicy } from './policy';
import type { EvaRuntime } from './runtime';
import { EVA_SYSTEM, type EvaReason, type EvaSkillKind, type EvaTrustLevel } from './vocabulary';
import { isMapping } from './yamlValue';
import { parseEvaYaml } from './yamlDocument';

/**
 * User-level skill folders `~/.codex/skills/*` and `~/.agents/skills/*` (eva.md §1.3):
 * display-only without a project manifest (design §7.3), shadowed by a project skill
 * adapter that wraps them (§4.3 rule 4). They are not trust units.
 */

/** A project skill adapter, as user-item shadowing needs it (read from its `skill` mapping, whatever its own decision). */
export interface ProjectAdapterRef {
  readonly itemId: string;
  /** The adapter id (its manifest path when it has none). */
  readonly id: string;
  readonly skillSource: string | null;
  readonly skillId: string | null;
  /** Resolved `skill.path` (real path when it exists). */
  readonly resolvedSkillPath: string | null;
}

/** The trusted-directory convention for user `runtime_worker`s (eva.md §3.2, §8 Q6). */
const WORKER_DIRS = new Set(['team', 'swarm', 'ralph', 'worker']);

/** The user skill folders as read: their items and diagnostics, and what the watchers need beyond the items. */
export interface UserSkillsRead {
  items: EvaItem[];
  diagnostics: Diagnostic[];
  /**
   * The child entries, as spelled under the home, that are links to a folder Eva does not read (files.ts
   * `scanUserSkills`): a directory holding no `SKILL.md` yet, no directory yet, or a skill folder past the
   * cap. No read item names them, and no watcher of the user trees sees a `SKILL.md` written or removed
   * behind the link, nor the target made (userTreeWatches.ts `linkedFolderWatches`).
   */
  linkedUnread?: readonly string[];
}

export function indexUserSkills(
  home: string,
  adapters: readonly ProjectAdapterRef[],
  policy: EvaPolicy,
  runtime: EvaRuntime,
): UserSkillsRead {
  const realHome = canonicalPath(home) ?? path.resolve(home);
  const refused: RefusedDir[] = [];
  const linkedUnread: string[] = [];
  const dirs = [
    // Appended, as Eva joins `~`: a home that reaches nothing (`missing/..`) is not folded onto another folder.
    ...scanUserSkills(joinAsSpelled(home, '.codex/skills'), 'codex', MAX_FILES_PER_DIR, refused, linkedUnread),
    ...scanUserSkills(joinAsSpelled(home, '.agents/skills'), 'agents', MAX_FILES_PER_DIR, refused, linkedUnread),
  ];
  const names = new Map<string, number>();
  for (const d of dirs) if (!d.overCap) names.set(d.name, (names.get(d.name) ?? 0) + 1);
  const items: EvaItem[] = [];
  const diagnostics: Diagnostic[] = refused.map(unreadableFolder);
  for (const d of dirs) {
    const { item, diagnostics: own } = userItem(d, realHome, adapters, policy, runtime, (names.get(d.name) ?? 0) > 1);
    for (const diag of own) diag.itemId = item.id;
    items.push(item);
    for (const d of own) diagnostics.push(d);
  }
  return { items, diagnostics, linkedUnread };
}

function userItem(
  d: UserSkillDir,
  realHome: string,
  adapters: readonly ProjectAdapterRef[],
  policy: EvaPolicy,
  runtime: EvaRuntime,
  inBothRoots: boolean,
): { item: EvaItem; diagnostics: Diagnostic[] } {
  const id = `eva:user:${d.root}:${d.name}`;
  const diagnostics: Diagnostic[] = [];
  const note = (code: Parameters<typeof evaDiagnostic>[2], message: string, severity?: 'warning' | 'information') =>
    diagnostics.push(evaDiagnostic(d.skillFile, FILE_START, code, message, severity));
  const kind: EvaSkillKind = WORKER_DIRS.has(d.name) ? 'runtime_worker' : 'workflow_skill';
  const trustLevel: EvaTrustLevel =
    d.realSkillFile !== undefined && isInside(realHome, d.realSkillFile) ? 'UserLocal' : 'Unknown';
  const reasons: EvaReason[] = [];
  let description: string | undefined;
  let frontName: string | undefined;
  let shadowedBy: string | null = null;

  if (d.overCap) {
    // C0: SKILL.md never opened. Eva passes over it without a word; the item is only shown, so it says why.
    reasons.push('scan_limit_exceeded');
    note(
      'eva.user.scan-limit',
      `Eva-CLI reads at most ${MAX_FILES_PER_DIR} skill folders of ~/.${d.root}/skills (max_files_per_dir); ${d.name} is past them, so its SKILL.md is never opened`,
    );
  } else {
    // C1 (front matter only, non-fatal).
    if (d.skillFileIsLink) note('eva.user.symlink', 'SKILL.md is a symbolic link; it is listed but cannot be reviewed');
    else {
      const fm = frontMatter(d.skillFile);
      if (fm.ok) [frontName, description] = [fm.name, fm.description];
      else note('eva.user.frontmatter', `SKILL.md front matter could not be read: ${fm.message}`);
    }
    // C3: a project skill adapter wrapping this folder overrides auto-discovery.
    const wrapper = adapters.find((a) => wraps(a, d));
    if (wrapper) {
      reasons.push('duplicate_id_shadowed');
      shadowedBy = wrapper.itemId;
      note('eva.conflict.shadowed', `shadowed by ${wrapper.id} (project manifest overrides auto-discovery)`);
    }
    if (inBothRoots)
      note(
        'eva.conflict.same-skill-multiple-directory',
        'the same skill directory exists under ~/.codex/skills and ~/.agents/skills',
      );
    // C7: no project manifest, so display-only; an unclassifiable origin is display-only too.
    reasons.push('manifest_required');
    note('eva.user.manifest-required', 'user-local workflow skill has no project skill manifest; it is display-only');
    if (!policy.allowUserLocalSkills) note('eva.user.policy', 'user local skills are display-only by current policy');
    if (trustLevel === 'Unknown') reasons.push('trust_level_unknown');
    // C8: a SKILL.md declares no schemas.
    reasons.push('capability_missing_schema');
    note(
      'eva.skill.schema-missing',
      'output_schema is missing: a user-local skill declares no input or output schema',
      'warning',
    );
    // C9: a user runtime_worker has no gate (§3.2), so no runtime admits it: display-only in every mode.
    if (kind === 'runtime_worker') {
      reasons.push('runtime_worker_display_only');
      note('eva.kind.runtime-worker', 'runtime_worker skills are display-only outside their team runtime');
    }
  }
  const ordered = primaryFirst(reasons);
  const decision: Decision = decisionOf(ordered, true);
  const home = `~/${d.root === 'codex' ? '.codex' : '.agents'}/skills/${d.name}/SKILL.md`;
  const item: EvaItem = agentItem(
    {
      id,
      system: EVA_SYSTEM,
      kind: 'skill',
      name: frontName ?? d.name,
      qualifiedName: d.name,
      scope: 'user',
      workspace: null,
      path: d.dir,
      location: { file: d.skillFile, range: FILE_START },
      parent: null,
      decision,
      reasons: ordered,
      detail: {
        ...(description !== undefined ? { description } : {}),
        eva: {
          evaDecision: decision,
          evaReasons: ordered,
          target: decision === 'display_only' ? 'DisplayOnly' : null,
          evaKind: kind,
          source: d.root === 'codex' ? 'user_codex' : 'user_agents',
          trustLevel,
          id: d.name,
          skillId: d.name,
          skillPath: home,
          script: null,
          runner: null,
          runtimeGate: null,
          assumedRuntime: runtime,
          schemas: { input: 'absent', output: 'absent' },
          requestedPermissions: {},
          effectivePermissions: {},
          capabilities: [],
          conflicts: shadowedBy
            ? ['manifest_overrides_auto_discovery']
            : inBothRoots
              ? ['same_skill_multiple_directory']
              : [],
          effectiveTimeoutMs: null,
        },
      },
    },
    { shadowedBy },
  );
  return { item, diagnostics };
}

/**
 * A user skill root or folder this user may not search or list. Shipped Eva-CLI never reads these
 * folders (eva.md §0); the discovery design scans them and, where a stage fails, records a
 * diagnostic rather than dropping the object (Agent扫描与发现架构方案.md §6, §13
 * `DiscoveryErrorKind::PermissionDenied`). Its skills are display-only for any user and Skillgate
 * gates none of them, so nothing runs unseen: a warning that the list is incomplete, worded as
 * Eva words an io failure (`failed to read …: {error}`, eva-config lib.rs `io_error`, the error in Rust’s words).
 */
function unreadableFolder(r: RefusedDir): Diagnostic {
  return evaDiagnostic(
    r.dir,
    FILE_START,
    'eva.user.unreadable',
    `failed to read user skill directory: ${rustFaultText(r.fault, r.error)} (Eva-CLI's discovery design reports PermissionDenied here and lists nothing from it; run as a user who may read it, it lists the skills there, display-only, which Skillgate cannot show)`,
  );
}

/** §4.3 rule 4: `skill.path` resolves to this SKILL.md, or `skill.source` + `skill.id` name it. */
function wraps(a: ProjectAdapterRef, d: UserSkillDir): boolean {
  if (a.resolvedSkillPath !== null && (a.resolvedSkillPath === d.skillFile || a.resolvedSkillPath === d.realSkillFile))
    return true;
  return a.skillSource === d.root && a.skillId === d.name;
}

/**
 * The front matter's `name` and `description`, parsed with the safe YAML profile and
 * never evaluated: only a first line of exactly `---` opens front matter (`---js` does not).
 */
function frontMatter(file: string): { ok: true; name?: string; description?: string } | { ok: false; message: string } {
  const read = readRegularFile(file, MAX_MANIFEST_BYTES);
  if (!read.ok)
    return {
      ok: false,
      message: read.reason === 'too-large' ? 'SKILL.md is larger than 1048576 bytes' : readFailureText(read),
    };
  const text = decodeUtf8(read.bytes);
  if (text === undefined) return { ok: false, message: 'stream did not contain valid UTF-8' };
  const lines = text.replace(/^\ufeff/, '').split(/\r?\n/);
  if (lines[0] !== '---') return { ok: true };
  const end = lines.indexOf('---', 1);
  if (end < 0) return { ok: false, message: 'front matter is not closed' };
  const parsed = parseEvaYaml(file, lines.slice(1, end).join('\n'));
  if (!parsed.ok) return { ok: false, message: parsed.message };
  const v = parsed.document.value;
  if (!isMapping(v)) return { ok: true };
  return {
    ok: true,
    ...(typeof v['name'] === 'string' ? { name: v['name'] } : {}),
    ...(typeof v['description'] === 'string' ? { description: v['description'] } : {}),
  };
}
