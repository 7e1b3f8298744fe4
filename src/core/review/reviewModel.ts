// Pure types shared by the host and the review webview; no imports, so the webview bundle stays DOM-only.

/**
 * What the review panel shows for one bundle, in its order: header, what changed since
 * the last review, capabilities, files, diagnostics, hashes. Plain data, built by the
 * host and rendered by the webview with textContent only; every string that comes
 * from the bundle (a file or folder name, a manifest value, a message quoting one) is a
 * `Shown` with its invisible characters made visible, flagged and counted in `hiddenCount`.
 * The plain strings are Skillgate's or the agent's own words, codes and kinds, and the
 * paths the host opens (`file`), which are never shown.
 */
export interface Shown {
  readonly text: string;
  /** True when the original held bidi controls, zero-width or other invisible characters. */
  readonly hidden: boolean;
}

export interface DiffLine {
  readonly kind: 'add' | 'del' | 'ctx' | 'hunk';
  readonly text: Shown;
}

export interface ReviewViewModel {
  readonly id: string;
  readonly header: {
    readonly name: Shown;
    readonly system: string;
    /** The codicon of the unit's agent. */
    readonly icon: string;
    readonly kind: string;
    readonly scope: string;
    readonly path: Shown;
    readonly decision: string;
    readonly decisionText: string;
    readonly reasons: readonly { readonly code: string; readonly text: string }[];
    readonly trust: string;
    /** Null for a system without an enable switch (Rivumi): there is no bit to show. */
    readonly enabled: boolean | null;
    /** The agent loads it although it is not trusted at its current hashes (`loaded_unreviewed`): shown as a risk. */
    readonly loadedUnreviewed: boolean;
    readonly compatibility: string | null;
    readonly description: Shown | null;
  };
  readonly changes: null | {
    /** The receipt's time, exact (a tooltip), and as a person says it ("3 hours ago"). */
    readonly reviewedAt: string;
    readonly reviewedAgo: string;
    /** Set when only the reviewed files could be compared (the bundle cannot be walked now): said in place of "no file changes". */
    readonly filesNote: string | null;
    /** An argv change carries both lists, shown before → after. */
    readonly capabilities: readonly {
      readonly change: string;
      readonly summary: Shown;
      readonly argv: null | { readonly before: readonly Shown[]; readonly after: readonly Shown[] };
    }[];
    readonly files: readonly {
      readonly path: Shown;
      readonly file: string;
      readonly change: string;
      readonly note: string | null;
      readonly diff: readonly DiffLine[];
    }[];
  };
  readonly capabilities: {
    readonly mcp: readonly McpView[];
    readonly networkHosts: readonly Shown[];
    readonly hooks: readonly HookView[];
    readonly hooksOptIn: boolean | null;
    /** The opt-in as it is set here, in the agent's words; null without hooks. */
    readonly hooksOptInText: string | null;
    /** When the agent runs these hooks, in its own terms (Rivumi: the opt-in variable); null without hooks. */
    readonly hooksWhen: string | null;
    /**
     * `body` is the text the agent reads, shown collapsed behind `bodyLabel`; null when it cannot
     * be read. After the unit's skill parts, the skills it binds with no item of their own
     * (AgentSystem.boundSkills: an Eva adapter's instructions, a lua_skill's script).
     */
    readonly skills: readonly {
      readonly name: Shown;
      readonly description: Shown;
      readonly body: Shown | null;
      readonly bodyLabel: string;
    }[];
    readonly commands: readonly { readonly name: Shown; readonly body: Shown | null }[];
    /** `activity` says in words whether the component will be active, and why not. */
    readonly components: readonly {
      readonly kind: string;
      readonly inactive: boolean;
      readonly active: boolean;
      readonly activity: string;
      readonly paths: readonly Shown[];
    }[];
  };
  /** The unit's contract in its agent's terms (AgentSystem.reviewContract); null when the agent states none. */
  readonly contract: null | {
    readonly title: string;
    readonly rows: readonly { readonly label: string; readonly value: Shown }[];
  };
  /** What the bundle runs that this trust cannot cover; trust is refused while any is listed. */
  readonly notCovered: readonly Shown[];
  /** The unit's files; of a unit Skillgate cannot hash, every one it covers, each it could not hash with why. */
  readonly files: readonly FileView[];
  readonly diagnostics: readonly {
    readonly severity: string;
    readonly code: string;
    readonly message: Shown;
    readonly file: string;
    readonly where: Shown;
    readonly line: number;
    readonly character: number;
  }[];
  /** Diagnostics past MAX_REVIEW_DIAGNOSTICS, counted, not listed (the Problems panel and `skillgate validate` list them). */
  readonly diagnosticsNotShown: number;
  /** Null where a hash cannot be computed: an invalid manifest has no capability hash and so no review token. */
  readonly hashes: {
    readonly content: string | null;
    readonly capability: string | null;
    readonly token: string | null;
    readonly codewhaleCommand: Shown | null;
    /** Why a null one is null, after "not computable": the manifest does not load, or Skillgate cannot hash the unit. */
    readonly notComputable: string;
  };
  /**
   * Set when the unit has no capabilities to show (its manifest does not load, or Skillgate
   * cannot hash it), so what it can do is not shown or compared with your review; says which.
   */
  readonly capabilitiesUnknown: Shown | null;
  /** Which buttons work, decided on the host; `notices` are the visible sentences saying why Trust or Enable do not. */
  readonly actions: {
    readonly trust: ActionState;
    /** Null for a system without an enable switch (Rivumi): the panel offers Trust only. */
    readonly enable: ActionState | null;
    readonly disable: ActionState | null;
    readonly revoke: ActionState;
    readonly notices: readonly Shown[];
  };
  /** Strings in this review that held invisible characters. */
  readonly hiddenCount: number;
}

