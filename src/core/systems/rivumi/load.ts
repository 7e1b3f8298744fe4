import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseJsonDocument } from '../../documents/jsonDocument';
import {
  decodeUtf8,
  isInside,
  listDirectory,
  lstatEntry,
  readRegularFile,
  statEntry,
  type IoFault,
} from '../../fs/safeFs';
import { Findings } from '../../diagnostics/findings';
import { reportHidden } from '../../diagnostics/hiddenCharacterFinding';
import { LineMap } from '../../text/lineMap';
import { hasNoUtf8, pythonRepr, pythonStrip } from './pythonText';
import { FILE_START, type Diagnostic, type Range } from '../../model';
import { decodeJsonBytes } from './hookFiles';
import { globMatches, listingOrder } from './listing';
import { HOOK_EVENTS, hookCommand, pluginManifest, pydanticDetails, type HookEvent } from './schemas';
import { fileStem, parseRivumiSkill } from './skillFile';
import { PYTHON_JSON_MAX_DEPTH, pythonRecursionError } from './pythonJsonDepth';
import { pythonIntLimitError } from './pythonJsonInts';
import {
  hooksCoverage,
  rivumiHooksHashes,
  rivumiPluginHashes,
  skillsCoverage,
  type HooksCoverage,
  type SkillsCoverage,
} from './hashes';
import { decodeRawName, encodeOsString, osPath } from '../../fs/rawNames';
import { MAX_SKILL_CONTEXT_BYTES, renderSkillSection } from './promptSection';
import { pythonRealpath } from './pythonRealpath';
import type { LoadFailure, RivumiHook, RivumiHooksFile, RivumiPlugin, RivumiProject, RivumiSkill } from './model';
import type { ParsedDocument } from '../../documents/document';
import { portableRelative } from '../../fs/portablePath';
import { deniedByPermissions } from '../../fs/permissionDenied';
import { pathlibRaises, pythonOsErrorText } from './pythonOsError';
import { rivumiReadFailure } from './readFailure';
import { REPORT_INPUT } from '../../documents/parseContext';

export const MAX_SKILLS = 16;
export const MAX_SKILL_BYTES = 32768;
export const MAX_PLUGINS = 16;
export const MAX_PLUGIN_MANIFEST_BYTES = 65536;
export const MAX_HOOK_CONFIG_BYTES = 65536;
export const MAX_HOOKS_PER_EVENT = 16;

/** A valid manifest with its raw hook table, before hooks are merged. */
interface PluginDraft {
  plugin: RivumiPlugin;
  rawHooks: Record<string, unknown>;
  skillRefs: { path: string; abs: string; index: number }[];
  doc?: ParsedDocument;
  manifestBytes?: Buffer;
  manifestExecutable?: boolean;
}

/**
 * Reads one workspace's `.rivumi/` the way Rivumi does (rivumi.md §3-§6): caps, order
 * and both fail-fast loads. Unlike Rivumi it does not stop at the first error: every
 * file within the caps gets its own verdict, and the loads record which file aborts them.
 */
