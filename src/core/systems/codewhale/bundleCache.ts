import type { CacheSegment } from '../../cache/parseCacheSegment';
import { POLICY_V3 } from './activationPolicy';
import type { CodewhaleBundle, WhenFacts } from './codewhaleBundle';
import type { ContentWalk } from '../../hashing/bundleContent';
import { sha256Hex } from '../../hashing/framing';
import type { HostCondition } from '../../capabilities';
import { recalledCapabilities, type StoredCapabilities } from './capabilities';
import { isJsonObject } from '../../documents/jsonObject';

/**
 * The persistent parse cache's view of one Codewhale bundle (docs/parse-cache.md).
 * After the content walk, everything the loader derives — what the manifest declares,
 * validation findings, skills, inventory, compatibility, capability hash, anchors — is a function
 * of the walked bytes and of the bundle's place: the key below. What is not is never
 * stored: the walk's own file list (read fresh, with raw names as bytes) and `[when]`,
 * which asks the host what is on PATH now. Trust and shadowing are decided later,
 * from the trust store and the other bundles, on every compose.
 */
export interface BundlePlace {
  readonly dir: string;
  readonly label: string;
  readonly scope: string;
  /** The walked (canonical) bundle root, and the discovery root it must sit in. */
  readonly canonicalRoot: string;
  readonly canonicalDiscoveryRoot: string;
}

/** The inputs a cached bundle was derived from: the walked content and where it sits. */
function derivationKey(contentHash: string, place: BundlePlace): string {
  const inputs = JSON.stringify([
    contentHash,
    `policy-v${POLICY_V3.version}`,
    place.label,
    place.scope,
    place.dir,
    place.canonicalRoot,
    place.canonicalDiscoveryRoot,
  ]);
  return sha256Hex(inputs);
}

/** One bundle's entry: recalled before deriving, remembered after. */
export interface BundleCacheEntry {
  /** The stored bundle completed with the walk's facts and `[when]` asked now; undefined on a miss. */
  recall(when: (declared: HostCondition | null) => WhenFacts): CodewhaleBundle | undefined;
  remember(bundle: CodewhaleBundle): void;
}

export function bundleCacheEntry(cache: CacheSegment, walk: CompleteWalk, place: BundlePlace): BundleCacheEntry {
  const key = derivationKey(walk.contentHash, place);
  return {
    recall: (when) => recalledBundle(cache.get(place.dir, key), place, walk, when),
    remember: (bundle) => {
      // A bundle whose walk reached the end carries the walk's facts; placeholders keep its key order.
      const stored =
        bundle.contentHash === undefined
          ? bundle
          : { ...bundle, contentHash: null, files: null, directories: null, when: null };
      cache.put(place.dir, key, stored);
    },
  };
}

type CompleteWalk = Extract<ContentWalk, { ok: true }>;

function recalledBundle(
  stored: unknown,
  place: BundlePlace,
  walk: CompleteWalk,
  when: (declared: HostCondition | null) => WhenFacts,
): CodewhaleBundle | undefined {
  // The shape the index reads is checked; the rest is the loader's own output, as plain data.
  if (!isStoredBundle(stored)) return undefined;
  if (
    stored.dir !== place.dir ||
    stored.scope !== place.scope ||
    stored.label !== place.label ||
    stored.canonicalRoot !== place.canonicalRoot
  )
    return undefined;
  const walked = stored.contentHash === null;
  // Either every walk fact is a placeholder (the walk reached the end) or none is.
  if ([stored.files, stored.directories, stored.when].some((v) => (v === null) !== walked)) return undefined;
  if (!stored.capabilities) return walked ? undefined : (stored as unknown as CodewhaleBundle);
  const capabilities = recalledCapabilities(stored.capabilities);
  if (!walked) return { ...(stored as unknown as CodewhaleBundle), capabilities };
  return {
    ...(stored as unknown as CodewhaleBundle),
    capabilities,
    contentHash: walk.contentHash,
    files: walk.files,
    directories: walk.directories,
    when: when(capabilities.when ?? null),
  };
}

/**
 * Whether a recalled value has the shape of a stored bundle as far as the index reads
 * it (other fields pass through untouched). Checked by hand rather than by a schema
 * that builds a copy of every object it checks: a warm run checks every bundle (about
 * 7 KB of JSON each) and keeps none of the copies. An object is any non-null object
 * but an array, as JSON gives it.
 */
