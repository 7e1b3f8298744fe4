import * as path from 'node:path';
import { readPluginToml } from './formats/pluginToml';
import { readPluginJson } from './formats/pluginJson';
import { readKimiJson } from './formats/kimiJson';
import { MAX_MANIFEST_BYTES } from './formats/mcpJson';
import { validateManifest } from './validateManifest';
import { capabilityPairs, compatibilityOf, inventoryOf, type CompatibilityReport, type Inventory } from './inventory';
import { isSafeCommandName, normalizeSkillName, parseCodewhaleSkill } from './skillFile';
import type { HostFacts } from '../../host';
import type { Manifest, ManifestLabel, Where } from './manifest';
import { hashBundleContent, type HashedFile, type TreeFailureKind } from '../../hashing/bundleContent';
import type { TakenRead } from '../../hashing/readAhead';
import { fileOfRead, rootWasDirectory, type TreeRead } from '../../hashing/treeRead';
import { capabilityHash } from './capabilityHash';
import { declaredCapabilities, declaredWhen } from './capabilities';
import type { HostCondition } from '../../capabilities';
import { POLICY_V3, type CapabilityLabel } from './activationPolicy';
import { reviewToken } from '../../hashing/identity';
import { codewhalePluginId } from './identity';
import {
  canonicalize,
  canonicalPath,
  decodeUtf8,
  lstatEntry,
  readRegularFile,
  statEntry,
  type ReadResult,
} from '../../fs/safeFs';
import { fileReadErrorText } from './fileReadError';
import { rustFaultText } from '../../fs/rustIoErrorText';
import { Findings } from '../../diagnostics/findings';
import type { DiagnosticCode } from '../../diagnostics/diagnosticCodes';
import { walkedTree } from './bundleTree';
import type { BundleSkill, CodewhaleBundle, WhenFacts } from './codewhaleBundle';
import { byteOrder, hasEscapedByte, osBytes, wellFormed } from '../../fs/rawNames';
import { reportHidden } from '../../diagnostics/hiddenCharacterFinding';
import { LineMap } from '../../text/lineMap';
import type { Range, Scope } from '../../model';
import { portableRelative } from '../../fs/portablePath';
import { asciiLower, rustTrim } from '../../text/rustText';
import type { CacheSegment } from '../../cache/parseCache';
import { bundleCacheEntry } from './bundleCache';
import { detached } from '../../text/detached';
import { keyOf } from '../../documents/located';

/** Manifest precedence inside one bundle (codewhale.md §2.4). */
export const MANIFEST_ORDER: readonly ManifestLabel[] = [
  'plugin.json',
  'kimi.plugin.json',
  'plugin.toml',
  '.claude-plugin/plugin.json',
];
const MAX_SKILL_BYTES = 1048576;
const MAX_SKILL_DEPTH = 9;

export interface LoadContext {
  readonly scope: Scope;
  readonly canonicalDiscoveryRoot: string;
  readonly host: HostFacts;
  /** The persistent parse cache of the bundle's discovery root; absent: derive everything (review and trust always do). */
  readonly cache?: CacheSegment;
  /** This bundle's read, made before anything else by its job (bundleJob.ts): from the read-ahead, or in place. */
  readonly taken?: TakenRead;
}

/**
 * The manifest among the files of a bundle's read, read as the loader reads it (§4.1):
 * only from a read that walked the root as a directory, and only a file the read reached
 * within the limit. Undefined otherwise: the disk answers, and fails as it must.
 */
export function manifestOfBundleRead(read: TreeRead, label: ManifestLabel): ReadResult | undefined {
  const file = rootWasDirectory(read) ? fileOfRead(read, label, MAX_MANIFEST_BYTES) : undefined;
  return file && { ok: true, bytes: file.bytes, executable: file.executable };
}

/** Returns undefined when the directory holds no manifest (upstream skips it silently). */
export function resolveManifest(dir: string): ManifestLabel | undefined {
  return MANIFEST_ORDER.find((label) => statEntry(path.join(dir, label)).type === 'file');
}

/**
 * The label `resolveManifest` finds, from the bundle's read instead of a `stat` per label,
 * where the read can tell: it holds `plugin.json`, first in precedence, as a regular file
 * (the walk opened it without following a link). Undefined otherwise: the disk answers. A
 * read's names are as listed, byte for byte, while `stat` on a case-insensitive file
 * system finds `Plugin.json` or a higher label in another case too, so a label missing
 * from the read, or a later one found in it, proves nothing there.
 */
