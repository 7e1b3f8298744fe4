import * as path from 'node:path';
import {
  decodeUtf8,
  isInside,
  lstatEntry,
  readRegularFile,
  realPath,
  statEntry,
  type ReadResult,
} from '../../fs/safeFs';
import { parseJsonDocument } from '../../documents/jsonDocument';
import { pythonStrip } from './pythonText';
import { pythonRealpath } from './pythonRealpath';
import { fileStem } from './skillFile';
import { pluginManifest, pydanticDetails } from './schemas';
import { loadRivumiProject } from './load';
import { MAX_PLUGIN_MANIFEST_BYTES } from './limits';
import type { RivumiPlugin } from './model';
import { PYTHON_JSON_MAX_DEPTH, pythonRecursionError } from './pythonJsonDepth';
import { pythonIntLimitError } from './pythonJsonInts';
import { pythonJsonDumps } from './pythonJsonDumps';
import { pythonKeyOrder } from './pythonDictOrder';
import { portableRelative } from '../../fs/portablePath';
import { REPORT_INPUT } from '../../documents/parseContext';
import { pathlibRaises, pythonErrorText, pythonOsErrorText } from './pythonOsError';
import { rivumiReadFailure } from './readFailure';
import { pythonTruthy } from './pythonTruthy';
import { mkdirIfMissing, planDirectories, removeDirectories } from './installDirectories';
import { pluginsMkdirRaises } from './pluginsMkdirError';
import { land, removeQuietly, Taken, undoLandings, type Landing } from './installLanding';

export type InstallResult =
  | { readonly ok: true; readonly plugin: RivumiPlugin; readonly written: string[] }
  | { readonly ok: false; readonly message: string };

/**
 * `rivumi plugin install` (rivumi.md §5.6) with Rivumi's checks and messages, but
 * atomic: every collision is found before anything is written, files land through
 * temporary names, and any failure — including the final re-load — puts everything
 * back as it was.
 */
