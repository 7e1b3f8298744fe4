import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeUtf8, isInside, lstatEntry, readRegularFile, statEntry } from '../../fs/safeFs';
import { parseJsonDocument } from '../../documents/jsonDocument';
import { pythonStrip } from './pythonText';
import { fileStem } from './skillFile';
import { pluginManifest, pydanticDetails } from './schemas';
import { loadRivumiProject, MAX_PLUGIN_MANIFEST_BYTES } from './load';
import type { RivumiPlugin } from './model';
import { PYTHON_JSON_MAX_DEPTH, pythonRecursionError } from './pythonJsonDepth';
import { portableRelative } from '../../fs/portablePath';
import { REPORT_INPUT } from '../../documents/parseContext';

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
  let manifest: string;
  try {
    manifest = fs.realpathSync(path.resolve(manifestArg));
  } catch {
    return fail('plugin manifest must be a regular file');
  }
  if (statEntry(manifest).type !== 'file') return fail('plugin manifest must be a regular file');
  const read = readRegularFile(manifest, MAX_PLUGIN_MANIFEST_BYTES);
  if (!read.ok)
    return fail(
      read.reason === 'too-large' ? 'plugin manifest exceeds size limit' : 'plugin manifest must be a regular file',
    );
  const text = decodeUtf8(read.bytes);
  const parsed =
    text === undefined
      ? undefined
      : parseJsonDocument(manifest, text, { python: true, maxDepth: PYTHON_JSON_MAX_DEPTH });
  if (parsed && !parsed.ok && parsed.nesting)
    return fail(`plugin manifest cannot be parsed by Python's json: ${pythonRecursionError(parsed.nesting)}`);
  if (!parsed || !parsed.ok) return fail('plugin manifest must be UTF-8 JSON');
  const value = parsed.document.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail('plugin manifest must be an object');
  const data: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const declared = data.name;
  data.name = options.name ?? (declared ? declared : fileStem(path.basename(manifest)));
  const fileName = path.basename(manifest);
  const result = pluginManifest.safeParse(data, REPORT_INPUT);
  if (!result.success)
    return fail(
      `project plugin manifest is invalid: ${fileName}: ${pydanticDetails(result.error)
        .map((d) => d.text)
        .join('; ')}`,
    );
  const name = pythonStrip(result.data.name);
  const packageDir = path.dirname(manifest);
  const skills = (result.data.skills ?? []).map((s) => pythonStrip(s.path).replace(/\\/g, '/'));
  for (const rel of skills) {
    const src = realpathOrSelf(path.join(packageDir, rel));
    if (!isInside(packageDir, src)) return fail('plugin skill path must stay inside repository');
    if (statEntry(src).type !== 'file') return fail(`plugin skill file is missing: ${rel}`);
  }

  // Destinations are checked by what is on disk, not by their spelling: the repository
  // being installed into may plant a symbolic link (`.rivumi/plugins/skills -> ../../../outside`)
  // that a lexical check passes and a write would follow. Every directory on the way
  // must be a real directory (or missing, then created by us), before anything is written.
  const pluginsDir = path.join(repo, '.rivumi', 'plugins');
  const base = planDirectories(repo, path.join('.rivumi', 'plugins'));
  if (!base.ok)
    return fail(
      base.component === pluginsDir
        ? 'project plugins path must be a directory'
        : `${portableRelative(repo, base.component)} ${base.what}; nothing was installed`,
    );
  try {
    for (const d of base.missing) mkdirIfMissing(d);
  } catch (e) {
    return fail(`could not create ${pluginsDir}: ${(e as Error).message}`);
  }
  if (lstatEntry(pluginsDir).type !== 'directory') return fail('project plugins path must be a directory');
  const dest = path.join(pluginsDir, `${name}.json`);
  if (!options.overwrite && lstatEntry(dest).type !== 'missing') return fail(`plugin already installed: ${name}`);
  const targets = skills.map((rel) => ({
    rel,
    src: realpathOrSelf(path.join(packageDir, rel)),
    dest: path.join(pluginsDir, rel),
  }));
  const toCreate: string[] = [];
  for (const t of targets) {
    if (!isInside(pluginsDir, t.dest)) return fail('plugin skill path must stay inside repository');
    const parents = planDirectories(pluginsDir, path.relative(pluginsDir, path.dirname(t.dest)));
    if (!parents.ok)
      return fail(
        `plugin skill destination ${t.rel}: ${portableRelative(repo, parents.component)} ${parents.what}; nothing was installed`,
      );
    if (!options.overwrite && lstatEntry(t.dest).type !== 'missing')
      return fail(`plugin skill already exists: ${t.rel}`);
    if (lstatEntry(t.dest).type === 'directory')
      return fail(`plugin skill destination ${t.rel} is a directory; nothing was installed`);
    toCreate.push(...parents.missing);
  }
  const realPlugins = fs.realpathSync(pluginsDir);

  // Everything is checked; now write through temporary names and roll back on any failure.
  const { source: _s, directory: _d, ...clean } = data;
  const files = [
    ...targets.map((t) => ({ dest: t.dest, bytes: fs.readFileSync(t.src) })),
    { dest, bytes: Buffer.from(sortedJson({ ...clean, name: data.name }) + '\n', 'utf8') },
  ];
  const unique = new Map(files.map((f) => [f.dest, f]));
  const done: { dest: string; backup: string | null }[] = [];
  const createdDirs: string[] = [];
  const rollback = () => {
    for (const d of done.reverse()) {
      fs.rmSync(d.dest, { force: true });
      if (d.backup) fs.renameSync(d.backup, d.dest);
    }
    for (const dir of createdDirs.reverse()) {
      try {
        fs.rmdirSync(dir);
      } catch {
        // not empty (someone else wrote there) or already gone: leave it
      }
    }
  };
  try {
    for (const d of new Set(toCreate)) if (mkdirIfMissing(d)) createdDirs.push(d);
    for (const f of unique.values()) {
      // Checked again where it is written: the parent resolves inside the plugins directory.
      if (!isInside(realPlugins, fs.realpathSync(path.dirname(f.dest))))
        throw new Error(`${portableRelative(repo, path.dirname(f.dest))} resolves outside .rivumi/plugins`);
      const tmp = `${f.dest}.skillgate-${crypto.randomBytes(6).toString('hex')}`;
      fs.writeFileSync(tmp, f.bytes, { flag: 'wx' });
      let backup: string | null = null;
      if (lstatEntry(f.dest).type !== 'missing') {
        backup = `${f.dest}.skillgate-backup-${crypto.randomBytes(6).toString('hex')}`;
        fs.renameSync(f.dest, backup);
      }
      fs.renameSync(tmp, f.dest);
      done.push({ dest: f.dest, backup });
    }
    // Rivumi re-loads every manifest; one broken manifest fails the whole load (§5.4).
    const project = loadRivumiProject(repo);
    const broken = project.plugins.find((p) => p.state === 'invalid');
    const plugin = project.plugins.find((p) => p.name === name && p.state === 'valid');
    if (!plugin || broken) {
      rollback();
      return fail(
        broken?.error
          ? `installed plugin could not be loaded: ${name} (${broken.error.message}); nothing was installed`
          : `installed plugin could not be loaded: ${name}; nothing was installed`,
      );
    }
    for (const d of done) if (d.backup) fs.rmSync(d.backup, { force: true });
    return { ok: true, plugin, written: done.map((d) => d.dest) };
  } catch (e) {
    rollback();
    return fail(`install failed and was rolled back: ${(e as Error).message}`);
  }
}

