import { EMPTY_TRUST, type TrustView } from '../../decisions/trustView';
import type { Diagnostic } from '../../model';
import type { CoverNoting, EvaTrustUnit } from './indexedTrustUnit';
import type { EvaItem } from './item';
import { givenFolder } from './givenFolder';
import { DEFAULT_POLICY, type EvaPolicy } from './policy';
import { loadEvaProject } from './project';
import { indexProject } from './projectIndex';
import { DEFAULT_EVA_RUNTIME, type EvaRuntime } from './runtime';
import { indexUserSkills, type ProjectAdapterRef, type UserSkillsRead } from './userSkills';

/**
 * The Eva-CLI system's one entry point (eva.md §4.2): every Eva project among the
 * workspace folders, its skill items with Eva's decision and Skillgate's trust gate,
 * the user-level skill folders, and every diagnostic. Pure apart from reading files;
 * the Eva index (evaIndex.ts) calls it per folder.
 */

export interface EvaOptions {
  /** `$HOME` for the user skill roots and `~/` paths; null: no home (no user items). */
  readonly home: string | null;
  /** The assumed runtime (user settings or CLI flags, never the workspace). */
  readonly runtime?: EvaRuntime;
  /** Receipts by bundle key; absent: every bundle is not reviewed. */
  readonly trust?: TrustView;
  /** `--no-user`: no user-level enumeration anywhere. */
  readonly scanUserDirs?: boolean;
}

export interface EvaIndex {
  readonly items: EvaItem[];
  readonly diagnostics: Diagnostic[];
  /** Canonical roots of the folders that are Eva projects. */
  readonly projects: readonly string[];
}

export function indexEva(folders: string | readonly string[], options: EvaOptions): EvaIndex {
  const list = typeof folders === 'string' ? [folders] : folders;
  const runtime = options.runtime ?? DEFAULT_EVA_RUNTIME;
  const trust = options.trust ?? EMPTY_TRUST;
  const results = list
    .map((folder) => indexEvaFolder(folder, options.home, runtime, trust))
    .filter((r): r is EvaFolderIndex => r !== undefined);
  const user = indexEvaUser(results, options);
  return {
    items: [...results.flatMap((r) => r.items), ...user.items],
    diagnostics: [...results.flatMap((r) => r.diagnostics), ...user.diagnostics],
    projects: results.map((r) => r.root),
  };
}

/** One workspace folder's Eva project, indexed on its own (a change re-reads only that project). */
export interface EvaFolderIndex {
  /** The project root, canonical: what Eva's decisions and the trust units' files are read under (project.ts). */
  readonly root: string;
  /** The workspace folder as given: what its items and diagnostics are spelled under (givenFolder.ts). */
  readonly folder: string;
  readonly items: EvaItem[];
  readonly diagnostics: Diagnostic[];
  readonly adapters: ProjectAdapterRef[];
  readonly policy: EvaPolicy;
  readonly scanUserDirs: boolean;
  /** The configuration roots it scans (adapters, capabilities, policies, schemas). */
  readonly roots: readonly string[];
  /** Per bundle item id: what its content hash covers, to read and re-hash it for review and trust. */
  readonly units: ReadonlyMap<string, EvaTrustUnit>;
  /** Per bundle item id Skillgate cannot hash: its covered set named again for its review (`CoverNoting`). */
  readonly unhashed: ReadonlyMap<string, CoverNoting>;
  /**
   * The files the skills' decisions read (Lua scripts, schema files, `skill.path` targets),
   * whether or not trust can cover them: a change to one re-reads the project, so it is
   * watched. A unit with a file trust refuses (a link, a path outside the roots) has no
   * `units` entry, and its other files still decide (`schema_invalid`).
   */
  readonly reads: readonly string[];
  /** Set when reading the project threw (faults.ts): its one item then stands for the whole project. */
  readonly fault?: Diagnostic;
}

/** The folder's Eva project, or undefined when the folder is not one (eva.md §1.1). */
export function indexEvaFolder(
  folder: string,
  home: string | null,
  runtime: EvaRuntime,
  trust: TrustView,
): EvaFolderIndex | undefined {
  const project = loadEvaProject(folder);
  if (!project) return undefined;
  const roots = Object.values(project.roots).filter((r): r is string => r !== null);
  const indexed = indexProject(project, home, runtime, trust);
  // Decided under the canonical root, reported under the folder as given (givenFolder.ts); the
  // roots, covered files and reads stay canonical: they are what is read and watched, never shown.
  const given = givenFolder(project.root, folder);
  return {
    root: project.root,
    folder,
    scanUserDirs: project.scanUserDirs,
    roots,
    ...indexed,
    ...(given
      ? {
          items: indexed.items.map(given.item),
          diagnostics: indexed.diagnostics.map(given.diagnostic),
          policy: given.policy(indexed.policy),
        }
      : {}),
  };
}

/** User-level skills, beside at least one Eva project and unless a project or `--no-user` turns them off (eva.md §1.3). */
export function indexEvaUser(projects: readonly EvaFolderIndex[], options: EvaOptions): UserSkillsRead {
  // User items only beside an Eva project (eva.md §1.3): the folders belong to Codex too.
  const scanUser = options.scanUserDirs !== false && projects.every((p) => p.scanUserDirs);
  if (projects.length === 0 || !scanUser || options.home === null) return { items: [], diagnostics: [] };
  return indexUserSkills(
    options.home,
    projects.flatMap((p) => p.adapters),
    projects[0]?.policy ?? DEFAULT_POLICY,
    options.runtime ?? DEFAULT_EVA_RUNTIME,
  );
}
