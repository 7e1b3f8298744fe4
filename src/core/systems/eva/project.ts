import * as path from 'node:path';
import { canonicalPath, isInside, lstatEntry, statEntry } from '../../fs/safeFs';
import { deniedByPermissions } from '../../fs/permissionDenied';
import { rustErrnoText, rustFaultText } from '../../fs/rustIoErrorText';
import { joinAsSpelled } from '../../fs/spelledPath';
import { FILE_START, type Diagnostic } from '../../model';
import { evaDiagnostic } from './diagnostics';
import { MAX_FILES_PER_DIR, MAX_MANIFEST_BYTES, readManifest } from './files';
import { basePathField, baseEnv, evaStruct, layeredEnv, layeredPathField } from './evaYamlSerde';
import { structField } from './serdeStruct';
import { isMapping, manifestRoot, yamlTypeName } from './yamlValue';
import { parseEvaYaml, type YamlDocument } from './yamlDocument';

/**
 * An Eva project in a workspace folder (eva.md §1.1): `config/eva.yaml` layered with its
 * profile, user and environment files, the configuration roots it names, and the
 * design limits it may lower.
 */

export type RootKey = 'adapter_dir' | 'capability_dir' | 'policy_dir' | 'schema_dir';
const ALL_ROOT_KEYS = ['agent_dir', 'adapter_dir', 'capability_dir', 'policy_dir', 'route_file', 'schema_dir'] as const;
const DEFAULT_ROOTS: Record<RootKey, string> = {
  adapter_dir: 'config/adapters',
  capability_dir: 'config/capabilities',
  policy_dir: 'config/policies',
  schema_dir: 'config/schemas',
};

export interface EvaProject {
  /** The workspace folder, canonical. */
  readonly root: string;
  readonly configFile: string;
  /** The base `eva.yaml`, when it parsed (ranges for diagnostics). */
  readonly document: YamlDocument | undefined;
  /** The layered value (base, profile, user, environment). */
  readonly value: Record<string, unknown> | undefined;
  /** Absolute root per key, or null when it is not scanned (outside, missing, behind a folder this user may not search). */
  readonly roots: Record<RootKey, string | null>;
  /** Roots behind a folder this user may not search, by key: said at the root, where Eva's load stops. */
  readonly unreadableRoots: Partial<Record<RootKey, string>>;
  readonly maxManifestBytes: number;
  readonly maxFilesPerDir: number;
  readonly scanUserDirs: boolean;
  /** Real paths of the layers read: a link's target or a nested env name lies outside the watched layer patterns. */
  readonly layerFiles: readonly string[];
  readonly diagnostics: Diagnostic[];
  /** True when an eva.yaml problem would stop the shipped loader (§4.5). */
  readonly shippedError: boolean;
}

/**
 * Whether `folder` is an Eva project: its `config/eva.yaml` names a regular file. Upstream's
 * `load_project_config` (eva-config lib.rs) reads that path with `fs::read_to_string`, which
 * follows links (the file's own and `config/`'s): a link to a file is the entry file Eva
 * loads, and a dangling one is a project Eva cannot load either.
 */
export function hasEvaEntryFile(folder: string): boolean {
  return statEntry(path.join(folder, 'config', 'eva.yaml')).type === 'file';
}