export function installPlugin(
  manifestArg: string,
  repo: string,
  options: { name?: string; overwrite?: boolean } = {},
): InstallResult {
  const fail = (message: string): InstallResult => ({ ok: false, message });
  // Python's Path(MANIFEST).resolve(): a link on the way is followed before a `..` after it.
  const manifest = pythonRealpath(manifestArg);
  // `source.is_symlink()`, `source.is_file()`: a manifest this user may not inspect raises (PermissionError).
  const unseen = uninspectable(manifest);
  if (unseen) return fail(unseen);
  if (statEntry(manifest).type !== 'file') return fail('plugin manifest must be a regular file');
  const read = readRegularFile(manifest, MAX_PLUGIN_MANIFEST_BYTES);
  if (!read.ok) {
    // `source.read_text()` raises what the open or the read meets; PluginError is all the CLI catches.
    const why = rivumiReadFailure(manifest, read, MAX_PLUGIN_MANIFEST_BYTES);
    return fail(
      why.kind === 'os-error'
        ? why.text
        : why.kind === 'too-large'
          ? 'plugin manifest exceeds size limit'
          : 'plugin manifest must be a regular file',
    );
  }
  const text = decodeUtf8(read.bytes);
  const parsed =
    text === undefined
      ? undefined
      : parseJsonDocument(manifest, text, { python: true, maxDepth: PYTHON_JSON_MAX_DEPTH });
  if (parsed && !parsed.ok && parsed.nesting)
    return fail(`plugin manifest cannot be parsed by Python's json: ${pythonRecursionError(parsed.nesting)}`);
  if (!parsed || !parsed.ok) return fail('plugin manifest must be UTF-8 JSON');
  const bigInt = pythonIntLimitError(parsed.document.text);
  if (bigInt) return fail(`plugin manifest cannot be parsed by Python's json: ${bigInt.message}`);
  const value = parsed.document.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail('plugin manifest must be an object');
  const data: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const declared = data.name;
  data.name = options.name ?? (pythonTruthy(declared) ? declared : fileStem(path.basename(manifest)));
  const fileName = path.basename(manifest);
  const result = pluginManifest.safeParse(data, REPORT_INPUT);
  if (!result.success)
    return fail(
      `project plugin manifest is invalid: ${fileName}: ${pydanticDetails(result.error, (at, keys) =>
        pythonKeyOrder(parsed.document.text, at, keys),
      )
        .map((d) => d.text)
        .join('; ')}`,
    );
  const name = pythonStrip(result.data.name);
  const packageDir = path.dirname(manifest);
  const skills = (result.data.skills ?? []).map((s) => pythonStrip(s.path).replace(/\\/g, '/'));
  // Every skill is read before anything is created: a file that cannot be read is a
  // refusal with nothing left behind, never a failure half-way through the copy.
  // Held once per file, not per spelling: `s.md`, `./s.md`, `.//s.md`, ... are sixteen
  // skills of one file, and one copy of it each was sixteen times its size in memory.
  const sources = new Map<string, Buffer>();
  const bytesOf = new Map<string, Buffer>();
  for (const rel of skills) {
    const src = pythonRealpath(path.join(packageDir, rel));
    if (!isInside(packageDir, src)) return fail('plugin skill path must stay inside repository');
    const unseenSkill = uninspectable(src);
    if (unseenSkill) return fail(unseenSkill);
    if (statEntry(src).type !== 'file') return fail(`plugin skill file is missing: ${rel}`);
    let bytes = bytesOf.get(src);
    if (!bytes) {
      const read = readRegularFile(src, MAX_SKILL_COPY_BYTES);
      // Rivumi copies it through the manifest-relative path, and words an error with that path.
      if (!read.ok) return fail(unreadableSkill(rel, path.join(packageDir, rel), read));
      bytes = read.bytes;
      bytesOf.set(src, bytes);
    }
    sources.set(rel, bytes);
  }

  // Destinations are checked by what is on disk, not by their spelling: the repository
  // being installed into may plant a symbolic link (`.rivumi/plugins/skills -> ../../../outside`)
  // that a lexical check passes and a write would follow. Every directory on the way
  // must be a real directory (or missing, then created by us), before anything is written.
  const pluginsDir = path.join(repo, '.rivumi', 'plugins');
  const base = planDirectories(repo, path.join('.rivumi', 'plugins'));
  if (!base.ok) {
    const atPlugins = base.component === pluginsDir;
    // `destination.mkdir(parents=True, exist_ok=True)` raises on a path this user may not inspect,
    // and where a file stands at the plugins path or at `.rivumi`.
    if (atPlugins && base.raised) return fail(base.raised);
    if (base.notDirectory) return fail(pluginsMkdirRaises(pluginsDir, atPlugins ? 'EEXIST' : 'ENOTDIR'));
    return fail(
      atPlugins
        ? 'project plugins path must be a directory'
        : `${portableRelative(repo, base.component)} ${base.what}; nothing was installed`,
    );
  }
  const createdDirs: string[] = [];
  // From here on a refusal also takes away the directories this install created.
  const refuse = (message: string): InstallResult => {
    removeDirectories(createdDirs);
    return fail(message);
  };
  try {
    for (const d of base.missing) if (mkdirIfMissing(d)) createdDirs.push(d);
  } catch (e) {
    return refuse(`could not create ${pluginsDir}: ${pythonErrorText(e)}`);
  }
  if (lstatEntry(pluginsDir).type !== 'directory') return refuse('project plugins path must be a directory');
  const dest = path.join(pluginsDir, `${name}.json`);
  if (!options.overwrite && lstatEntry(dest).type !== 'missing') return refuse(`plugin already installed: ${name}`);
  const manifestProblem = unreplaceable(dest);
  if (manifestProblem)
    return refuse(`plugin manifest destination ${name}.json ${manifestProblem}; nothing was installed`);
  const targets = skills.map((rel) => ({ rel, bytes: sources.get(rel) as Buffer, dest: path.join(pluginsDir, rel) }));
  const toCreate: string[] = [];
  // Rivumi copies the skills one by one: without --overwrite, a skill whose destination an
  // earlier one of the list already copied (`s.md` twice, or `./s.md`) is refused as existing.
  const copied = new Set<string>();
  for (const t of targets) {
    if (!isInside(pluginsDir, t.dest)) return refuse('plugin skill path must stay inside repository');
    const parents = planDirectories(pluginsDir, path.relative(pluginsDir, path.dirname(t.dest)));
    if (!parents.ok)
      return refuse(
        `plugin skill destination ${t.rel}: ${portableRelative(repo, parents.component)} ${parents.what}; nothing was installed`,
      );
    if (!options.overwrite && (copied.has(t.dest) || lstatEntry(t.dest).type !== 'missing'))
      return refuse(`plugin skill already exists: ${t.rel}`);
    copied.add(t.dest);
    const skillProblem = unreplaceable(t.dest);
    if (skillProblem) return refuse(`plugin skill destination ${t.rel} ${skillProblem}; nothing was installed`);
    toCreate.push(...parents.missing);
  }

  // Everything is checked; now write through temporary names and roll back on any failure.
  const { source: _s, directory: _d, ...clean } = data;
  const files = [
    ...targets.map((t) => ({ dest: t.dest, bytes: t.bytes, taken: `plugin skill already exists: ${t.rel}` })),
    // Numbers from their literals (pythonJsonDumps.ts): `name` is replaced, every other value is the input's.
    {
      dest,
      taken: `plugin already installed: ${name}`,
      bytes: Buffer.from(
        sortedJson({ ...clean, name: data.name }, (at) =>
          at[0] === 'name' ? undefined : parsed.document.literalAt(at),
        ) + '\n',
        'utf8',
      ),
    },
  ];
  const unique = new Map(files.map((f) => [f.dest, f]));
  const landings: Landing[] = [];
  const rollback = (): string[] => {
    const problems = undoLandings(landings, repo);
    removeDirectories(createdDirs);
    return problems;
  };
  // The ending says whether the user's files are as they were: "nothing was installed"
  // only when every step was undone, otherwise where each old file now is.
  const failed = (cause: string, problems: string[]): InstallResult =>
    fail(
      problems.length
        ? `${cause}; the install could not be fully undone: ${problems.join('; ')}`
        : `${cause}; nothing was installed`,
    );
  try {
    for (const d of new Set(toCreate)) if (mkdirIfMissing(d)) createdDirs.push(d);
    const realPlugins = realPath(pluginsDir);
    for (const f of unique.values()) {
      // Checked again where it is written: the parent resolves inside the plugins directory.
      if (!isInside(realPlugins, realPath(path.dirname(f.dest))))
        throw new Error(`${portableRelative(repo, path.dirname(f.dest))} resolves outside .rivumi/plugins`);
      land(f.dest, f.bytes, landings, repo, options.overwrite ? undefined : f.taken);
    }
    // Rivumi re-loads every manifest; one broken manifest fails the whole load (§5.4).
    const project = loadRivumiProject(repo);
    const broken = project.plugins.find((p) => p.state === 'invalid');
    // The manifest written here, by its file: plugin names need not be unique (§5.4), and
    // Rivumi's "the one with the installed name" may be another manifest that declares it.
    const plugin = project.plugins.find((p) => p.file === dest && p.name === name && p.state === 'valid');
    if (!plugin || broken)
      return failed(
        broken?.error
          ? `installed plugin could not be loaded: ${name} (${broken.error.message})`
          : `installed plugin could not be loaded: ${name}`,
        rollback(),
      );
    // Every file has landed and loads: the install is complete, and only now may the old
    // copies go. One that cannot be deleted stays beside its file rather than undoing a
    // finished install; its name never ends in `.json`, so Rivumi never reads it.
    for (const l of landings) if (l.backup) removeQuietly(l.backup);
    return { ok: true, plugin, written: landings.map((l) => l.dest) };
  } catch (e) {
    if (e instanceof Taken) return failed(e.message, rollback());
    return failed(`install failed: ${pythonErrorText(e)}`, rollback());
  }
}