function isStoredBundle(v: unknown): v is StoredBundle {
  return (
    isJsonObject(v) &&
    (v.scope === 'user' || v.scope === 'workspace') &&
    typeof v.dir === 'string' &&
    typeof v.dirName === 'string' &&
    typeof v.canonicalRoot === 'string' &&
    typeof v.manifestFile === 'string' &&
    typeof v.label === 'string' &&
    typeof v.name === 'string' &&
    typeof v.valid === 'boolean' &&
    optional(v.capabilities, isStoredCapabilities) &&
    optional(v.description, (d) => d === null || isString(d)) &&
    optional(v.mcpServerIds, (ids) => everyOf(ids, isString)) &&
    optional(v.version, isString) &&
    optional(v.inventory, isJsonObject) &&
    (v.compatibility === undefined ||
      (isJsonObject(v.compatibility) && typeof v.compatibility.compatibility === 'string')) &&
    (v.contentHash === undefined || v.contentHash === null) &&
    optional(v.capabilityHash, isString) &&
    optional(v.reviewToken, isString) &&
    optional(v.pluginId, isString) &&
    (v.files === null || isEmptyArray(v.files)) &&
    (v.directories === null || isEmptyArray(v.directories)) &&
    everyOf(v.skills, isSkill) &&
    (v.when === null || (isJsonObject(v.when) && v.when.applicable === true && isEmptyArray(v.when.reasons))) &&
    everyOf(v.diagnostics, isDiagnostic) &&
    isJsonObject(v.anchors) &&
    Object.values(v.anchors).every(isAnchor) &&
    everyOf(v.bundleFiles, isString)
  );
}

/** The fields of a stored bundle the index reads before it hands the bundle out. */
interface StoredBundle {
  readonly scope: string;
  readonly dir: string;
  readonly label: string;
  readonly canonicalRoot: string;
  readonly capabilities?: StoredCapabilities;
  readonly contentHash?: null;
  readonly files: null | [];
  readonly directories: null | [];
  readonly when: null | object;
}

/**
 * The capability model as the loader stores it (capabilities.ts), to the depth its
 * recall rebuilds: the records by name, each server's maps, and `[when]`'s lists.
 */
function isStoredCapabilities(v: unknown): boolean {
  return (
    isJsonObject(v) &&
    v.system === 'codewhale' &&
    isJsonObject(v.components) &&
    Object.values(v.components).every((paths) => everyOf(paths, isString)) &&
    isJsonObject(v.mcpServers) &&
    Object.values(v.mcpServers).every(
      (s) => isJsonObject(s) && isJsonObject(s.env) && isJsonObject(s.envHeaders) && isJsonObject(s.timeouts),
    ) &&
    Array.isArray(v.networkHosts) &&
    Array.isArray(v.filesystemRoots) &&
    typeof v.lifecycleMutation === 'boolean' &&
    (v.when === null ||
      (isJsonObject(v.when) &&
        (v.when.os === null || everyOf(v.when.os, isString)) &&
        (v.when.binaries === null || everyOf(v.when.binaries, isString))))
  );
}

function isString(v: unknown): v is string {
  return typeof v === 'string';
}

function optional(v: unknown, is: (v: unknown) => boolean): boolean {
  return v === undefined || is(v);
}

function isEmptyArray(v: unknown): v is [] {
  return Array.isArray(v) && v.length === 0;
}

function everyOf(v: unknown, is: (e: unknown) => boolean): boolean {
  return Array.isArray(v) && v.every(is);
}

function isSkill(v: unknown): boolean {
  return (
    isJsonObject(v) &&
    typeof v.name === 'string' &&
    typeof v.description === 'string' &&
    typeof v.file === 'string' &&
    typeof v.rel === 'string'
  );
}

/** A finding as the loader stores it: not tied to an item yet. */
function isDiagnostic(v: unknown): boolean {
  return (
    isJsonObject(v) &&
    typeof v.file === 'string' &&
    isRange(v.range) &&
    (v.severity === 'error' || v.severity === 'warning' || v.severity === 'information') &&
    typeof v.code === 'string' &&
    typeof v.message === 'string' &&
    v.itemId === null &&
    optional(v.fix, isFix)
  );
}

/**
 * A quick fix whose every edit carries the basis of the text it was computed on
 * (fixBasis.ts). One stored without it (by a version before the basis) would be recalled
 * as a fix the editor never offers, where deriving again gives one it does: a miss.
 */
function isFix(v: unknown): boolean {
  return (
    isJsonObject(v) &&
    typeof v.title === 'string' &&
    everyOf(
      v.edits,
      (e) =>
        isJsonObject(e) &&
        typeof e.file === 'string' &&
        isRange(e.range) &&
        typeof e.newText === 'string' &&
        typeof e.basis === 'string',
    )
  );
}

function isAnchor(v: unknown): boolean {
  return isJsonObject(v) && typeof v.file === 'string' && isRange(v.range);
}

function isRange(v: unknown): boolean {
  return isJsonObject(v) && isPosition(v.start) && isPosition(v.end);
}

function isPosition(v: unknown): boolean {
  return isJsonObject(v) && Number.isFinite(v.line) && Number.isFinite(v.character);
}
