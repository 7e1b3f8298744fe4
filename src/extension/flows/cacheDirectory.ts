import { cacheRefusal } from '../../core/cache/cacheInWorkspace';
import type { LogPort } from './ports';

/**
 * The parse cache's directory, in the extension's global storage (a window starts warm),
 * unless it lies in a folder of this window (after links): the repository could plant
 * parse-cache entries or bytecode there (cacheInWorkspace.ts). The index then goes on
 * without a cache, and the log says so once for each such place.
 */
export class CacheDirectory {
  /** Why the directory was last refused, so the log says it once. */
  private refusal: string | undefined;

  constructor(
    private readonly dir: string | undefined,
    private readonly log: LogPort,
  ) {}

  /** The directory, unless it lies in one of `folders`; none when the extension has no storage on this disk. */
  usableWith(folders: readonly string[]): string | undefined {
    if (this.dir === undefined) return undefined;
    const refused = cacheRefusal(this.dir, folders);
    if (refused === undefined) return this.dir;
    const refusal = `${refused}; indexing without a cache`;
    if (refusal !== this.refusal) this.log.warn(refusal);
    this.refusal = refusal;
    return undefined;
  }
}