/**
 * One file of the review: as hashed, with the file to open; or not hashed, with why and nothing
 * to open (it may be a link, which the panel never follows).
 */
export type FileView =
  | {
      readonly path: Shown;
      readonly file: string;
      readonly size: number;
      readonly executable: boolean;
      readonly sha256: string;
    }
  | { readonly path: Shown; readonly unhashed: Shown };

export interface ActionState {
  readonly enabled: boolean;
  /** Why the action is unavailable (a tooltip); null when it is available. */
  readonly why: Shown | null;
}

export interface HookView {
  readonly event: string;
  readonly argv: readonly Shown[];
  readonly timeoutSeconds: number;
  readonly tools: readonly Shown[];
  /** Where the command runs, in the agent's words (Rivumi: the workspace folder). */
  readonly cwd: string;
  /** The repository files the argv names: covered by trust (hashed), or not (and then trust is refused). */
  readonly files: readonly { readonly path: Shown; readonly covered: boolean; readonly note: Shown }[];
  /** What the agent does after running it that its argv alone decides (AgentHooks `afterRun`); null: nothing. */
  readonly afterRun: string | null;
}

export interface McpView {
  readonly id: Shown;
  readonly transport: Shown;
  readonly command: Shown | null;
  readonly argv: readonly { readonly index: number; readonly kind: 'plugin-path' | 'value'; readonly value: Shown }[];
  readonly cwd: Shown | null;
  readonly env: readonly { readonly destination: Shown; readonly source: Shown }[];
  readonly endpoint: Shown | null;
  readonly host: Shown | null;
  readonly authEnv: readonly Shown[];
  /** The timeouts set, or, where the agent's own review states the server (AgentServerCard), every one in its words. */
  readonly timeouts: readonly string[];
  /** What a local server's process may reach, in the agent's words where it states them; null for a remote server. */
  readonly authority: string | null;
  /** The rest of what the agent's own review states of the server, in its words and order (`required`, ...); empty without one. */
  readonly facts: readonly { readonly label: string; readonly value: Shown }[];
  readonly enabledTools: readonly Shown[];
  readonly disabledTools: readonly Shown[];
  readonly enabled: boolean;
  /** The server's state in words; 'on' only when the bundle itself is active, so a rejected or disabled bundle shows no green pill. */
  readonly state: { readonly text: string; readonly tone: 'on' | 'off' | 'muted' };
}
