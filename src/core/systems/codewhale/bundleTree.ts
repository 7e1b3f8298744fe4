import type { EntryType, ReadResult } from '../../fs/safeFs';
import type { ContentWalk } from '../../hashing/bundleContent';

/**
 * A bundle as its content walk saw it: every file and directory, with no symbolic
 * link anywhere (a walk that meets one fails, and then there is no tree). The loader
 * asks it the questions it would otherwise ask the disk again — does `skills/` exist,
 * what does `mcp.json` hold, is this component path inside the bundle — so a bundle
 * costs one pass over its files. A path the tree cannot answer goes to the disk, whose
 * answer (and error message) is the authority.
 */
export interface BundleTree {
  /** The entry type at a bundle-relative path (`/`-separated, `''` is the root), or undefined when absent. */
  typeOf(rel: string): 'file' | 'directory' | undefined;
  /** What reading the file would give, when the walk kept its bytes; undefined means "ask the disk". */
  read(rel: string, limit: number): ReadResult | undefined;
  /**
   * Whether the disk showed the loader an entry the walk did not hold: one created since
   * the walk, or another spelling of a name on a case-insensitive file system. What the
   * loader derived is right for the disk as it is, but not a function of the content
   * hash, so the parse cache does not keep it (docs/parse-cache.md).
   */
  readonly beyondWalk: boolean;
  /** Notes such an entry (`beyondWalk`). */
  foundBeyondWalk(): void;
}

/**
 * The type of the entry at `rel`, as `disk` (an lstat or a stat of it) would say: the
 * walk's answer where it saw the name, else the disk's, noted on the tree when it finds
 * an entry there. Without a tree (a walk that did not complete), the disk's.
 */
export function typeInBundle(tree: BundleTree | undefined, rel: string, disk: () => EntryType): EntryType {
  const walked = tree?.typeOf(rel);
  if (walked) return walked;
  const type = disk();
  if (type !== 'missing') tree?.foundBeyondWalk();
  return type;
}

export function walkedTree(walk: Extract<ContentWalk, { ok: true }>): BundleTree {
  const directories = new Set(walk.directories);
  const files = new Map(walk.files.map((f) => [f.path, f]));
  const typeOf = (rel: string) => (files.has(rel) ? 'file' : directories.has(rel) ? 'directory' : undefined);
  // A plain field, not a getter over a closure's variable: with the getter the CLI's peak
  // RSS at 2,000 bundles rose by 9 MiB (a tree is made for every bundle).
  const tree = {
    typeOf,
    beyondWalk: false,
    foundBeyondWalk() {
      tree.beyondWalk = true;
    },
    read(rel: string, limit: number): ReadResult | undefined {
      const file = files.get(rel);
      if (!file) return { ok: false, reason: directories.has(rel) ? 'not-file' : 'missing' };
      const bytes = walk.retained.get(rel);
      if (!bytes) return undefined;
      if (bytes.length > limit) return { ok: false, reason: 'too-large', size: bytes.length };
      return { ok: true, bytes, executable: file.executable };
    },
  };
  return tree;
}
