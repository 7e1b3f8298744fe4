import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { folderHolding } from '../fs/folderHolding';
import { lstatOrUndefined } from '../fs/lstatOrUndefined';

/**
 * Where the trust store may live (trust.md "The trust store"): a plain directory and a
 * plain file, private to the user, outside every workspace folder. A store anywhere else
 * is refused whole, whatever its receipts say; each problem names its fix.
 */

/** The workspace folders being indexed, read at each use (the editor's folders change). */
export type Workspaces = (() => readonly string[]) | undefined;

/** Why the store at `dir` (its file `file`) is refused for where it lives; undefined when its place is sound. */
export function locationProblem(dir: string, file: string, workspaces: Workspaces): string | undefined {
  // First, and whether the directory exists or not: a missing one would be created there by the next trust.
  const inWorkspace = workspaceProblem(dir, workspaces);
  if (inWorkspace) return inWorkspace;
  const dirStat = lstatOrUndefined(dir);
  if (!dirStat) return undefined;
  if (dirStat.isSymbolicLink())
    return `trust store directory ${dir} is a symbolic link; Skillgate refuses it (use the directory it points to)`;
  if (!dirStat.isDirectory()) return `trust store directory ${dir} is not a directory`;
  if (process.platform !== 'win32' && (dirStat.mode & 0o022) !== 0)
    return `trust store directory ${dir} is writable by group or others (mode ${(dirStat.mode & 0o777).toString(8)}); make it 0700`;
  const fileStat = lstatOrUndefined(file);
  if (!fileStat) return undefined;
  if (fileStat.isSymbolicLink())
    return `trust store ${file} is a symbolic link; Skillgate refuses it (replace it with the file it points to)`;
  if (!fileStat.isFile()) return `trust store ${file} is not a regular file`;
  if (process.platform !== 'win32' && (fileStat.mode & 0o022) !== 0)
    return `trust store ${file} is writable by group or others (mode ${(fileStat.mode & 0o777).toString(8)}); make it 0600`;
  return undefined;
}

/**
 * A state directory inside a workspace folder (after links) is refused: the repository
 * could commit a `state.json` with receipts for its own bundles (a CI job with
 * `SKILLGATE_STATE_DIR=.sg`, a setting or link that leads into the checkout).
 */
export function workspaceProblem(dir: string, workspaces: Workspaces): string | undefined {
  const folder = workspaces && folderHolding(dir, workspaces());
  if (folder === undefined) return undefined;
  // A folder that holds the home directory (VS Code opened on `~`) holds the default store
  // too. It is still refused: a job whose HOME is its checkout is the same place to the file
  // system, and there the repository writes the receipts. The sentence says how to go on.
  const how = folderHolding(os.homedir(), [folder])
    ? 'this folder holds your home directory, and so the default store: open a folder inside your home directory, or set skillgate.stateDirectory, SKILLGATE_STATE_DIR or --state-dir outside this folder'
    : 'choose a state directory outside every workspace folder';
  return `trust store directory ${dir} is inside the workspace folder ${folder}, where the repository could write its own receipts; Skillgate refuses it (${how})`;
}

/** Creates the state directory (0700) if it is missing, so it can be watched before the first trust. */
export function ensureStateDirectory(dir: string, workspaces: Workspaces): void {
  // Never created in a workspace folder: the store there is refused anyway.
  const inWorkspace = workspaceProblem(dir, workspaces);
  if (inWorkspace) throw new Error(inWorkspace);
  if (fs.existsSync(dir)) return;
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    // Another process (a second window, the CLI) created it first: that is fine; the
    // location checks on the next read still refuse anything that is not a plain 0700 directory.
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw e;
  }
  fs.chmodSync(dir, 0o700);
}
