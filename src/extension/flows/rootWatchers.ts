import * as path from 'node:path';
import { isInside } from '../../core/fs/safeFs';

/**
 * Whether the watchers of the agents' workspace roots (`<folder>/<root>/**`) already
 * cover `p`, a path an agent names outside them: it lies in one of those roots. A path
 * whose name only starts with a root's (a hook script in `.rivumi-hooks/`, beside
 * `.rivumi`) is no root's, and needs a watcher of its own, or its edits go unseen.
 */
export function coveredByRootWatchers(p: string, folders: readonly string[], roots: readonly string[]): boolean {
  return folders.some((f) => roots.some((root) => isInside(path.join(f, root), p)));
}