export function loadRivumiProject(workspace: string): RivumiProject {
  const findings = new Findings();
  const rivumiDir = path.join(workspace, '.rivumi');
  const empty = (): RivumiProject => ({
    workspace,
    skills: [],
    plugins: [],
    skillLoad: null,
    hookLoad: null,
    hookOverflowFile: null,
    diagnostics: findings.diagnostics,
  });
  if (lstatEntry(rivumiDir).type === 'symlink') {
    findings.inFile(
      'rivumi.root-symlink',
      '.rivumi is a symbolic link; Rivumi follows it, so its target is what Rivumi loads',
      rivumiDir,
    );
  }
  if (statEntry(rivumiDir).type !== 'directory') return empty();

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
  if (!skillLoad) warnTruncation([...skills, ...plugins.flatMap((p) => p.skills)], findings);

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

/**
 * `.rivumi/skills`, `.rivumi/plugins` or `.rivumi/hooks.json` whose existence this user may not
 * even ask (`.rivumi` at mode 000), or a hooks.json it may not open. Rivumi's `exists()`
 * (skills.py `_load_skills_directory`, plugins.py `load_project_plugins`, hooks.py
 * `load_project_hook_config`) raises PermissionError there on Python 3.11 to 3.13, as does
 * hooks.py's `path.open("rb")`; neither is a SkillError or HookError: the load that asked fails,
 * in Python's words. A user who may read it loads what is there, which Skillgate cannot show:
 * an error either way.
 */
function uninspectable(
  p: string,
  kind: RivumiLoad,
  failed: { readonly fault?: IoFault; readonly error?: string },
  findings: Findings,
): Diagnostic {
  return deniedToRivumi(pythonOsErrorText(failed.fault, failed.error ?? 'permission denied', p), kind, p, findings);
}

/** The load that an OSError fails; a plugin manifest's fails both the skill and the hook load. */
type RivumiLoad = 'skill' | 'plugin' | 'hook';

/**
 * A PermissionError (`[Errno 13] Permission denied: '<path>'`, `pythonText`) that fails a load
 * of Rivumi run as this user, said at `file`: run as one who may read the path, Rivumi loads
 * what it holds instead, which Skillgate, run as this user, cannot read either.
 */
function deniedToRivumi(
  pythonText: string,
  kind: RivumiLoad,
  file: string,
  findings: Findings,
  range: Range = FILE_START,
): Diagnostic {
  return findings.inFile(
    'rivumi.path-unreadable',
    `${pythonText} (Rivumi's ${kind} load fails on it as this user; run as a user who may read it, Rivumi loads what is there, which Skillgate cannot show)`,
    file,
    range,
  );
}

/** `*.md` / `*.json`, one level, dot-files included, in Rivumi's order (rivumi.md §2, listing.ts). */
function listMatching(dir: string, suffix: string, findings: Findings): string[] {
  const listing = listDirectory(dir);
  if (!listing.ok) {
    // Python's glob swallows the listing's OSError: Rivumi loads nothing from the directory, without a
    // word. [Skillgate] Said when it is for want of permission: a user who may read it loads what is there.
    if (deniedByPermissions(listing.fault))
      findings.inFile(
        'rivumi.path-unreadable',
        `${portableRelative(path.dirname(path.dirname(dir)), dir)} cannot be listed (${pythonOsErrorText(listing.fault, listing.error, dir)}): Rivumi's glob skips it without a word, so run as this user it loads nothing from it; run as a user who may read it, Rivumi loads what is there, which Skillgate cannot show`,
        dir,
      );
    return [];
  }
  // Names decode as Python's os.listdir does (surrogateescape: byte 0xFF is U+DCFF), so the
  // sort below is Rivumi's order; the decoding is exact, and every access re-encodes it.
  return listing.names
    .map((n) => decodeRawName(n))
    .filter((n) => globMatches(n, suffix))
    .sort(listingOrder());
}

function beyondCap(fileName: string, file: string, source: string, plugin: string | null): RivumiSkill {
  const name = fileStem(fileName);
  return {
    name,
    qualifiedName: plugin ? `${plugin}.${name}` : name,
    file,
    source,
    plugin,
    description: '',
    body: '',
    state: 'beyond_cap',
  };
}

/** §3.3 checks in order, then the front matter (§3.4), for a project or plugin skill. */
function readSkill(
  abs: string,
  fileName: string,
  source: string,
  plugin: string | null,
  findings: Findings,
): RivumiSkill {
  const stem = fileStem(fileName);
  const base = {
    name: stem,
    qualifiedName: plugin ? `${plugin}.${stem}` : stem,
    file: abs,
    source,
    plugin,
    description: '',
    body: '',
  };
  const invalid = (code: Parameters<Findings['inFile']>[0], message: string, range = FILE_START): RivumiSkill => {
    return { ...base, state: 'invalid', error: findings.inFile(code, message, abs, range) };
  };
  // readRegularFile checks the last component (no link), the type and the size (from fstat) before reading.
  const read = readRegularFile(osPath(abs), MAX_SKILL_BYTES);
  if (!read.ok) {
    const why = rivumiReadFailure(abs, read, MAX_SKILL_BYTES);
    if (why.kind === 'os-error')
      return why.denied
        ? { ...base, state: 'invalid', error: deniedToRivumi(why.text, 'skill', abs, findings) }
        : invalid('rivumi.skill.file', why.text);
    return why.kind === 'too-large'
      ? invalid('rivumi.skill.too-large', `project skill exceeds ${MAX_SKILL_BYTES} bytes: ${fileName}`)
      : invalid('rivumi.skill.file', `project skill must be a regular markdown file: ${fileName}`);
  }
  const text = decodeUtf8(read.bytes);
  if (text === undefined) return invalid('rivumi.skill.utf8', `project skill is not valid UTF-8: ${fileName}`);
  const parsed = parseRivumiSkill(text, fileName, stem);
  const lines = new LineMap(text);
  // The record's limits (§3.4 step 9) are one pydantic validation: every field over its limit is an error of the same failure.
  const nameTooLong = (name: string | undefined) =>
    plugin && name !== undefined && [...`${plugin}.${name}`].length > 64 ? `${plugin}.${name}` : undefined;
  // The record's `source` is a str with a length limit (1-512): pydantic reads it as UTF-8 first, and a
  // file name that is not UTF-8 (Python lists byte 0xFF as U+DCFF) has none (schemas.ts, constrainedText).
  const sourceError = hasNoUtf8(source) ? `project skill file name is not valid UTF-8: ${fileName}` : undefined;
  if (!parsed.ok) {
    const failed = invalid(parsed.code, parsed.message, lines.lineRange(parsed.line));
    // Only the description-length failure carries a name: the record's other limit is checked with it.
    const longName = nameTooLong(parsed.name);
    if (longName)
      findings.inFile(
        'rivumi.skill.qualified-name-length',
        `plugin skill name exceeds 64 characters: ${longName}`,
        abs,
        parsed.nameFromFrontmatter ? lines.lineRange(parsed.nameLine ?? 0) : FILE_START,
      );
    if (sourceError && parsed.code === 'rivumi.skill.description-length')
      findings.inFile('rivumi.skill.source-utf8', sourceError, abs);
    return failed;
  }
  const qualifiedName = plugin ? `${plugin}.${parsed.name}` : parsed.name;
  if (nameTooLong(parsed.name)) {
    return invalid(
      'rivumi.skill.qualified-name-length',
      `plugin skill name exceeds 64 characters: ${qualifiedName}`,
      parsed.nameFromFrontmatter ? lines.lineRange(parsed.nameLine ?? 0) : FILE_START,
    );
  }
  if (sourceError) return invalid('rivumi.skill.source-utf8', sourceError);
  reportHidden(text, abs, findings);
  return {
    ...base,
    name: parsed.name,
    qualifiedName,
    description: parsed.description,
    body: parsed.body,
    state: 'valid',
  };
}

/** §5.4 checks 1-6 for one manifest. */
function readPluginManifest(
  workspace: string,
  pluginsDir: string,
  abs: string,
  fileName: string,
  findings: Findings,
): PluginDraft {
  const source = `.rivumi/plugins/${fileName}`;
  const plugin: RivumiPlugin = {
    name: fileStem(fileName),
    file: abs,
    canonicalFile: canonicalFile(abs),
    fileName,
    source,
    state: 'valid',
    description: '',
    discovery: {},
    skills: [],
    hooks: [],
  };
  const fail = (
    code: Parameters<Findings['inFile']>[0],
    message: string,
    range = FILE_START,
    extra: Partial<PluginDraft> = {},
  ): PluginDraft => {
    return {
      plugin: { ...plugin, state: 'invalid', error: findings.inFile(code, message, abs, range) },
      rawHooks: {},
      skillRefs: [],
      ...extra,
    };
  };
  // readRegularFile checks the last component (no link), the type and the size (from fstat) before reading.
  const read = readRegularFile(osPath(abs), MAX_PLUGIN_MANIFEST_BYTES);
  if (!read.ok) {
    const why = rivumiReadFailure(abs, read, MAX_PLUGIN_MANIFEST_BYTES);
    if (why.kind === 'os-error' && why.denied)
      return {
        plugin: { ...plugin, state: 'invalid', error: deniedToRivumi(why.text, 'plugin', abs, findings) },
        rawHooks: {},
        skillRefs: [],
      };
    return fail(
      'rivumi.plugin.file',
      why.kind === 'os-error'
        ? why.text
        : why.kind === 'too-large'
          ? `project plugin manifest exceeds size limit: ${fileName}`
          : `project plugin manifest must be a regular file: ${fileName}`,
    );
  }
  const text = decodeUtf8(read.bytes);
  const notJson = `project plugin manifest must be UTF-8 JSON: ${fileName}`;
  // A UTF-8 BOM stays in the text as U+FEFF, which JSON rejects: Rivumi refuses it here.
  if (text === undefined) return fail('rivumi.plugin.json', notJson);
  const parsed = parseJsonDocument(abs, text, { python: true, maxDepth: PYTHON_JSON_MAX_DEPTH });
  if (!parsed.ok)
    return fail(
      'rivumi.plugin.json',
      parsed.nesting
        ? `project plugin manifest cannot be parsed by Python's json: ${fileName}: ${pythonRecursionError(parsed.nesting)}`
        : notJson,
      parsed.range,
    );
  const doc = parsed.document;
  findings.addDocument(doc);
  const bigInt = pythonIntLimitError(doc.text);
  if (bigInt)
    return fail(
      'rivumi.plugin.json',
      `project plugin manifest cannot be parsed by Python's json: ${fileName}: ${bigInt.message}`,
      doc.spanRange(bigInt.offset, bigInt.offset + 1),
    );
  const value = doc.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail('rivumi.plugin.json', `project plugin manifest must be an object: ${fileName}`, doc.valueRange([]));
  const data: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  if (!('name' in data)) data.name = fileStem(fileName);
  const result = pluginManifest.safeParse(data, REPORT_INPUT);
  const drafted = { doc, manifestBytes: read.bytes, manifestExecutable: read.executable };
  if (!result.success) {
    // Every error pydantic reports, in its order; the first is the plugin's own error.
    const details = pydanticDetails(result.error);
    const first = details[0] as (typeof details)[number];
    const failed = fail(
      'rivumi.plugin.invalid',
      `project plugin manifest is invalid: ${fileName}: ${first.text}`,
      first.text.includes('Extra inputs') ? doc.keyRange(first.path) : doc.valueRange(first.path),
      drafted,
    );
    for (const d of details.slice(1))
      findings.at('rivumi.plugin.invalid', `project plugin manifest is invalid: ${fileName}: ${d.text}`, {
        file: abs,
        path: d.path,
        key: d.text.includes('Extra inputs'),
      });
    return failed;
  }
  const m = result.data;
  const named: RivumiPlugin = {
    ...plugin,
    name: pythonStrip(m.name),
    description: m.description ?? '',
    discovery: (m.discovery ?? {}) as Record<string, unknown>,
  };
  // Stage 2: follow links, stay inside the repository, reach a regular file (§5.3).
  const root = pythonRealpath(workspace);
  const skillRefs: PluginDraft['skillRefs'] = [];
  for (const [index, s] of (m.skills ?? []).entries()) {
    const stored = pythonStrip(s.path).replace(/\\/g, '/');
    const at = doc.valueRange(['skills', index, 'path']);
    if (encodeOsString(stored) === undefined) {
      // Unreachable while the schema refuses a path with a lone surrogate (pydantic's string_unicode);
      // were one to get here, Python's lstat would raise UnicodeEncodeError: both loads fail.
      const message = `plugin skill path cannot be encoded as a file name: ${pythonRepr(stored)} (Rivumi's load fails with UnicodeEncodeError: surrogates not allowed)`;
      return {
        plugin: { ...named, state: 'invalid', error: findings.inFile('rivumi.path-encoding', message, abs, at) },
        rawHooks: {},
        skillRefs,
        ...drafted,
      };
    }
    const target = pythonRealpath(path.join(pluginsDir, stored));
    if (!isInside(root, target)) {
      return {
        plugin: {
          ...named,
          state: 'invalid',
          error: findings.inFile('rivumi.plugin.skill-path', 'plugin skill path must stay inside repository', abs, at),
        },
        rawHooks: {},
        skillRefs,
        ...drafted,
      };
    }
    // `path.is_symlink()`, then `path.is_file()`, of the resolved path: a path this user may not
    // inspect raises there (a folder on the way at 700 or 744), which is no missing file.
    const targetEntry = statEntry(osPath(target));
    const inspected = [lstatEntry(osPath(target)), targetEntry].find((e) => pathlibRaises(e.fault));
    if (inspected) {
      const text = pythonOsErrorText(inspected.fault, inspected.error ?? 'stat error', target);
      return {
        plugin: {
          ...named,
          state: 'invalid',
          error: deniedByPermissions(inspected.fault)
            ? deniedToRivumi(text, 'plugin', abs, findings, at)
            : findings.inFile('rivumi.plugin.skill-path', text, abs, at),
        },
        rawHooks: {},
        skillRefs,
        ...drafted,
      };
    }
    if (targetEntry.type !== 'file') {
      return {
        plugin: {
          ...named,
          state: 'invalid',
          error: findings.inFile('rivumi.plugin.skill-path', `plugin skill file is missing: ${stored}`, abs, at),
        },
        rawHooks: {},
        skillRefs,
        ...drafted,
      };
    }
    // Rivumi reads the file through the manifest-relative path; its last component is checked then.
    skillRefs.push({ path: stored, abs: path.normalize(path.join(pluginsDir, stored)), index });
  }
  return { plugin: named, rawHooks: (m.hooks ?? {}) as Record<string, unknown>, skillRefs, ...drafted };
}

/**
 * A trust unit's identity is its canonical path (trust.md "Bundle identity"), whichever spelling
 * of its workspace folder reached it. A file whose own path does not resolve (a link to itself,
 * a dangling link) is named in its directory's canonical path: as spelled, it was another key
 * through a folder given by a symbolic link than through the folder itself.
 */
function canonicalFile(abs: string): string {
  const real = (p: string) => decodeRawName(fs.realpathSync.native(osPath(p), { encoding: 'buffer' }));
  try {
    return real(abs);
  } catch {
    try {
      return path.join(real(path.dirname(abs)), path.basename(abs));
    } catch {
      return abs;
    }
  }
}

/** Each hook argv element trust cannot cover is an error at that element (trust.md "Hook argv files, exactly"). */
function reportCoverage(coverage: HooksCoverage, findings: Findings): HooksCoverage {
  for (const p of coverage.problems)
    findings.at(p.code, p.message, { file: p.hook.at.file, path: [...p.hook.at.path, 'command', p.argIndex] });
  return coverage;
}

/**
 * Each skill file trust cannot cover is an error at its path in the manifest, as an argv
 * element is (trust.md "Hashing"); Rivumi still loads the skill, so its decision stays.
 */
function reportSkillCoverage(coverage: SkillsCoverage, manifest: string, findings: Findings): SkillsCoverage {
  for (const p of coverage.problems)
    findings.at('rivumi.plugin.skill-uncovered', p.message, { file: manifest, path: ['skills', p.index, 'path'] });
  return coverage;
}

interface HookLoad {
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
}

/** `.rivumi/hooks.json` as read (H1, H2): its object, or the error that makes the whole hook load fail. */
interface ProjectHooksRead {
  readonly exists: boolean;
  readonly project: Record<string, unknown>;
  readonly bytes?: Buffer;
  readonly executable?: boolean;
  readonly error?: Diagnostic;
}

function readProjectHooks(hooksPath: string, findings: Findings): ProjectHooksRead {
  const entry = statEntry(hooksPath);
  // hooks.py `load_project_hook_config`: `if path.exists():` on a hooks.json whose directory this user may not
  // search raises PermissionError (Python 3.11 to 3.13), whether or not the file is there: the hook load fails.
  if (deniedByPermissions(entry.fault))
    return { exists: false, project: {}, error: uninspectable(hooksPath, 'hook', entry, findings) };
  if (entry.type === 'missing') return { exists: false, project: {} };
  // Not a link, a regular file, at most 65536 bytes: readRegularFile reads one byte past the limit to tell.
  const read = readRegularFile(hooksPath, MAX_HOOK_CONFIG_BYTES);
  // No size check comes before `path.open("rb")`: a hooks.json of another user at mode 600 raises
  // PermissionError there, whatever its size; a read that fails once it is open raises OSError.
  const why = read.ok ? undefined : rivumiReadFailure(hooksPath, read);
  if (why?.kind === 'os-error')
    return {
      exists: true,
      project: {},
      error: why.denied
        ? deniedToRivumi(why.text, 'hook', hooksPath, findings)
        : findings.inFile('rivumi.hooks.file', why.text, hooksPath),
    };
  if (!read.ok && why?.kind !== 'too-large')
    return {
      exists: true,
      project: {},
      error: findings.inFile('rivumi.hooks.file', 'project hook config must be a regular file', hooksPath),
    };
  if (!read.ok)
    return {
      exists: true,
      project: {},
      error: findings.inFile(
        'rivumi.hooks.file',
        `project hook config exceeds ${MAX_HOOK_CONFIG_BYTES} bytes`,
        hooksPath,
      ),
    };
  const bytes = read.bytes;
  // A file read but refused: its bytes stay on the record (hashed, so a fix drops trust), with the finding.
  const refused = (message: string, range: Range): ProjectHooksRead => ({
    exists: true,
    project: {},
    bytes,
    executable: read.executable,
    error: findings.inFile('rivumi.hooks.json', message, hooksPath, range),
  });
  const text = decodeJsonBytes(bytes);
  const parsed =
    text === undefined
      ? undefined
      : // decodeJsonBytes drops one BOM, as Python's utf-8-sig does; a second one is text JSON refuses.
        parseJsonDocument(hooksPath, text, { python: true, maxDepth: PYTHON_JSON_MAX_DEPTH });
  if (parsed && !parsed.ok && parsed.nesting)
    return refused(
      `project hook config cannot be parsed by Python's json: ${pythonRecursionError(parsed.nesting)}`,
      parsed.range,
    );
  if (!parsed || !parsed.ok)
    return refused('project hook config is not valid UTF-8 JSON', parsed && !parsed.ok ? parsed.range : FILE_START);
  const doc: ParsedDocument = parsed.document;
  findings.addDocument(doc);
  const bigInt = pythonIntLimitError(doc.text);
  if (bigInt)
    return refused(
      `project hook config cannot be parsed by Python's json: ${bigInt.message}`,
      doc.spanRange(bigInt.offset, bigInt.offset + 1),
    );
  const v = doc.value;
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return refused('project hook config must be a JSON object', doc.valueRange([]));
  return { exists: true, project: v as Record<string, unknown>, bytes, executable: read.executable };
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
      merged.get(event)?.push({ raw, origin: 'project', file: hooksPath, path: [event, index], index }),
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
        merged
          .get(event)
          ?.push({ raw, origin: d.plugin.name, file: d.plugin.file, path: ['hooks', event, index], index }),
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
    list.forEach((t, position) => {
      const r = hookCommand.safeParse(t.raw, REPORT_INPUT);
      const valid = r.success;
      if (!r.success) {
        for (const d of pydanticDetails(r.error)) {
          const diag = findings.at(
            'rivumi.hooks.invalid',
            `project hook config is invalid: ${[event, position, ...d.path].join('.')}: ${d.message}`,
            { file: t.file, path: [...t.path, ...d.path], key: d.text.includes('Extra inputs') },
          );
          problems.push(diag);
          if (t.origin !== 'project') out.pluginErrors.set(t.file, out.pluginErrors.get(t.file) ?? diag);
        }
      }
      if (position === MAX_HOOKS_PER_EVENT) {
        const diag = findings.at(
          'rivumi.hooks.too-many',
          `project hook config is invalid: ${event}: Tuple should have at most ${MAX_HOOKS_PER_EVENT} items after validation, not ${list.length} (after plugin hooks are merged)`,
          { file: t.file, path: t.path },
        );
        problems.push(diag);
        out.overflowFile ??= t.file;
        if (t.origin !== 'project') out.pluginErrors.set(t.file, out.pluginErrors.get(t.file) ?? diag);
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
  }
  return projectHooks;
}

/** Rivumi's hook load (rivumi.md): read hooks.json, merge the plugins' hooks in, validate; the first failure in Rivumi's order. */
function loadHooks(workspace: string, rivumiDir: string, drafts: PluginDraft[], findings: Findings): HookLoad {
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
  for (const key of Object.keys(read.project)) {
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

function warnDuplicates(skills: RivumiSkill[], plugins: RivumiPlugin[], findings: Findings): void {
  const seen = new Map<string, RivumiSkill>();
  for (const s of [...skills, ...plugins.flatMap((p) => p.skills)]) {
    if (s.state !== 'valid') continue;
    const earlier = seen.get(s.qualifiedName);
    if (earlier) {
      findings.inFile(
        'rivumi.skill.duplicate-name',
        `skill name ${s.qualifiedName} is also used by ${earlier.source}; both load, and a selection by name picks this later one`,
        s.file,
        FILE_START,
        {
          related: [{ file: earlier.file, range: FILE_START, message: `${s.qualifiedName} is first defined here` }],
        },
      );
    }
    seen.set(s.qualifiedName, s);
  }
  const names = new Map<string, RivumiPlugin>();
  for (const p of plugins) {
    if (p.state !== 'valid') continue;
    const earlier = names.get(p.name);
    if (earlier)
      findings.inFile(
        'rivumi.plugin.duplicate-name',
        `plugin name ${p.name} is also used by ${earlier.source}; Rivumi loads both`,
        p.file,
      );
    names.set(p.name, p);
  }
}

/** The rendered prompt section (rivumi.md §3.7) is cut in the middle past 16000 bytes. */
function warnTruncation(all: RivumiSkill[], findings: Findings): void {
  const loaded = all.filter((s) => s.state === 'valid');
  // With no skill loaded the section is '' (0 bytes): under the limit below.
  const full = Buffer.byteLength(renderSkillSection(loaded, Number.MAX_SAFE_INTEGER));
  if (full <= MAX_SKILL_CONTEXT_BYTES) return;
  const last = loaded[loaded.length - 1] as RivumiSkill;
  findings.inFile(
    'rivumi.skills.context-truncated',
    `the rendered skill section is ${full} bytes; Rivumi keeps ${MAX_SKILL_CONTEXT_BYTES} and cuts ${full - MAX_SKILL_CONTEXT_BYTES} bytes from the middle`,
    last.file,
  );
}