type DirectoryPlan =
  | { readonly ok: true; readonly missing: string[] }
  | { readonly ok: false; readonly component: string; readonly what: string };

/**
 * Walks `rel` below `base` one component at a time with lstat: each component that
 * exists must be a directory, never a symbolic link; from the first missing one on,
 * the rest are listed to be created, in order.
 */
function planDirectories(base: string, rel: string): DirectoryPlan {
  const missing: string[] = [];
  let at = base;
  for (const part of rel.split(path.sep).filter((p) => p !== '' && p !== '.')) {
    at = path.join(at, part);
    if (missing.length) {
      missing.push(at);
      continue;
    }
    const entry = lstatEntry(at);
    if (entry.type === 'missing') missing.push(at);
    else if (entry.type === 'symlink') return { ok: false, component: at, what: 'is a symbolic link' };
    else if (entry.type !== 'directory') return { ok: false, component: at, what: 'is not a directory' };
  }
  return { ok: true, missing };
}

/** Creates one directory (never its parents, never through a link); false when it was already there. */
function mkdirIfMissing(dir: string): boolean {
  try {
    fs.mkdirSync(dir);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST' && lstatEntry(dir).type === 'directory') return false;
    throw e;
  }
}

function realpathOrSelf(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** Python's `json.dumps(sort_keys=True, indent=2, ensure_ascii=False)`. */
export function sortedJson(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(sort(value), null, 2);
}
