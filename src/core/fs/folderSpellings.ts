import * as path from 'node:path';
import { insideSuffix, isAncestor } from './portablePath';

/**
 * A changed path under both spellings of a workspace folder opened through a symbolic link:
 * `given`, the folder as opened (what items are spelled under: eva/givenFolder.ts), and `real`,
 * its canonical path (what an agent decides under and names the files it reads by: Eva's
 * roots, covered files and reads, project.ts). Both name the same file. The editor reports a
 * change under the base of the watcher that saw it (VS Code: the folder as opened for the
 * workspace's own watcher, a `RelativePattern`'s base for the others), and the index respells
 * a second folder opened at the same place as the first (indexer.ts `unaliased`): an index
 * that compares a change with one spelling only misses it under the other. Just `[p]` when
 * the two spellings are one, or `p` lies under neither.
 */
export function bothSpellings(p: string, given: string, real: string): string[] {
  if (given === real) return [p];
  const other = respelled(p, given, real) ?? respelled(p, real, given);
  return other === undefined ? [p] : [p, other];
}

/**
 * `p` spelled under `to` when it is `from` or lies inside it; undefined otherwise (a sibling
 * whose name begins with `from`'s, a path that leaves it by `..`). Inside means what
 * `path.relative` says (a name that starts with two dots, `..x`, stays inside), read from the
 * bytes where that is exact (portablePath.ts `insideSuffix`), and the rest is joined to `to`
 * (`path.join`: one separator after a folder at the filesystem root). The one respelling
 * between two spellings of a folder: `bothSpellings` here, eva/givenFolder.ts (canonical root
 * to the folder as given), indexer.ts `unaliased` (a dropped workspace spelling to the kept
 * one) and codewhale/rootAliases.ts (a discovery root's spelling, or its parent's, to where it
 * leads, and back: the change `refresh` re-reads in each root that reaches the same directory).
 */
export function respelled(p: string, from: string, to: string): string | undefined {
  if (p === from) return to;
  if (!isAncestor(from, p)) return undefined;
  return path.join(to, insideSuffix(from, p) ?? path.relative(from, p));
}