export function manifestOfRead(read: TreeRead): ManifestLabel | undefined {
  const first = MANIFEST_ORDER[0] as ManifestLabel;
  if (!rootWasDirectory(read)) return undefined;
  return read.steps.some((step) => step.kind === 'file' && step.rel === first) ? first : undefined;
}

/**
 * Loads one bundle (codewhale.md §2.5): manifest, validation, content hash, skills,
 * inventory, compatibility, capability hash, `[when]`. Never throws for bad input.
 */
export function loadCodewhaleBundle(dir: string, label: ManifestLabel, ctx: LoadContext): CodewhaleBundle {
  const findings = new Findings();
  const dirName = wellFormed(path.basename(dir));
  // Flat (detached.ts): every place in the manifest and every anchor keeps this path.
  const manifestFile = detached(path.join(dir, label));
  // The manifest's directory, or for the Claude form (.claude-plugin/plugin.json) its parent: the bundle directory either way.
  const bundleRoot = dir;
  const base = {
    scope: ctx.scope,
    dir,
    dirName,
    manifestFile,
    label,
    files: [] as HashedFile[],
    directories: [] as string[],
    skills: [] as BundleSkill[],
    bundleFiles: [manifestFile],
    anchors: {},
  };
  // A read the job took whose walk found the root a directory answers the root's lstat and
  // realpath: it was read at the announced root, the discovery root's real path joined with
  // this directory's name, which is the real path of a directory listed there. Else the
  // disk answers, once; a root that is a link is not walked, and an invalid bundle names
  // where it leads.
  const taken = ctx.taken && rootWasDirectory(ctx.taken.read) ? ctx.taken : undefined;
  const rootEntry = taken ? undefined : lstatEntry(bundleRoot);
  const rootIsDirectory = taken !== undefined || rootEntry?.type === 'directory';
  const resolved = taken || !rootIsDirectory ? undefined : canonicalize(bundleRoot);
  const canonicalRoot = taken ? taken.root : resolved?.ok ? resolved.path : undefined;
  // Copied with Object.assign, not spread: see the valid bundle's return below.
  const invalid = (name = dirName, extra: Partial<CodewhaleBundle> = {}): CodewhaleBundle =>
    Object.assign(
      {},
      base,
      {
        canonicalRoot: canonicalRoot ?? canonicalPath(dir),
        name,
        valid: false,
        when: { applicable: true, reasons: [] },
        diagnostics: findings.diagnostics,
      },
      extra,
    );

  // §4.1: the manifest itself, never through a link, at most 1 MiB, UTF-8.
  if (label === '.claude-plugin/plugin.json' && lstatEntry(path.join(dir, '.claude-plugin')).type !== 'directory') {
    findings.inFile('codewhale.manifest.file', `${label} must be a regular file, not a symbolic link`, manifestFile);
    return invalid();
  }
  // With a taken read (a reader's, or the job's own), the manifest is among the files it
  // read, and the loader parses those bytes instead of opening the file a second time.
  const bundleRead = taken?.read;
  const read =
    (bundleRead && manifestOfBundleRead(bundleRead, label)) || readRegularFile(manifestFile, MAX_MANIFEST_BYTES);
  if (!read.ok) {
    const message =
      read.reason === 'too-large'
        ? `${label} exceeds the ${MAX_MANIFEST_BYTES}-byte review limit`
        : read.reason === 'io'
          ? fileReadErrorText(label, read)
          : `${label} must be a regular file, not a symbolic link`;
    findings.inFile('codewhale.manifest.file', message, manifestFile);
    return invalid();
  }
  // The root's own checks failing with an io error, in upstream's words with Rust's io error (manifest.rs
  // `validate_from_path`: `symlink_metadata(root)`, then `root.canonicalize()`): a root that changed since it
  // was listed, or that this user may not reach. An io failure at the bundle folder, as the content walk's
  // are: not a root that is no directory, and never a rejection without a reason.
  const rootFault =
    rootEntry?.error !== undefined
      ? `failed to inspect plugin root: ${rustFaultText(rootEntry.fault, rootEntry.error)}`
      : resolved && !resolved.ok
        ? `failed to canonicalize plugin root: ${rustFaultText(resolved.fault, resolved.error)}`
        : undefined;
  if (rootFault !== undefined) {
    findings.inFile('codewhale.content.unreadable', rootFault, manifestFile);
    return invalid();
  }
  if (!rootIsDirectory) {
    findings.inFile('codewhale.manifest.root', 'plugin root must be a directory, not a symbolic link', manifestFile);
    return invalid();
  }
  const source = decodeUtf8(read.bytes);
  if (source === undefined) {
    findings.inFile('codewhale.manifest.file', `${label} must be valid UTF-8`, manifestFile);
    return invalid();
  }
  // §7.2 first: one walk reads and hashes every file and keeps the bytes parsed next,
  // and its tree answers the loader's questions about the bundle without the disk.
  const walk =
    canonicalRoot === undefined
      ? undefined
      : hashBundleContent(canonicalRoot, label, read.bytes, parsedNext, bundleRead);
  // Everything after a complete walk derives from its bytes and the bundle's place (bundleCache.ts).
  const cache =
    walk?.ok && ctx.cache && canonicalRoot !== undefined
      ? bundleCacheEntry(ctx.cache, walk, {
          dir,
          label,
          scope: ctx.scope,
          canonicalRoot,
          canonicalDiscoveryRoot: ctx.canonicalDiscoveryRoot,
        })
      : undefined;
  const recalled = cache?.recall((declared) => applicability(declared, ctx.host));
  if (recalled) return recalled;
  const tree = walk?.ok ? walkedTree(walk) : undefined;
  const remembered = (bundle: CodewhaleBundle): CodewhaleBundle => {
    // Not when the disk showed the loader what the walk did not hold: the key would not cover it.
    if (!tree?.beyondWalk) cache?.remember(bundle);
    return bundle;
  };
  const manifest =
    label === 'plugin.toml'
      ? readPluginToml(manifestFile, source, findings)
      : label === 'plugin.json'
        ? readPluginJson(manifestFile, source, bundleRoot, findings, tree)
        : readKimiJson(manifestFile, source, bundleRoot, findings, label, tree);
  const bundleFiles =
    label === 'plugin.json' ? [manifestFile, detached(path.join(bundleRoot, 'mcp.json'))] : [manifestFile];
  if (!manifest || canonicalRoot === undefined || walk === undefined)
    return remembered(
      invalid(dirName, {
        bundleFiles,
        ...(manifest
          ? {
              ...declared(manifest, undefined, undefined),
              anchors: { name: { file: manifestFile, range: findings.rangeOf(manifest.name.at) } },
            }
          : {}),
      }),
    );

  if (path.dirname(canonicalRoot) !== ctx.canonicalDiscoveryRoot) {
    findings.inFile(
      'codewhale.manifest.root',
      `plugin bundle resolved outside its Codewhale-owned discovery root: ${bundleRoot}`,
      manifestFile,
    );
  }
  const checked = validateManifest(canonicalRoot, manifest, findings, tree);
  const anchors: Record<string, { file: string; range: Range }> = {
    name: { file: manifestFile, range: findings.rangeOf(manifest.name.at) },
  };
  for (const s of manifest.mcpServers) anchors[`mcp:${s.id}`] = { file: s.at.file, range: findings.rangeOf(s.at) };
  for (const [kind, spec] of Object.entries(manifest.components))
    anchors[`component:${kind}`] = { file: spec.at.file, range: findings.rangeOf(keyOf(spec.at)) };
  const inventory = inventoryOf(manifest, checked.networkHosts);
  const compatibility = compatibilityOf(inventory, POLICY_V3);
  const pluginId = codewhalePluginId(ctx.scope, osBytes(canonicalRoot), manifest.name.value);
  const name = manifest.name.value;

  const skillRoots = (checked.componentTargets.skills ?? []).map((t) => portableRelative(canonicalRoot, t));
  const sayInactive = () => {
    const inactive = compatibility.unsupportedLabels;
    if (inactive.length === 0) return;
    // Upstream's message, at the first inactive declaration; each one gets a sentence of ours.
    const places = inactive.map((label) => ({
      label,
      at: inactiveAt(manifest, label) ?? { file: manifestFile, path: [] },
    }));
    const related = places.map((p) => ({
      file: p.at.file,
      range: findings.rangeOf(p.at),
      message: INACTIVE_TEXT[p.label],
    }));
    findings.at(
      'codewhale.component-inactive',
      `compatibility ${compatibility.compatibility}; inactive components remain inventoried but are not activated: ${inactive.join(', ')}`,
      places[0]?.at ?? { file: manifestFile, path: [] },
      { related },
    );
  };
  if (!walk.ok) {
    // By the failure the walk met, never by the message's words: a message spells a path, which holds any words.
    findings.inFile(
      WALK_FAILURE_CODE[walk.kind],
      walk.message,
      walk.rel ? path.join(dir, walk.rel) : manifestFile,
      undefined,
      // A limit is the bundle's, at the file where the count ran out, which a new file walked first moves.
      PAST_A_LIMIT.has(walk.kind) ? { place: dir } : undefined,
    );
    // Upstream's load stops at the walk (codewhale.md §2.5 step 1), but the inactive components are
    // still listed, display only, from the manifest: they say why, as under any other invalid manifest.
    sayInactive();
    return invalid(name, {
      ...declared(manifest, inventory, compatibility),
      pluginId,
      inventory,
      compatibility,
      canonicalRoot,
      bundleFiles,
      anchors,
    });
  }
  // Skill files are spelled under the bundle directory as it was reached, as the bundle and its manifest
  // are: under a workspace folder given through a link, the canonical root lies outside the folder given.
  const skills = discoverSkills(dir, name, skillRoots, walk.files, walk.directories, walk.retained, findings);
  const capHash = capabilityHash(POLICY_V3, capabilityPairs(inventory));
  const when = applicability(declaredWhen(manifest), ctx.host);

  sayInactive();
  const kept = declared(manifest, inventory, compatibility);
  // Every key written out, in `base`'s order first: V8 gives every object made by spreading
  // one object and adding keys a hidden class of its own (one per bundle: docs/memory.md).
  return remembered({
    scope: base.scope,
    dir,
    dirName,
    manifestFile,
    label,
    files: walk.files,
    directories: walk.directories,
    skills,
    bundleFiles,
    anchors,
    canonicalRoot,
    name,
    valid: findings.errorCount === 0,
    capabilities: kept.capabilities,
    description: kept.description,
    mcpServerIds: kept.mcpServerIds,
    version: checked.version,
    inventory,
    compatibility,
    contentHash: walk.contentHash,
    capabilityHash: capHash,
    reviewToken: reviewToken(walk.contentHash, capHash),
    pluginId,
    when,
    diagnostics: findings.diagnostics,
  });
}

