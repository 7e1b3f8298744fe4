import * as path from 'node:path';
import { portableRelative } from '../../fs/portablePath';
import { decodeUtf8 } from '../../fs/rawNames';
import { FILE_START, type Diagnostic } from '../../model';
import { checkAdapterManifest } from './adapterContract';
import { checkCapabilityManifest } from './capabilityContract';
import { checkLuaSkill } from './luaSkillContract';
import { checkSkillAdapter } from './skillAdapterContract';
import type { ContractResult } from './contracts';
import { evaDiagnostic } from './diagnostics';
import { MAX_MANIFEST_BYTES, readManifest, readPrefix, scanYamlFiles } from './files';
import { deniedByPermissions } from '../../fs/permissionDenied';
import { rustFaultText } from '../../fs/rustIoErrorText';
import { rootReadFailure, type EvaProject } from './project';
import type { EvaSchemas } from './schemas';
import { YamlTagged, isMapping, manifestRoot } from './yamlValue';
import { parseEvaYaml, type YamlDocument } from './yamlDocument';
import { manifestString } from './rawManifestSerde';

/**
 * One YAML file under an adapter or capability root, read and classified once (eva.md §1.2,
 * §2.1, the sniff of §4.2): the unit the conflicts and decisions work on.
 */

export type Role = 'skill-adapter' | 'lua-skill' | 'binding' | 'context';

/** One YAML file under an adapter or capability root, read and classified once. */
export interface ManifestEntry {
  readonly abs: string;
  readonly rel: string;
  readonly area: 'adapter' | 'capability';
  readonly role: Role;
  readonly bytes: Buffer | undefined;
  readonly doc: YamlDocument | undefined;
  /** C1 failure. */
  readonly unreadable: 'manifest_too_large' | 'schema_invalid' | null;
  readonly check: ContractResult | undefined;
  readonly id: string | null;
  readonly itemId: string | null;
  readonly diagnostics: Diagnostic[];
  shipped: boolean;
  /** Set when a provider it names is no adapter of the project: a cross-file error, `schema_invalid` (eva.md §4.1). */
  providerMissing: boolean;
  /** Set when a same-key manifest earlier in path order wins. */
  shadow: { readonly by: ManifestEntry } | undefined;
}

export function scanRoot(
  project: EvaProject,
  key: 'adapter_dir' | 'capability_dir' | 'policy_dir',
  diagnostics: Diagnostic[],
): string[] {
  const root = project.roots[key];
  if (root === null) return [];
  const scan = scanYamlFiles(root, project.maxFilesPerDir);
  for (const link of scan.symlinks)
    diagnostics.push(
      evaDiagnostic(
        link,
        FILE_START,
        'eva.scan.symlink-ignored',
        'symbolic link ignored: Eva-CLI does not follow links in configuration directories',
      ),
    );
  // Upstream `collect_files` (eva-config lib.rs): `fs::read_dir(root).map_err(|error| io_error(error, root,
  // "config root"))?`, so a directory it cannot list, the root or one below, fails the whole project load
  // (`failed to read config root`, its io error in context: Rust's `io::Error` Display). Left out, its
  // manifests were simply absent. An entry whose type cannot be learnt fails the same way, at the entry.
  for (const e of scan.errors)
    diagnostics.push(
      evaDiagnostic(
        e.dir,
        FILE_START,
        'eva.scan.unreadable',
        rootReadFailure(rustFaultText(e.fault, e.error), deniedByPermissions(e.fault)),
      ),
    );
  // At the directory's first skipped file, where the editor shows it; about the directory whose cap
  // was hit (`place`), which a new file sorting before that file does not move.
  for (const o of scan.overflow)
    diagnostics.push({
      ...evaDiagnostic(
        o.first,
        FILE_START,
        'eva.scan.limit',
        `more than ${project.maxFilesPerDir} ${project.maxFilesPerDir === 1 ? 'file' : 'files'} in this directory; Eva's discovery limit stops here (${o.skipped} skipped)`,
      ),
      place: path.dirname(o.first),
    });
  return [...scan.files];
}

export type ReadOutcome =
  | { readonly doc: YamlDocument; readonly bytes: Buffer }
  | {
      readonly diagnostic: Diagnostic;
      readonly unreadable: 'manifest_too_large' | 'schema_invalid';
      readonly sniffText: string | undefined;
    };

/** C1: size, UTF-8, one YAML document (§1.2, §2.1). */
export function readAndParse(abs: string, limit: number): ReadOutcome {
  const read = readManifest(abs, limit);
  if (!read.ok) {
    if (read.problem === 'too-large')
      return {
        diagnostic: evaDiagnostic(
          abs,
          FILE_START,
          'eva.manifest.too-large',
          `manifest is larger than max_manifest_bytes (${limit} bytes)`,
        ),
        unreadable: 'manifest_too_large',
        sniffText: sniff(abs),
      };
    // Upstream schema.rs `read_data`: `failed to read configuration file`, its io error in context.
    // A file this user may not read is one Eva-CLI run as another user loads; it cannot be sniffed
    // either, so no item stands for it, and the error says so.
    return {
      diagnostic: evaDiagnostic(
        abs,
        FILE_START,
        'eva.manifest.read',
        deniedByPermissions(read.fault)
          ? `failed to read configuration file: ${read.detail}; Eva-CLI run as a user who may read it loads this file, which Skillgate cannot show`
          : `failed to read configuration file: ${read.detail}`,
      ),
      unreadable: 'schema_invalid',
      sniffText: sniff(abs),
    };
  }
  const parsed = parseEvaYaml(abs, read.text);
  if (!parsed.ok)
    return {
      diagnostic: evaDiagnostic(abs, parsed.range, 'eva.yaml.parse', parsed.message),
      unreadable: 'schema_invalid',
      sniffText: read.text,
    };
  return { doc: parsed.document, bytes: read.bytes };
}

