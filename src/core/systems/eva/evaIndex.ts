import * as path from 'node:path';
import { canonicalPath, isInside } from '../../fs/safeFs';
import { isAncestor } from '../../fs/portablePath';
import { reachesWayEntry } from '../../fs/linkWay';
import { bothSpellings } from '../../fs/folderSpellings';
import { EMPTY_TRUST } from '../../decisions/trustView';
import type { Diagnostic, Item } from '../../model';
import type { DecisionContext, SharedIndexOptions, SystemIndex } from '../agentSystem';
import { gateItems } from './bundleTrust';
import { faultedEvaFolder, faultedEvaUser } from './faults';
import { indexEvaFolder, indexEvaUser, type EvaFolderIndex } from './indexEva';
import type { UserSkillsRead } from './userSkills';
import type { EvaItem } from './item';
import { evaHomeFromEnv, rememberReadContext } from './readContext';
import { DEFAULT_EVA_RUNTIME, type EvaRuntime } from './runtime';
import { hasEvaEntryFile } from './project';
import {
  linkedFolderWatches,
  readUserSkillFolders,
  realUserTreesToWatch,
  userTreeLinkTargets,
  userTreeWays,
} from './userTreeWatches';

/** What Eva reads of a user skill folder (files.ts `scanUserSkills`): its `SKILL.md`'s front matter. */
const SKILL_FILE = 'SKILL.md';

export interface EvaIndexOptions {
  /** `$HOME` for the user skill folders and `~/` paths (default: the user's home); null: no home, no user skills. */
  readonly evaHome?: string | null;
  /**
   * False: no user skill items (`--no-user`). The home still expands `~/` in `skill.path`
   * (eva.md §3.5): Eva registers an adapter naming `~/.codex/skills/…` whether Skillgate
   * lists the user's folders or not, so its decision must not change with this switch.
   */
  readonly evaUserSkills?: boolean;
  /** The assumed Eva runtime, from user settings or CLI flags only (eva.md §3.4); default normal, not a team worker, non-interactive. */
  readonly evaRuntime?: EvaRuntime;
  /** The readers of one folder's Eva project and of the user skill folders (tests inject faults here). */
  readonly readers?: { readonly evaProject?: typeof indexEvaFolder; readonly evaUser?: typeof indexEvaUser };
}

/**
 * What a folder's `config/` holds that Eva reads besides its configuration roots (eva.md
 * §1.1): the entry file and its layers; `config` itself, so that the editor sees it appear
 * and watches what is created in it at once.
 */
const LAYER_PATTERNS = [
  'config',
  'config/eva.yaml',
  'config/eva.user.yaml',
  'config/profiles/*.yaml',
  'config/environments/*.yaml',
];

/**
 * Eva projects of the workspace folders and the user skill folders. Each project is
 * indexed on its own, so a change re-reads only the project it touches; user skills
 * are re-read with any project (a project manifest can shadow them). Eva's decisions
 * are kept from the read; Skillgate's trust gate is applied on every compose, without I/O.
 */
export class EvaIndex implements SystemIndex {
  private readonly folders = new Map<string, EvaFolderIndex | undefined>();
  private user: UserSkillsRead = { items: [], diagnostics: [] };
  private readonly home: string | null;
  /** Whether the user skill folders are listed (a home, and not `--no-user`). */
  private readonly userSkills: boolean;
  private readonly runtime: EvaRuntime;
  /** Where a link leads the user skill folders elsewhere (`~/.codex -> ~`), by real path, as at their last read. */
  private realUserTrees: string[] = [];
  /** Those of `realUserTrees` the editor watches (userTreeWatches.ts: never a root, the home, or around a workspace folder). */
  private watchedRealUserTrees: string[] = [];
  /**
   * The skill folders in the user skill folders that are links out of them (`~/.codex/skills/x -> /data/x`),
   * by real path, as at their last read: only their `SKILL.md` is read, or, for those Eva does not read (none
   * there yet, or past the cap), made or removed (userTreeWatches.ts `linkedFolderWatches`).
   */
  private linkedSkillFolders: string[] = [];
  /**
   * The entries the ways to the user trees and to those linked skill folders hang on: links on them, and
   * where one that leads nowhere yet would come into being (userTreeWatches.ts `userTreeWays`,
   * `linkedFolderWatches`), as at their last read.
   */
  private userWays: string[] = [];
  /**
   * The real folders links on the way to the user skills lead to (userTreeWatches.ts `userTreeLinkTargets`),
   * and the linked skill folders Eva does not read, each watched by its own name: one that holds nothing
   * read yet, removed and made again, changes nothing the watchers based in it name.
   */
  private userLinkTargets: string[] = [];