/**
 * The diagnostic of each way the content walk stops (treeRead.ts `TreeFailureKind`). A
 * root that is no directory when the walk reaches it (it changed after the loader's own
 * check, which says `codewhale.manifest.root`) is upstream's symbolic-link refusal.
 */
const WALK_FAILURE_CODE = {
  unreadable: 'codewhale.content.unreadable',
  'root-not-directory': 'codewhale.content.symlink',
  symlink: 'codewhale.content.symlink',
  'special-file': 'codewhale.content.special-file',
  'changed-length': 'codewhale.content.changed',
  'file-limit': 'codewhale.content.limit',
  'byte-limit': 'codewhale.content.limit',
  'entry-limit': 'codewhale.content.limit',
} as const satisfies Record<TreeFailureKind, DiagnosticCode>;

/**
 * The walk's stops that are about the whole bundle (its files or bytes counted past a limit), not
 * the file it stopped at: a symbolic link or a file that changed is that file's finding.
 */
const PAST_A_LIMIT: ReadonlySet<TreeFailureKind> = new Set(['file-limit', 'byte-limit', 'entry-limit']);

/**
 * Files the loader parses after the walk: the MCP sidecars (`mcp.json`, a Claude bundle's
 * `.mcp.json`) and every SKILL.md below a directory (one in the bundle root is never a
 * skill, §5.1). Keeping them saves reading them again, and the loader parses the bytes the
 * content hash covers, not a later state of the file (the parse cache's key).
 */