/** The project at `folder`, or undefined when the folder is not an Eva project. */
export function loadEvaProject(folder: string): EvaProject | undefined {
  const root = canonicalPath(folder) ?? path.resolve(folder);
  const configFile = path.join(root, 'config', 'eva.yaml');
  if (!hasEvaEntryFile(root)) return undefined;
  const realConfig = canonicalPath(configFile);
  if (realConfig === undefined) return undefined;
  const diagnostics: Diagnostic[] = [];
  // Eva reads the entry file through a link; Skillgate never reads outside the workspace. One that
  // lies outside still makes this a project, so the sample roots stand in (as for an unreadable
  // eva.yaml) and the skills under them are listed and gated, not hidden.
  const readable = isInside(root, realConfig);
  if (!readable)
    diagnostics.push(
      evaDiagnostic(
        configFile,
        undefined,
        'eva.project.root-outside',
        'config/eva.yaml resolves outside the workspace; Skillgate does not read it',
      ),
    );
  let shippedError = false;
  const invalid = (message: string, range?: ReturnType<YamlDocument['fieldRange']>) => {
    diagnostics.push(evaDiagnostic(configFile, range, 'eva.project.config-invalid', message));
    shippedError = true;
  };

  let document: YamlDocument | undefined;
  let base: Record<string, unknown> | undefined;
  let env: string | undefined;
  let value: Record<string, unknown> | undefined;
  // The target of a linked entry file is outside the watched layer patterns: its change re-reads the project too.
  const layerFiles: string[] = readable && realConfig !== configFile ? [realConfig] : [];
  // Not read when outside the workspace (said above): the sample roots below.
  const read = readable ? readManifest(realConfig, MAX_MANIFEST_BYTES) : undefined;
  // Upstream `load_eva_config` reads it first, with `read_yaml_file(path, "eva.yaml")`: an io failure
  // (UTF-8 included: `read_to_string`) is `io_error`'s `failed to read eva.yaml`, its io error in context.
  if (read && !read.ok)
    invalid(
      read.problem === 'too-large'
        ? `manifest is larger than max_manifest_bytes (${MAX_MANIFEST_BYTES} bytes)`
        : `failed to read eva.yaml: ${read.detail}`,
    );
  else if (read) {
    const parsed = parseEvaYaml(configFile, read.text);
    // `--- !t` over the mapping is that mapping to Eva: its schema reads the root with `as_mapping`
    // and serde derive ignores a mapping's tag (manifestRoot).
    const top = parsed.ok ? manifestRoot(parsed.document) : undefined;
    if (!parsed.ok) invalid(parsed.message, parsed.range);
    else if (!isMapping(top)) invalid(`schema type mismatch: expected object, got ${yamlTypeName(top)}`);
    else {
      document = parsed.document;
      base = top;
      env = baseEnv(parsed.document, top);
      value = layered(root, configFile, top, env, invalid, diagnostics, layerFiles);
    }
  }

  // Each root as Eva reads it (evaYamlSerde.ts): the base file's text first (`load_eva_config`),
  // then the merged value's string (`load_eva_config_value`), which is the root. A refusal is
  // reported in upstream's words; a root the merged value does not give is the sample default.
  const baseConfig = evaStruct(base, 'config');
  const config = evaStruct(value, 'config');
  const declaredRoots = new Map<string, string>();
  const roots = {} as Record<RootKey, string | null>;
  const unreadableRoots: Partial<Record<RootKey, string>> = {};
  if (value && document) {
    for (const key of ALL_ROOT_KEYS) {
      const field = document.fieldRange(['config', key]);
      const first = baseConfig ? basePathField(document, baseConfig, ['config', key]) : undefined;
      const baseRead = first !== undefined && 'ok' in first;
      if (!baseRead) invalid(first?.message ?? 'required field is missing', field);
      const v = config?.[key];
      if (v === undefined) continue;
      const merged = layeredPathField(v);
      if ('ok' in merged) declaredRoots.set(key, merged.ok);
      // Upstream stops at the base file's refusal: the merged value is never read then.
      else if (baseRead) invalid(merged.message, field);
    }
  }
  // The env the layers were named by is read again from the merged value: `env: 5` named
  // `environments/5.yaml`, and then the number 5 is no `String`.
  const runtime = evaStruct(value, 'runtime');
  const mergedEnv = env !== undefined && runtime ? structField(runtime, 'env') : undefined;
  const envRead = mergedEnv === undefined ? undefined : layeredEnv(mergedEnv);
  if (envRead && !('ok' in envRead)) invalid(envRead.message, document?.fieldRange(['runtime', 'env']));
  for (const key of Object.keys(DEFAULT_ROOTS) as RootKey[]) {
    const declared = declaredRoots.get(key) ?? DEFAULT_ROOTS[key];
    const field = document && declaredRoots.has(key) ? document.fieldRange(['config', key]) : undefined;
    const abs = path.resolve(root, declared);
    // What upstream reads is `project_root.join(declared)` as the OS resolves it: a `..` after
    // a link leaves the link's target, so the real root comes from the unnormalized join.
    const real = canonicalPath(joinAsSpelled(root, declared));
    if (!isInside(root, abs) || (real !== undefined && !isInside(root, real))) {
      diagnostics.push(
        evaDiagnostic(
          configFile,
          field,
          'eva.project.root-outside',
          `${key} resolves outside the workspace; Skillgate does not scan it`,
        ),
      );
      roots[key] = null;
    } else if (real === undefined) {
      const denied = lstatEntry(joinAsSpelled(root, declared));
      if (denied.error !== undefined && deniedByPermissions(denied.fault)) {
        // Behind a folder this user may not search, the root is not missing: upstream's first read of it
        // fails (`collect_files`' `read_dir`: `failed to read config root`; for the schemas, `read_schema`:
        // `failed to read JSON Schema`), and Eva-CLI run as a user who may read it loads what is there.
        // Its real path is unknown, so it is not scanned: said here instead of `does not exist`.
        const message = rootReadFailure(rustFaultText(denied.fault, denied.error), true, key === 'schema_dir');
        if (key === 'schema_dir')
          diagnostics.push(evaDiagnostic(configFile, field, 'eva.project.schema-missing', message));
        else {
          diagnostics.push(evaDiagnostic(abs, FILE_START, 'eva.scan.unreadable', message));
          unreadableRoots[key] = abs;
        }
      }
      // The sample defaults stand in for a broken eva.yaml; a missing default root is no news.
      else if (field) {
        diagnostics.push(
          evaDiagnostic(
            configFile,
            field,
            'eva.project.root-missing',
            unreachableRootMessage(key, joinAsSpelled(root, declared)),
          ),
        );
        shippedError = true;
      }
      roots[key] = null;
    } else roots[key] = real;
  }

  const limits =
    value && isMapping(value['discovery']) && isMapping(value['discovery']['limits'])
      ? value['discovery']['limits']
      : undefined;
  const lower = (v: unknown, cap: number) =>
    typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < cap ? v : cap;
  const discovery = value && isMapping(value['discovery']) ? value['discovery'] : undefined;
  return {
    root,
    configFile,
    document,
    value,
    roots,
    unreadableRoots,
    maxManifestBytes: lower(limits?.['max_manifest_bytes'], MAX_MANIFEST_BYTES),
    maxFilesPerDir: lower(limits?.['max_files_per_dir'], MAX_FILES_PER_DIR),
    // A project may narrow user enumeration, never widen it (eva.md §1.3).
    scanUserDirs: discovery?.['scan_user_dirs'] !== false,
    layerFiles,
    diagnostics,
    shippedError,
  };
}