/**
 * The largest skill file copied. Every skill is held in memory until all of them have been
 * read, so this bounds an install to 16 x 4 MiB whatever the package holds (a sparse file
 * costs its claimed size here and nothing on disk). Stricter than Rivumi, which copies any
 * size, only for files its skill loader never accepts: it refuses a skill over 32768 bytes,
 * and that refusal fails the whole skill load (rivumi.md §3, §6).
 */
export const MAX_SKILL_COPY_BYTES = 4 * 2 ** 20;

/**
 * The OSError that `is_symlink()` or `is_file()` raises on a path this user may not inspect
 * (a folder on the way at 700 or 744), in Python's words (pythonOsError.ts), or undefined.
 */
function uninspectable(p: string): string | undefined {
  const failed = [lstatEntry(p), statEntry(p)].find((e) => pathlibRaises(e.fault));
  return failed ? pythonOsErrorText(failed.fault, failed.error ?? 'stat error', p) : undefined;
}

function unreadableSkill(rel: string, src: string, read: Exclude<ReadResult, { ok: true }>): string {
  if (read.reason === 'too-large')
    return `plugin skill file could not be read: ${rel} (larger than ${MAX_SKILL_COPY_BYTES} bytes); nothing was installed`;
  if (read.reason === 'io') {
    // `shutil.copyfile` would raise the OSError of the open or the read, in Python's words.
    const why = pythonOsErrorText(read.fault, read.error ?? 'read error', read.during === 'read' ? undefined : src);
    return `plugin skill file could not be read: ${rel} (${why}); nothing was installed`;
  }
  // Replaced by a link or something other than a file since it was checked: Rivumi's words for that.
  return `plugin skill file is missing: ${rel}`;
}

/**
 * Why an existing destination cannot be replaced, or undefined when it can (missing, a
 * file, a link, which is replaced and never followed). A directory (or a pipe, a socket)
 * would be moved aside whole, and Rivumi could not write there either.
 */
function unreplaceable(dest: string): string | undefined {
  const entry = lstatEntry(dest);
  if (entry.error) return `cannot be inspected (${pythonOsErrorText(entry.fault, entry.error, dest)})`;
  if (entry.type === 'directory') return 'is a directory';
  if (entry.type === 'other') return 'is not a regular file';
  return undefined;
}

/** Python's `json.dumps(sort_keys=True, indent=2, ensure_ascii=False)` (pythonJsonDumps.ts). */
export const sortedJson = pythonJsonDumps;