  constructor(private readonly options: SharedIndexOptions & EvaIndexOptions) {
    this.home = options.evaHome === undefined ? evaHomeFromEnv() : options.evaHome;
    this.userSkills = this.home !== null && options.evaUserSkills !== false;
    this.runtime = options.evaRuntime ?? DEFAULT_EVA_RUNTIME;
  }

  /** One load per folder that is an Eva project (a cheap look at its entry file), then the user skills beside them. */
  scan(): (() => void)[] {
    this.folders.clear();
    this.user = { items: [], diagnostics: [] };
    const projects = this.options.workspaces.filter(hasEvaEntryFile);
    if (projects.length === 0) return [];
    return [...projects.map((ws) => () => this.load(ws)), () => this.loadUser()];
  }

  refresh(changed: readonly string[]): void {
    const reload = this.options.workspaces.filter((ws) => changed.some((p) => this.affects(ws, p)));
    for (const ws of reload) this.load(ws);
    // A user skill folder, or a skill folder in it, reached through a link is also spelled by its real path, which a change may come under.
    const userTrees = [...this.userTrees(), ...this.realUserTrees];
    const touchesUser = (p: string) =>
      userTrees.some((t) => isInside(t, p) || isAncestor(p, t)) ||
      this.linkedSkillFolders.some((f) => p === path.join(f, SKILL_FILE) || isInside(p, f)) ||
      this.userWays.some((entry) => reachesWayEntry(entry, p));
    if (reload.length > 0 || changed.some(touchesUser)) this.loadUser();
  }

  compose(ctx: DecisionContext): { items: readonly Item[]; diagnostics: readonly Diagnostic[] } {
    const items: EvaItem[] = [];
    const diagnostics: Diagnostic[] = [];
    for (const folder of this.projects()) {
      for (const i of folder.items) items.push(i);
      for (const d of folder.diagnostics) diagnostics.push(d);
    }
    for (const i of this.user.items) items.push(i);
    for (const d of this.user.diagnostics) diagnostics.push(d);
    return { items: gateItems(items, ctx.trust, ctx.workspaceTrusted), diagnostics };
  }

  /**
   * Covered files outside the watched trees (a lone `skill.path` file, a schema file at the project root),
   * the entries the ways to the user skill folders hang on (`userWays`), and where links on them lead
   * (`userLinkTargets`), each by its name.
   */
  watchedPaths(): string[] {
    const out = new Set<string>();
    for (const folder of this.projects()) {
      for (const unit of folder.units.values()) for (const f of unit.covered) out.add(f.abs);
      for (const f of folder.reads) out.add(f);
    }
    if (this.userSkills && this.home !== null && this.projects().length > 0)
      for (const entry of [...this.userWays, ...this.userLinkTargets]) out.add(entry);
    return [...out];
  }

  /**
   * Only what Eva reads: `config/` is a common folder name, so each workspace folder
   * watches Eva's entry file and layers (a project may appear), each project its
   * configuration roots and covered skill folders, and the user skill folders: under the home,
   * and where a link leads them elsewhere (userTreeWatches.ts), which no watcher of the home sees.
   */
  watchedTrees(): { base: string; pattern: string }[] {
    const trees = this.options.workspaces.flatMap((ws) => LAYER_PATTERNS.map((pattern) => ({ base: ws, pattern })));
    for (const folder of this.projects()) {
      for (const root of folder.roots) trees.push({ base: root, pattern: '**' });
      for (const unit of folder.units.values())
        for (const dir of unit.coveredDirectories) trees.push({ base: dir, pattern: '**' });
    }
    if (this.userSkills && this.home !== null && this.projects().length > 0) {
      trees.push({ base: this.home, pattern: '{.codex,.agents}/skills/**' });
      // The two folders themselves: `~/.codex -> /a` led to `/b` (`ln -sfn`) is a change of the link, in the
      // home, that the pattern above never names, and the real tree watched is still `/a`'s, where nothing
      // changed. No `/` and no `**`: the home's own entries only, not its tree (VS Code's
      // extHostFileSystemEventService `ensureWatching`); `refresh` re-reads the user folders for it.
      trees.push({ base: this.home, pattern: '{.codex,.agents}' });
      for (const base of this.watchedRealUserTrees) trees.push({ base, pattern: '**' });
      // One file, not the folder's tree: cheap wherever the link leads (the home, a workspace folder, `/`).
      for (const base of this.linkedSkillFolders) trees.push({ base, pattern: SKILL_FILE });
    }
    return trees;
  }

