import type { GateContext } from '../decisions/gates';
import type { TrustView } from '../decisions/trustView';
import type { HostFacts } from '../host';
import type { BundleFile, Diagnostic, Item, ListedFile, System, ReasonCode } from '../model';
import type { Capabilities, McpServer } from '../capabilities';
import type { TreeReadAhead } from '../hashing/readAhead';
import type { ParseCache } from '../cache/parseCache';
import type { Listing } from '../listing';
import type { ReadResult } from '../fs/safeFs';

/**
 * The seam between Skillgate and one coding agent. Everything specific to an agent —
 * where it looks, how it reads and validates, the items it yields, how its trust units
 * are hashed and read back for review, whether it honours an enable switch — lives in
 * that agent's folder under `systems/`, behind this interface. The indexer, the trust
 * lifecycle, `check`, the lock, the reports and both faces iterate the registry
 * (registry.ts) and never name an agent.
 */
export interface AgentSystem<Options = unknown> {
  readonly id: System;
  /** The agent's name as people write it ("Codewhale"). */
  readonly label: string;
  /** The codicon of the agent's group in the tree. */
  readonly icon: string;
  /** The codicon of one of its plugins or bundles. */
  readonly bundleIcon: string;
  /** The directories under a workspace folder this agent reads (the editor watches each recursively). */
  readonly workspaceRoots: readonly string[];
  /** What a user would look for in a folder to find this agent's configuration (said when nothing is found). */
  readonly lookedFor: string;
  /**
   * How to switch the agent's units off when it honours no enable switch (Skillgate then
   * offers Trust only); null when it loads a trusted unit only once enabled.
   */
  readonly noEnableSwitch: NoEnableSwitch | null;
  /** How the agent decides to run the hooks a unit declares; null when it runs none. */
  readonly hooks: AgentHooks | null;
  /** Reason sentences in this agent's own terms, where the shared one (decisions/reasonText.ts) is too general. */
  readonly reasonText?: Partial<Record<ReasonCode, string>>;
  /** What one trust unit is called in a refusal ("Plugin bundle", "Rivumi hooks file"). */
  unitLabel(item: Pick<Item, 'kind'>): string;
  /** Every kind of trust unit this agent has, in words, plural ("Codewhale bundles"): what a refusal lists. */
  readonly trustUnitsInWords: string;
  /** The agent's index of this window or CLI run. */
  createIndex(options: SharedIndexOptions & Options, host: HostFacts): SystemIndex;
  /** Whether the agent loads (or runs) this trust unit as things stand: what `check` gates. */
  loads(item: Item): boolean;
  /**
   * What Skillgate leaves unread by limits of its own that the agent does not have: the agent
   * may load it, and no one has seen it, so `check` and `check --lock` fail while any is there
   * (checkGate.ts). Absent: every limit Skillgate applies to this agent is the agent's own.
   */
  readonly unreadByOwnLimits?: UnreadByOwnLimits;
  /** A trust unit read from disk now, for review and trust (never an older index). */
  readSource(item: Item, host: HostFacts): SourceRead;
  /** A unit that does not load, read for review; undefined when it is gone. `reviewed`: the paths its receipt covers. */
  readInvalid(item: Item, reviewed: readonly string[], host: HostFacts): InvalidBundle | undefined;
  /** `skillgate hash <target>` for a target this agent recognises (`shown`: as the user spelled it); null when it is not one of its units. */
  hashTarget(abs: string, shown: string, host: HostFacts): HashOutcome | null;
  /** What `skillgate hash` accepts for this agent, for the message when no agent recognises a target. */
  readonly hashTargetHint: string;
  /** The agent's own command that records this review on its side, when it has one. */
  agentTrustCommand(item: Item): string | null;
  /** How to review a unit again after its token no longer matches. */
  reviewAgainHint(item: Item): string;
  /**
   * The unit's contract as the agent states it, for the review (Eva-CLI: kind, runtime gate,
   * schemas, requested and effective permissions with what decided each); absent or null
   * when the capabilities say it all. Read from the item the index decided.
   */
  reviewContract?(item: Item): ReviewContract | null;
  /**
   * The skills a unit binds that are no item of their own (an Eva skill adapter's `skill.id`
   * and the file its `skill.path` names, a lua_skill's script): the review lists them with
   * the skills of its parts, each with its text. Read from the item the review read; absent:
   * the unit's skill parts are all its skills.
   */
  boundSkills?(item: Item): readonly BoundSkill[];
  /**
   * The agent's own review lines around what a unit's capabilities hold, in its words
   * (Codewhale's `/plugin show`); absent: Skillgate's own lines for them.
   */
  readonly reviewLines?: AgentReviewLines;
  /** The agent's own sections of `explain`, after the decision (what the agent itself decides, in its design's words); absent: none. */
  readonly explain?: (item: Item) => readonly AgentSection[];
  /**
   * `explain`'s conflicts of the item beyond who shadows whom, in the agent's words (Rivumi's
   * same-named skills and plugins, which all load). `at` names another item and where it is;
   * absent: none.
   */
  readonly conflicts?: (item: Item, at: (id: string) => string) => readonly string[];
  /** `install <manifest>` into a workspace, as the agent's own installer does; absent when the agent has none. */
  readonly installPlugin?: (
    manifest: string,
    workspace: string,
    options: { readonly name?: string; readonly overwrite?: boolean },
  ) => InstallOutcome;
}

