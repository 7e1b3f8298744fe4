import * as path from 'node:path';
import { CODE_DIR } from './codeCache';
import { folderHolding } from '../fs/folderHolding';

/**
 * The workspace folder that holds the cache directory (after links), or undefined. A cache
 * there is never read nor written: the repository could commit a parse-cache entry that
 * replays "no items" or "no errors" for a bundle (parseCache.ts), or bytecode the CLI and the
 * index worker would run (codeCache.ts), and privateToUser.ts cannot tell: a checkout made by
 * the same user is the user's own. A CI job that points the cache into the checkout
 * (`SKILLGATE_CACHE_DIR=.skillgate-cache` for `actions/cache`) is the usual way there.
 * The code cache's own directory is checked too: a folder that is that directory holds its
 * files. Needs only Node's built-ins (scripts/sharedCore.mjs, FACE_OWN): the CLI decides
 * before the code cache is installed.
 */
export function cacheFolderHolding(cacheDir: string, folders: readonly string[]): string | undefined {
  return folderHolding(cacheDir, folders) ?? folderHolding(path.join(cacheDir, CODE_DIR), folders);
}

/**
 * Why a cache directory is not used, when a workspace folder holds it: the sentence both
 * faces say, each with what it does instead after it; undefined when it may be used.
 */
export function cacheRefusal(cacheDir: string, folders: readonly string[]): string | undefined {
  const folder = cacheFolderHolding(cacheDir, folders);
  return folder === undefined
    ? undefined
    : `the cache directory ${cacheDir} is inside the workspace folder ${folder}, where the repository could plant entries`;
}