function parsedNext(rel: string): boolean {
  return rel === 'mcp.json' || rel === '.mcp.json' || rel.endsWith('/SKILL.md');
}

/**
 * SKILL.md candidates from the hashed file set, claiming directories (codewhale.md §5.1-§5.3),
 * each named under `root`: the bundle directory as it was reached.
 */
function discoverSkills(
  root: string,
  pluginName: string,
  skillRoots: readonly string[],
  files: readonly HashedFile[],
  directories: readonly string[],
  contents: ReadonlyMap<string, Buffer>,
  findings: Findings,
): BundleSkill[] {
  const out: BundleSkill[] = [];
  // Every declared root is read, even one that resolves to a root already read: upstream
  // loops over the resolved roots without merging them (codewhale.md §5.1 "for each declared
  // skills root"; §4.5 `skills` and `./skills` "both count"), so each skill is found twice and
  // its name is a fatal duplicate (§5.3).
  for (const skillRoot of skillRoots) {
    const prefix = skillRoot === '' ? '' : skillRoot + '/';
    // A directory named SKILL.md is a candidate too: upstream reads `<dir>/SKILL.md`, fails on
    // the directory yet sees it exists, and claims `<dir>` with a read warning (§5.1).
    const entries: { path: string; rawPath?: Buffer; isDirectory?: true }[] = [
      ...files,
      ...directories.filter((d) => d.endsWith('/SKILL.md')).map((d) => ({ path: d, isDirectory: true as const })),
    ];
    const candidates = entries
      .filter((f) => f.path.startsWith(prefix))
      .map((f) => ({ f, inner: f.path.slice(prefix.length).split('/') }))
      .filter(
        ({ inner }) =>
          inner[inner.length - 1] === 'SKILL.md' &&
          inner.length >= 2 &&
          inner.length - 1 <= MAX_SKILL_DEPTH &&
          // Hidden as upstream hides: a name that is UTF-8 and starts with `.` (`to_str()` fails on
          // any other, which is then searched: `.\xff/SKILL.md` is a skill Codewhale loads).
          inner.slice(0, -1).every((c) => !c.startsWith('.') || hasEscapedByte(c)),
      )
      .sort(
        (a, b) =>
          a.inner.length - b.inner.length ||
          Buffer.compare(a.f.rawPath ?? osBytes(a.f.path), b.f.rawPath ?? osBytes(b.f.path)),
      );
    const claimed: string[] = [];
    for (const { f, inner } of candidates) {
      const dir = inner.slice(0, -1).join('/');
      if (claimed.some((c) => dir === c || dir.startsWith(c + '/'))) continue;
      claimed.push(dir);
      const abs = path.join(root, f.path);
      if (f.isDirectory) {
        findings.inFile('codewhale.skill-invalid', `Failed to read ${f.path}: Is a directory (os error 21)`, abs);
        continue;
      }
      const file = f as HashedFile;
      if (file.size > MAX_SKILL_BYTES) {
        findings.inFile('codewhale.skill.fatal', 'plugin Skill exceeds the one-megabyte parse limit', abs);
        continue;
      }
      const bytes = contents.get(f.path);
      const text = bytes ? decodeUtf8(bytes) : undefined;
      if (text === undefined) {
        findings.inFile('codewhale.skill.fatal', 'plugin Skill must be valid UTF-8', abs);
        continue;
      }
      const parsed = parseCodewhaleSkill(text);
      if (!parsed.ok && parsed.panics) {
        // Upstream does not warn and skip here: it panics, so nothing of the bundle loads.
        findings.inFile('codewhale.skill.fatal', `${parsed.reason} (${f.path})`, abs);
        continue;
      }
      if (!parsed.ok) {
        findings.inFile('codewhale.skill-invalid', `${parsed.reason} (${f.path})`, abs);
        continue;
      }
      let name = parsed.name;
      const normalized = normalizeSkillName(name);
      if (normalized !== name || !isSafeCommandName(name)) {
        findings.inFile(
          'codewhale.skill-invalid',
          `Skill name \`${name}\` in ${f.path} is not a safe command name; using \`${normalized}\` instead.`,
          abs,
          new LineMap(text).lineRange(lineOf(text, 'name')),
        );
        name = normalized;
      }
      reportHidden(text, abs, findings);
      // The index keeps these for the whole session: copies, so the SKILL.md text they were cut
      // from can go, and the path flat rather than the tree of pieces `path.join` leaves.
      out.push({
        name: detached(name),
        description: detached(parsed.description),
        file: detached(abs),
        rel: f.path,
      });
    }
  }
  // By name, then path, in byte order as upstream sorts (not UTF-16 order).
  out.sort((a, b) => byteOrder(a.name, b.name) || byteOrder(a.rel, b.rel));
  for (let i = 1; i < out.length; i++) {
    const prev = out[i - 1] as BundleSkill;
    const cur = out[i] as BundleSkill;
    if (prev.name === cur.name)
      findings.inFile(
        'codewhale.skill.duplicate-name',
        `plugin \`${pluginName}\` declares duplicate skill name \`${cur.name}\``,
        cur.file,
      );
  }
  return out;
}