/** What an agent's index left unread by Skillgate's own limits (`AgentSystem.unreadByOwnLimits`). */
export interface UnreadByOwnLimits {
  /** Why no one can vouch for this unit the agent may load, its content unread, in plain words; null when it was read. */
  unit(item: Item): string | null;
  /** Among a snapshot's diagnostics, this agent's that mark files left unread with no item to stand for them. */
  places(diagnostics: readonly Diagnostic[]): readonly Diagnostic[];
}

/** The text review's lines an agent states in its own review (reviewText.ts prints them as given). */
export interface AgentReviewLines {
  /** Before the unit's MCP servers: what the agent's review states first (its inventory, its permissions). */
  lead(bundle: Item, capabilities: Capabilities): readonly string[];
  /** One MCP server, its id first, as the agent's review shows it. `files`: the unit's files (an argument naming one is a plugin path). */
  server(id: string, server: McpServer, files: ReadonlySet<string>): string;
  /**
   * After the unit's components: what the agent's review appends (compatibility, the
   * components active now, its skills). `current`: the unit as the index decides it now;
   * absent, no line may say what is active.
   */
  trail(bundle: Item, current: Pick<Item, 'decision'> | undefined, skills: readonly string[]): readonly string[];
  /**
   * The same statement for the review panel, worded by the same functions as `lead` and
   * `trail`: its contract section, without what the panel states elsewhere already.
   * `current`: the unit as the index decides it now.
   */
  contract(bundle: Item, capabilities: Capabilities, current: Pick<Item, 'decision'>): ReviewContract;
  /** One MCP server's card in the panel, worded by the same functions as `server`. */
  serverCard(server: McpServer): AgentServerCard;
}

/** A skill a unit binds (`AgentSystem.boundSkills`), as the review lists it. */
export interface BoundSkill {
  /** Its name as the agent gives it (Eva: `skill.id`, a lua_skill's id). */
  readonly name: string;
  /** What it is and what the agent does with it, in the agent's words. */
  readonly description: string;
  /**
   * The file whose text the review shows, absolute; null when the unit names none. Shown only
   * as the unit's hash read it: a file the review did not hash is no part of what is approved.
   */
  readonly file: string | null;
  /** What the panel's button to show that text says ("Show the Lua script"). */
  readonly textLabel: string;
}

/** One fact of an agent's statement: what it is called, and its value as the agent words it. */
export interface ReviewFact {
  readonly label: string;
  readonly value: string;
}

/** A labelled list of what an agent's unit declares: each row one fact, its value as the agent states it. */
export interface ReviewContract {
  readonly title: string;
  readonly rows: readonly ReviewFact[];
}

/**
 * What an agent's own review states of one MCP server beyond what the panel's card shows
 * itself (command, argv, cwd, env, endpoint, credentials, tool filters), in its words.
 */