  private projects(): EvaFolderIndex[] {
    return [...this.folders.values()].filter((f): f is EvaFolderIndex => f !== undefined);
  }

  /** The fault boundary of one folder's Eva project (faults.ts). */
  private load(workspace: string): void {
    let folder: EvaFolderIndex | undefined;
    try {
      folder = (this.options.readers?.evaProject ?? indexEvaFolder)(workspace, this.home, this.runtime, EMPTY_TRUST);
    } catch (e) {
      folder = faultedEvaFolder(workspace, this.runtime, EMPTY_TRUST, e);
    }
    this.folders.set(workspace, folder);
    if (folder) rememberReadContext(folder.root, { home: this.home, runtime: this.runtime });
  }

  /** The fault boundary of the user skill folders (faults.ts). */
  private loadUser(): void {
    const trees = this.userTrees();
    const realTrees = trees
      .map((t) => canonicalPath(t))
      .filter((r): r is string => r !== undefined && !trees.includes(r));
    try {
      this.user = (this.options.readers?.evaUser ?? indexEvaUser)(this.projects(), {
        home: this.home,
        runtime: this.runtime,
        scanUserDirs: this.userSkills,
      });
    } catch (e) {
      this.user =
        this.home === null || !this.userSkills ? { items: [], diagnostics: [] } : faultedEvaUser(this.home, e);
    }
    // The skill folders as this read found them: a link retargeted since shows as a change of the link, under a user tree.
    this.realUserTrees = realTrees;
    this.watchedRealUserTrees =
      this.home === null ? [] : realUserTreesToWatch(realTrees, this.home, this.options.workspaces);
    const userTrees = [...trees, ...realTrees];
    const read = linkedFolderWatches(readUserSkillFolders(this.user.items), userTrees);
    const unread = linkedFolderWatches(this.user.linkedUnread ?? [], userTrees);
    this.linkedSkillFolders = [...new Set([...read.folders, ...unread.folders])];
    // Each by its own name in its folder (workspaceWatcher.ts): a filesystem root has none to be watched in
    // (`~/.codex/skills/x -> /`), as `userTreeLinkTargets` leaves out; its `SKILL.md` is still watched above.
    const unreadByName = unread.folders.filter((dir) => path.dirname(dir) !== dir);
    this.userLinkTargets = this.home === null ? [] : [...new Set([...userTreeLinkTargets(this.home), ...unreadByName])];
    this.userWays =
      this.home === null ? [] : [...new Set([...userTreeWays(trees, this.home), ...read.way, ...unread.way])];
  }

  private userTrees(): string[] {
    return this.home === null || !this.userSkills
      ? []
      : [path.join(this.home, '.codex', 'skills'), path.join(this.home, '.agents', 'skills')];
  }

  /**
   * Whether a changed path can change the folder's project: its `config/`, a configuration root,
   * a covered file. `config/` is spelled under the folder as given, the rest under the project's
   * canonical root (indexEva.ts), and a change may come under either (folderSpellings.ts).
   */
  private affects(workspace: string, p: string): boolean {
    const folder = this.folders.get(workspace);
    const spellings =
      folder && folder.root !== workspace ? bothSpellings(p, path.resolve(workspace), folder.root) : [p];
    return spellings.some((q) => this.affectsAsSpelled(workspace, folder, q));
  }

  private affectsAsSpelled(workspace: string, folder: EvaFolderIndex | undefined, p: string): boolean {
    const config = path.join(workspace, 'config');
    // The folder itself is an ancestor of its config/.
    if (isInside(config, p) || isAncestor(p, config)) return true;
    if (!folder) return false;
    if (folder.roots.some((r) => isInside(r, p) || isAncestor(p, r))) return true;
    for (const unit of folder.units.values()) {
      if (unit.coveredDirectories.some((d) => isInside(d, p) || isAncestor(p, d))) return true;
      if (unit.covered.some((f) => f.abs === p || isAncestor(p, f.abs))) return true;
    }
    return folder.reads.some((f) => f === p || isAncestor(p, f));
  }
}