/**
 * A declared root that is not there, as Eva-CLI fails on it first. Upstream `load_project_config`
 * (eva-config lib.rs) reads `<schema_dir>/eva.schema.json` (`validate_yaml_value_with_schema`, schema.rs
 * `read_schema`: `failed to read JSON Schema`), then lists every scanned root (`find_yaml_files`,
 * `collect_files`' `read_dir`: `io_error(error, root, "config root")`), all before `validate_roots`, whose
 * `configuration directory does not exist` a missing root never reaches. The io error is the one a
 * `stat` of the root meets, which that open and that listing meet too (a name that is absent, a file on
 * the way, a link that loops), in Rust's words.
 */
function unreachableRootMessage(key: RootKey, joined: string): string {
  const entry = statEntry(joined);
  const io =
    entry.fault && entry.error !== undefined
      ? rustFaultText(entry.fault, entry.error)
      : rustErrnoText('ENOENT', 'No such file or directory');
  return rootReadFailure(io, false, key === 'schema_dir');
}

/**
 * Upstream's sentence for a root it fails to read, its io error after it: a scanned root's
 * listing (lib.rs `collect_files`: `failed to read config root`), the schemas' read (schema.rs
 * `read_schema`: `failed to read JSON Schema`, where Skillgate's embedded copy stands in). A
 * scanned root refused for want of permission (`denied`) says what a user who may read it loads.
 */
