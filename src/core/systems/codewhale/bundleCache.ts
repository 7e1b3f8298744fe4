import * as z from 'zod';
import type { CacheSegment } from '../../cache/parseCache';
import { POLICY_V3 } from './activationPolicy';
import type { CodewhaleBundle, WhenFacts } from './bundle';
import type { ContentWalk } from '../../hashing/bundleContent';
import { sha256Hex } from '../../hashing/framing';
import type { Manifest } from './manifest';

/**
 * The persistent parse cache's view of one Codewhale bundle (docs/parse-cache.md).
 * After the content walk, everything the loader derives — manifest, validation
 * findings, skills, inventory, compatibility, capability hash, anchors — is a function
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
  recall(when: (manifest: Manifest) => WhenFacts): CodewhaleBundle | undefined;
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
  value: unknown,
  place: BundlePlace,
  walk: CompleteWalk,
  when: (manifest: Manifest) => WhenFacts,
): CodewhaleBundle | undefined {
  if (!storedBundle.safeParse(value).success) return undefined;
  // The schema checked the shape the index reads; the rest is the loader's own output, as plain data.
  const stored = value as StoredBundle;
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
  if (!walked) return stored as unknown as CodewhaleBundle;
  if (!stored.manifest) return undefined;
  const manifest = stored.manifest as unknown as Manifest;
  return {
    ...(stored as unknown as CodewhaleBundle),
    contentHash: walk.contentHash,
    files: walk.files,
    directories: walk.directories,
    when: when(manifest),
  };
}

const position = z.object({ line: z.number(), character: z.number() });
const range = z.object({ start: position, end: position });
const diagnostic = z.looseObject({
  file: z.string(),
  range,
  severity: z.enum(['error', 'warning', 'information']),
  code: z.string(),
  message: z.string(),
  itemId: z.null(),
});

/** The shape of a stored bundle as far as the index reads it (unknown fields pass through untouched). */
const storedBundle = z.looseObject({
  scope: z.enum(['user', 'workspace']),
  dir: z.string(),
  dirName: z.string(),
  canonicalRoot: z.string(),
  manifestFile: z.string(),
  label: z.string(),
  name: z.string(),
  valid: z.boolean(),
  manifest: z.looseObject({ name: z.looseObject({ value: z.string() }) }).optional(),
  version: z.string().optional(),
  inventory: z.looseObject({}).optional(),
  compatibility: z.looseObject({ compatibility: z.string() }).optional(),
  contentHash: z.null().optional(),
  capabilityHash: z.string().optional(),
  reviewToken: z.string().optional(),
  pluginId: z.string().optional(),
  files: z.union([z.null(), z.tuple([])]),
  directories: z.union([z.null(), z.tuple([])]),
  skills: z.array(z.object({ name: z.string(), description: z.string(), file: z.string(), rel: z.string() })),
  when: z.union([z.null(), z.object({ applicable: z.literal(true), reasons: z.tuple([]) })]),
  diagnostics: z.array(diagnostic),
  anchors: z.record(z.string(), z.object({ file: z.string(), range })),
  bundleFiles: z.array(z.string()),
});

type StoredBundle = z.infer<typeof storedBundle>;