export interface AgentServerCard {
  /** Every timeout the agent knows, unset ones too (in place of the card's list of those set). */
  readonly timeouts: string;
  /** What the process of a local server may reach (in place of the card's own sentence); null for a remote one. */
  readonly authority: string | null;
  /** The rest, in the agent's order. */
  readonly facts: readonly ReviewFact[];
}

export type InstallOutcome =
  | {
      readonly ok: true;
      readonly name: string;
      /** Workspace-relative path of the installed manifest, and its absolute path. */
      readonly source: string;
      readonly file: string;
      readonly written: readonly string[];
      /** What the agent does with it from now on, in a sentence that follows "Installed plugin …". */
      readonly loads: string;
    }
  | { readonly ok: false; readonly message: string };

/** A titled block of lines, as `explain` prints it. */
export interface AgentSection {
  readonly title: string;
  readonly lines: readonly string[];
}

export interface NoEnableSwitch {
  /** Why `enable`/`disable` is refused, and how the agent is switched off instead. */
  refusal(item: Pick<Item, 'kind' | 'name' | 'path' | 'workspace'>, operation: 'enable' | 'disable'): string;
  /** The review panel's sentence in place of an Enable button. */
  notice(item: Pick<Item, 'kind' | 'decision'>): string;
}

/** An agent that runs hook commands: when it runs them, in its own terms, and what their argv touches. */
export interface AgentHooks {
  /** The setting that makes the agent run them, as `explain` and the text review name it. */
  readonly optIn: string;
  /** When the agent runs a unit's hooks (the review panel's sentence). */
  readonly when: string;
  /** The review panel's sentence for the setting as it is here now; `loadFails`: the hook load fails, so none run. */
  optInNow(set: boolean, loadFails?: boolean): string;
  /** Whether the setting is on in this environment (the agent's own rule). */
  optedIn(env: Readonly<Record<string, string | undefined>>): boolean;
  /** Where a hook's command runs, in words. */
  readonly cwd: string;
  /**
   * What the agent does after running a hook that its argv alone decides (Rivumi: a label
   * too long denies every event), worded to follow "runs a host command for up to Ns"; null
   * when nothing beyond the command's own answer.
   */
  afterRun(argv: readonly string[]): string | null;
  /** The repository files a hook's argv names (raw paths) and the arguments trust cannot cover, run from `workspace`. */
  argvFiles(
    workspace: string,
    argv: readonly string[],
  ): {
    readonly files: readonly Buffer[];
    readonly problems: readonly { readonly argIndex: number; readonly message: string }[];
  };
}

/** What every agent's index is given; each agent adds its own options (registry.ts `IndexOptions`). */
export interface SharedIndexOptions {
  /** Absolute workspace folders, one per canonical path. */
  readonly workspaces: readonly string[];
  readonly host?: HostFacts;
  readonly trust?: () => TrustView;
  /** False in VS Code Restricted Mode. */
  readonly workspaceTrusted?: boolean;
  /**
   * The persistent parse cache (docs/parse-cache.md): what a unit's bytes derive to,
   * reused while the bytes are the same. Absent: every unit is derived afresh.
   */
  readonly parseCache?: ParseCache;
  /** Bundle trees read ahead on another thread (the CLI's, docs/read-ahead.md); absent: each walk reads. */
  readonly readAhead?: TreeReadAhead;
}

export type DecisionContext = GateContext;

/**
 * One agent's part of the index. It keeps what it read, so a change re-reads only what
 * it touches, and decides items from what it keeps without I/O.
 */