export function rootReadFailure(io: string, denied: boolean, schemas = false): string {
  if (schemas) return `failed to read JSON Schema: ${io}; using Skillgate's embedded copy`;
  return denied
    ? `failed to read config root: ${io}; Eva-CLI run as a user who may read it loads the manifests there, which Skillgate cannot show`
    : `failed to read config root: ${io}`;
}

/**
 * `config/profiles/<env>.yaml`, `config/eva.user.yaml`, `config/environments/<env>.yaml`
 * deep-merged over the base in that order: mappings key by key, anything else replaced,
 * a type change an error.
 */
function layered(
  root: string,
  configFile: string,
  base: Record<string, unknown>,
  baseEnvName: string | undefined,
  invalid: (message: string) => void,
  diagnostics: Diagnostic[],
  layerFiles: string[],
): Record<string, unknown> {
  // The env names the layers as the base file alone reads it (`base_eva.runtime.env`): any
  // scalar's text, tag or not (`!t prod`, `5`).
  const env = baseEnvName !== undefined && !baseEnvName.includes('\0') ? baseEnvName : undefined;
  // Upstream: `config_dir.join("profiles").join(format!("{env}.yaml"))`, read when `path.exists()`
  // (following links). Any env name counts (`eu/prod`, `../x`); only what lies outside the
  // workspace is not read, and that is said.
  const layers = [
    env !== undefined && (path.isAbsolute(env) ? `${env}.yaml` : `config/profiles/${env}.yaml`),
    'config/eva.user.yaml',
    env !== undefined && (path.isAbsolute(env) ? `${env}.yaml` : `config/environments/${env}.yaml`),
  ].filter((l): l is string => !!l);
  let merged = base;
  for (const rel of layers) {
    const abs = joinAsSpelled(root, rel);
    if (statEntry(abs).type === 'missing') continue;
    const real = canonicalPath(abs);
    if (real === undefined) continue;
    if (!isInside(root, real)) {
      diagnostics.push(
        evaDiagnostic(
          configFile,
          undefined,
          'eva.project.root-outside',
          `${rel} resolves outside the workspace; Skillgate does not read it`,
        ),
      );
      continue;
    }
    layerFiles.push(real);
    const read = readManifest(real, MAX_MANIFEST_BYTES);
    if (!read.ok) {
      // Upstream `read_yaml_file(&path, "eva.yaml override")` (eva-config lib.rs `load_project_config`).
      invalid(`failed to read eva.yaml override: ${rel}: ${read.detail}`);
      continue;
    }
    const parsed = parseEvaYaml(abs, read.text);
    if (!parsed.ok) {
      invalid(`${rel}: ${parsed.message}`);
      continue;
    }
    if (!isMapping(parsed.document.value)) continue;
    merged = deepMerge(merged, parsed.document.value, rel, invalid);
  }
  return merged;
}

function deepMerge(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
  rel: string,
  invalid: (message: string) => void,
): Record<string, unknown> {
  const out = Object.assign(Object.create(null) as Record<string, unknown>, a);
  for (const key of Object.keys(b)) {
    const left = out[key];
    const right = b[key];
    if (isMapping(left) && isMapping(right)) out[key] = deepMerge(left, right, rel, invalid);
    else if (left !== undefined && left !== null && right !== null && kindOf(left) !== kindOf(right))
      invalid(`${rel}: configuration layer changes the type of ${key}`);
    else out[key] = right;
  }
  return out;
}

/** A layer's value kind as upstream's merge compares them: an integer and a float are both numbers. */
function kindOf(v: unknown): string {
  return yamlTypeName(v);
}
