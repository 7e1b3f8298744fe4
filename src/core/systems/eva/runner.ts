import * as path from 'node:path';
import { lstatEntry } from '../../fs/safeFs';
import { deniedByPermissions } from '../../fs/permissionDenied';
import { firstNonDirectory } from '../../fs/firstNonDirectory';
import type { SkillContract } from './contracts';
import { coveredName } from './hashes';

/**
 * What a process-backed Eva skill runs (eva.md §2.2: `skill.runner.command` and `.args`,
 * over a top-level `command` and `args`), and whether trust covers the command's bytes
 * (§6.1: only a workspace-relative command inside the project is a covered file). The
 * review and `explain` say which, so a command trust cannot cover is never left unsaid.
 */
export interface EvaRunner {
  readonly command: string;
  readonly args: readonly string[];
  readonly coverage: RunnerCoverage;
}

export type RunnerCoverage =
  /** A project file, hashed with the skill. */
  | 'project-file'
  /** Inside the project but absent now: one that appears joins the covered set, so trust drops. */
  | 'missing'
  /** A symbolic link, or under one: the skill cannot be trusted (trust.md "Hashing"). */
  | 'linked'
  /** Relative, but it leads out of the project. */
  | 'outside-project'
  | 'absolute'
  /** A bare name: the process looks it up on PATH. */
  | 'on-path'
  /** Inside the project, neither a file nor absent (a directory): nothing to hash. */
  | 'not-a-file'
  /** Inside the project, behind a folder this user may not search: covered, and its read fails, so the skill cannot be trusted. */
  | 'unreadable';

export function evaRunner(k: SkillContract, projectRoot: string, home: string | null): EvaRunner | null {
  const command = k.runnerCommand ?? k.topCommand;
  if (command === null) return null;
  const args = k.runnerCommand !== null ? k.runnerArgs : k.topArgs;
  return { command, args, coverage: coverageOf(command, projectRoot, home) };
}

/** The command's path inside the project when trust covers it (a regular file there, §6.1). */
export function coveredRunnerPath(runner: EvaRunner | null, projectRoot: string): string | null {
  return runner && (runner.coverage === 'project-file' || runner.coverage === 'unreadable')
    ? path.resolve(projectRoot, runner.command)
    : null;
}

function coverageOf(command: string, root: string, home: string | null): RunnerCoverage {
  if (!/[/\\]/.test(command)) return 'on-path';
  if (path.isAbsolute(command)) return 'absolute';
  const abs = path.resolve(root, command);
  if (coveredName(abs, root, home)?.domain !== 'eva-project-file') return 'outside-project';
  // Eva runs what a link points to, which the link's own bytes do not pin; a linked folder
  // on the way reads the command from wherever it points, outside the project included.
  const stop = firstNonDirectory(root, abs);
  if (stop?.type === 'symlink') return 'linked';
  // A folder on the way this user may not search (another user's, at 700 or 744): what Eva run as a
  // user who may read it runs cannot be looked at here. Taken for "not a file", the skill was hashed
  // without it and trust could be granted over a command whose bytes it never saw.
  if (stop?.type === 'other' && deniedByPermissions(lstatEntry(stop.at).fault)) return 'unreadable';
  // The walk's own answer for the command itself; asked again only when it stopped above it.
  const type = stop?.at === abs ? stop.type : lstatEntry(abs).type;
  return type === 'file' ? 'project-file' : type === 'missing' ? 'missing' : 'not-a-file';
}

/** The review's and explain's words for where the command's bytes stand. */
export function runnerCoverageText(c: RunnerCoverage): string {
  switch (c) {
    case 'project-file':
      return 'a project file, covered by this trust';
    case 'missing':
      return 'not in the project now; trust drops if it appears';
    case 'linked':
      return 'a symbolic link, or under one: this skill cannot be trusted';
    case 'outside-project':
      return 'outside the project: its bytes are not covered by this trust';
    case 'absolute':
      return 'an absolute path: its bytes are not covered by this trust';
    case 'on-path':
      return 'looked up on PATH: its bytes are not covered by this trust';
    case 'not-a-file':
      return 'not a file: its bytes are not covered by this trust';
    case 'unreadable':
      return 'not readable by this user: this skill cannot be trusted';
  }
}