/** The first 1 MiB as text: UTF-16 by its BOM, else lossy UTF-8 (§4.2 sniff). */
export function sniff(abs: string): string | undefined {
  const bytes = readPrefix(abs, MAX_MANIFEST_BYTES);
  if (!bytes) return undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  return decodeUtf8(bytes) ?? new TextDecoder('utf-8').decode(bytes);
}

const SNIFF_ADAPTER = /^transport:[ \t]*["']?skill["']?[ \t]*(#.*)?$/m;
const SNIFF_CAPABILITY = /^kind:[ \t]*["']?(lua_skill|skill)["']?[ \t]*(#.*)?$/m;

export function sniffRole(text: string | undefined, area: 'adapter' | 'capability'): Role {
  if (text === undefined) return 'context';
  const lines = text.replace(/\r\n?/g, '\n');
  if (area === 'adapter') return SNIFF_ADAPTER.test(lines) ? 'skill-adapter' : 'context';
  const m = SNIFF_CAPABILITY.exec(lines);
  return m ? (m[1] === 'lua_skill' ? 'lua-skill' : 'binding') : 'context';
}

/** `projectTag` names the project in the item id (indexEva.ts): unique per workspace folder, not its base name. */
export function readEntry(
  abs: string,
  area: 'adapter' | 'capability',
  project: EvaProject,
  projectTag: string,
  schemas: EvaSchemas,
): ManifestEntry {
  const rel = portableRelative(project.root, abs);
  const itemId = `eva:${projectTag}:${area}:${rel}`;
  const read = readAndParse(abs, project.maxManifestBytes);
  if (!('doc' in read)) {
    const role = sniffRole(read.sniffText, area);
    // The size cap is Skillgate's (design limits): the shipped loader has none (§7.1).
    return {
      abs,
      rel,
      area,
      role,
      bytes: undefined,
      doc: undefined,
      unreadable: read.unreadable,
      check: undefined,
      id: null,
      itemId,
      diagnostics: [read.diagnostic],
      shipped: read.unreadable !== 'manifest_too_large',
      providerMissing: false,
      shadow: undefined,
    };
  }
  const { doc } = read;
  // A tagged root mapping (`--- !t`) is the manifest itself to serde (manifestRoot).
  const value = manifestRoot(doc);
  const field = area === 'adapter' ? 'transport' : 'kind';
  const declared = isMapping(value) ? value[field] : undefined;
  // serde's `String` reads a scalar through its tag: `kind: !t lua_skill` is a lua_skill, whose
  // contract (the design's, eva.md §2.5) has no upstream schema to refuse the tag first.
  const taggedLuaSkill =
    area === 'capability' &&
    isMapping(value) &&
    declared instanceof YamlTagged &&
    manifestString(doc, value, field) === 'lua_skill';
  let role: Role;
  if (taggedLuaSkill) role = 'lua-skill';
  else if (typeof declared !== 'string') role = sniffRole(doc.text, area);
  else if (area === 'adapter') role = declared === 'skill' ? 'skill-adapter' : 'context';
  else role = declared === 'lua_skill' ? 'lua-skill' : declared === 'skill' ? 'binding' : 'context';
  let check: ContractResult;
  if (taggedLuaSkill) check = checkLuaSkill(doc);
  else if (!isMapping(value) || typeof declared !== 'string') {
    // Not a mapping, or no readable transport/kind: the upstream schema says why.
    check =
      area === 'adapter'
        ? checkAdapterManifest(doc, schemas.schemas.adapter)
        : checkCapabilityManifest(doc, schemas.schemas.capability);
    // Where the project's schema leaves the field open and the loader passed the file, Eva reads
    // it as a serde `String`: `transport: !t skill` is "skill", a skill adapter Eva registers
    // (and `kind: !t skill` a binding), not a file it refuses; any other such mapping has a
    // transport/kind the loader knows (`!t stdio` is "stdio"), a context file Eva loads.
    if (!check.invalid && isMapping(value) && manifestString(doc, value, field) === 'skill') {
      role = area === 'adapter' ? 'skill-adapter' : 'binding';
      if (area === 'adapter') check = checkSkillAdapter(doc, schemas.schemas.adapter);
    }
    // Any other root the loader refuses with serde's words (manifestRootSerdeError); a root that
    // is no mapping and still passed would be a reading Skillgate lacks: refused, not guessed.
    else if (!check.invalid && !isMapping(value)) check = { ...check, invalid: true, shippedError: true };
  } else if (role === 'skill-adapter') check = checkSkillAdapter(doc, schemas.schemas.adapter);
  else if (role === 'lua-skill') check = checkLuaSkill(doc);
  else if (area === 'adapter') check = checkAdapterManifest(doc, schemas.schemas.adapter);
  else check = checkCapabilityManifest(doc, schemas.schemas.capability);
  // A manifest the loader passed has serde's text of its id (`id: 5` is "5" where the project's
  // schema leaves it open); of one it refused, only a string id is taken.
  const id = check.contract?.id ?? (isMapping(value) && typeof value['id'] === 'string' ? value['id'] : null);
  return {
    abs,
    rel,
    area,
    role,
    bytes: read.bytes,
    doc,
    unreadable: null,
    check,
    id,
    itemId,
    diagnostics: [...check.diagnostics],
    shipped: check.shippedError,
    providerMissing: false,
    shadow: undefined,
  };
}
