import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Which workspace folder, if any, holds a directory Skillgate keeps its own state in (the
 * trust store, the parse and code caches). A repository is hostile and can commit files
 * anywhere under its folder: a `state.json` with receipts for its own bundles, a parse-cache
 * entry that replays "nothing here" for a bundle, bytecode the CLI runs. So a state or cache
 * directory inside a folder being indexed is never used, however it was configured
 * (`SKILLGATE_STATE_DIR=.sg` in a CI job, `SKILLGATE_CACHE_DIR=.skillgate-cache` for
 * `actions/cache`, a link that leads there).
 *
 * Both are compared as spelled (made absolute) and after links: the real path of the
 * nearest ancestor that exists, with the rest of the path after it (a directory not created
 * yet lies where its existing parent really is). Needs only Node's built-ins: the CLI
 * decides on its code cache before the core loads (scripts/sharedCore.mjs, FACE_OWN).
 */
export function folderHolding(
  dir: string,
  folders: readonly string[],
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const spelled = path.resolve(dir);
  const real = realPlace(spelled);
  return folders.find((folder) => {
    const f = path.resolve(folder);
    return within(spelled, f, platform) || within(real, realPlace(f), platform);
  });
}

/** The real path of `p`'s nearest existing ancestor (itself included), joined with the rest of `p`. */
export function realPlace(p: string): string {
  const rest: string[] = [];
  for (let at = path.resolve(p); ;) {
    try {
      return path.join(fs.realpathSync.native(at), ...rest);
    } catch {
      // Missing, not a directory, a dangling or looping link, or not searchable: its parent decides.
      const parent = path.dirname(at);
      if (parent === at) return path.resolve(p);
      rest.unshift(path.basename(at));
      at = parent;
    }
  }
}

/**
 * `child` is `parent` or lies under it. Case is folded where the file system usually
 * ignores it (macOS, Windows): two spellings of one folder must not pass as two, and
 * refusing a directory that only differs in case is the safe side.
 */
export function within(child: string, parent: string, platform: NodeJS.Platform = process.platform): boolean {
  const fold = platform === 'darwin' || platform === 'win32' ? (s: string) => s.toLowerCase() : (s: string) => s;
  const rel = path.relative(fold(parent), fold(child));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}