function lineOf(text: string, key: string): number {
  const lines = text.split(/\r\n|\r|\n/);
  // Keys as the front-matter parser reads them: Rust's trim, ASCII lowercase (codewhale.md §5.2).
  const i = lines.findIndex((l) => asciiLower(rustTrim(l)).startsWith(`${key}:`));
  return i < 0 ? 0 : i;
}

function applicability(declared: HostCondition | null, host: HostFacts): WhenFacts {
  if (!declared) return { applicable: true, reasons: [] };
  const reasons: string[] = [];
  const { os, binaries } = declared;
  if (os && !os.some((o) => asciiLower(o) === host.os)) {
    reasons.push(
      os.length === 0 ? 'os = [] never applies' : `this host is ${host.os}; the bundle applies to ${os.join(', ')}`,
    );
  }
  for (const b of binaries ?? []) if (!host.hasBinary(b)) reasons.push(`binary \`${b}\` is not on PATH`);
  return { applicable: reasons.length === 0, reasons };
}

/** What a bundle keeps of a manifest that parsed (see `CodewhaleBundle.capabilities`). */
function declared(
  manifest: Manifest,
  inventory: Inventory | undefined,
  compatibility: CompatibilityReport | undefined,
): Pick<CodewhaleBundle, 'capabilities' | 'description' | 'mcpServerIds'> {
  return {
    capabilities: declaredCapabilities(manifest, inventory, compatibility),
    description: manifest.description?.value ?? null,
    mcpServerIds: manifest.mcpServers.map((s) => s.id),
  };
}