export interface SystemIndex {
  /**
   * Forgets everything, lists the discovery roots, and returns the loads still to run
   * (one per unit): the indexer runs them, spread over event-loop turns in the editor.
   */
  scan(): readonly (() => void)[];
  /** Re-reads what the changed absolute paths can affect. */
  refresh(changed: readonly string[]): void;
  /**
   * Items and diagnostics as decided now (after a store change, decisions only). The
   * indexer copies them into the snapshot before anything else runs, so an index may
   * hand over parts it keeps and changes later (core/listing.ts).
   */
  compose(ctx: DecisionContext): { readonly items: Listing<Item>; readonly diagnostics: Listing<Diagnostic> };
  /** Paths outside the workspace roots whose change matters (the files a hook runs, a discovery root). */
  watchedPaths(): readonly string[];
  /** Trees outside the workspace folders to watch recursively (a user's plugin root): a base that exists, and a glob under it. */
  watchedTrees(): readonly { readonly base: string; readonly pattern: string }[];
}

/**
 * A trust unit read from disk at this moment (review and trust never rely on an older
 * index): its item, the files its content hash covers, and how to re-hash a copy of
 * them (to prove a reviewed copy holds exactly the reviewed bytes).
 */
export interface BundleSource {
  readonly item: Item;
  readonly bundleKey: string;
  /** Covered files are relative to this directory. */
  readonly root: string;
  /** The bundle's canonical path, as its receipt records it (trust.md "Bundle identity"). */
  readonly canonicalPath: string;
  readonly files: readonly BundleFile[];
  /** Directories (relative) that a copy must have for its hash to match (Codewhale hashes empty ones). */
  readonly directories: readonly string[];
  /** What the reviewer approves: the full capability inventory. */
  readonly capabilities: Capabilities;
  /** The unit's skills, hooks, MCP servers and components as read now (its child items). */
  readonly parts: readonly Item[];
  /** What the bundle runs that trust cannot cover; trust is refused while any is listed. */
  readonly notCovered: readonly string[];
  readonly applicable: boolean;
  /** The unit's diagnostics as read now (an invalid unit's say why it is rejected). */
  readonly diagnostics: readonly Diagnostic[];
  rehashCopy(copyRoot: string): string | undefined;
  /**
   * One of `files` read again, at most `limit` bytes, as the content hash read it: beneath the
   * directory its check started at, never through a link on the way (fs/openBeneath.ts). The
   * reviewed copy is made from it, and the review shows its text (trust/unitFileRead.ts
   * `readFromUnit`, the one reader of both). Without it, a file is read beneath
   * `root`, or beneath the directory it shares with the unit's manifest (trust/unitFileRead.ts),
   * which is where Codewhale's and Rivumi's hashes read theirs; Eva's reads a skill folder's
   * files beneath that folder, which may itself be a link Eva follows (eva.md §8 Q7).
   */
  readCovered?(f: BundleFile, limit: number): ReadResult;
}

export type SourceRead =
  { readonly ok: true; readonly source: BundleSource } | { readonly ok: false; readonly message: string };

/**
 * A trust unit that does not load (its manifest, an MCP sidecar or a hooks file is
 * invalid) is still reviewed: what is on disk now, hashed where that is possible, and
 * the diagnostics that say why the agent rejects it. It can never be trusted or enabled.
 */
export interface InvalidBundle {
  /** The unit as the agent sees it now (decision `rejected`, reason `manifest_invalid`). */
  readonly item: Item;
  /** Its skills, MCP servers and components as read now, as far as the agent still names them. */
  readonly parts: readonly Item[];
  readonly bundleKey: string;
  /** Files are relative to this directory. */
  readonly root: string;
  readonly files: readonly BundleFile[];
  /**
   * When what Skillgate cannot hash is among the files the unit covers (an Eva skill folder with
   * a link: eva.md §6.1): those and every other it covers, as far as it can name them, each
   * hashed or with why not, for the review to list; absent where `files` are all it can show.
   */
  readonly coveredFiles?: readonly ListedFile[];
  /** A content hash that does not depend on the manifest loading; null when there is none. */
  readonly contentHash: string | null;
  readonly diagnostics: readonly Diagnostic[];
}

export type HashOutcome =
  | {
      readonly ok: true;
      readonly system: System;
      readonly name: string;
      readonly contentHash: string;
      readonly capabilityHash: string;
      readonly reviewToken: string;
      readonly diagnostics: readonly Diagnostic[];
    }
  | { readonly ok: false; readonly message: string; readonly diagnostics: readonly Diagnostic[] };