/** Where a manifest declares a capability the policy leaves inactive (the key of its table or list). */
function inactiveAt(m: Manifest, label: CapabilityLabel): Where | undefined {
  switch (label) {
    case 'commands':
    case 'agents':
    case 'hooks':
    case 'lsp':
    case 'native': {
      const spec = m.components[label];
      return spec ? keyOf(spec.at) : undefined;
    }
    case 'filesystem-roots': {
      const first = m.filesystemRoots[0];
      return first ? { file: first.at.file, path: first.at.path.slice(0, -1), key: true } : undefined;
    }
    default:
      return undefined;
  }
}

/** Skillgate's explanation of each inactive capability (policy v3, codewhale.md §6.2). */
const INACTIVE_TEXT: Record<CapabilityLabel, string> = {
  skills: 'Codewhale does not load these skills under policy v3.',
  'mcp-stdio': 'Codewhale does not start these local MCP servers under policy v3.',
  'mcp-remote': 'Codewhale does not connect to these remote MCP servers under policy v3.',
  commands:
    'Codewhale lists these commands but never activates them under policy v3; remove the table if the bundle does not need them.',
  agents:
    'Codewhale lists these agents but never activates them under policy v3; remove the table if the bundle does not need them.',
  hooks:
    'Codewhale lists these hooks but never runs them under policy v3; remove the table if the bundle does not need them.',
  lsp: 'Codewhale lists these language servers but never starts them under policy v3; remove the table if the bundle does not need them.',
  native:
    'Codewhale lists this native extension but never loads it under policy v3; remove the table if the bundle does not need it.',
  'filesystem-roots':
    'Codewhale grants no extra filesystem roots under policy v3; remove filesystem_roots if the bundle does not need them.',
  providers: 'Codewhale loads no providers under policy v3.',
  'lifecycle-mutation':
    'Codewhale never lets a bundle change its own lifecycle under policy v3; remove lifecycle_mutation if the bundle does not need it.',
};
