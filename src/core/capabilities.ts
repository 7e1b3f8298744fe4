import type { System } from './systems/systemId';

/** How much of a bundle its agent's activation policy can load (Codewhale). */
export type Compatibility = 'full' | 'partial' | 'unsupported';

/**
 * What a trust unit can do, in one typed model for every agent: the MCP servers it
 * starts or reaches, the network hosts it declares, the hooks it runs, the skills and
 * components it ships. Each agent emits it from its typed manifest (systems/<agent>/);
 * receipts store it as the reviewer approved it (stateSchema.ts), and every face renders
 * from it: the review, `show`, `explain`, the tree tooltip and the capability diff.
 *
 * A section is present when the agent has that concept for the unit (a Codewhale bundle
 * declares MCP servers, a Rivumi hooks file hooks) and absent otherwise, so a receipt
 * holds exactly what the unit declared and compares section by section with the next
 * review (capabilityChanges.ts). That is the very record receipts held before the model was
 * typed, so every receipt written since reads unchanged (docs/hashes.md "Receipts").
 * Hashes are never computed from this model: the content hash, the capability hash and
 * the review token come from each agent's own pairs (a contract).
 */
// A type, not an interface, so that a receipt (a JSON record) holds it as it is.
export type Capabilities = {
  /** The agent whose unit this is, as receipts have always recorded it. */
  readonly system: System;
  /** Which kind of unit, for an agent with more than one (Rivumi: `plugin` or `hooks`). */
  readonly kind?: string;
  readonly compatibility?: Compatibility | null;
  /** Declared component kinds and their paths (`commands` → `["./commands"]`). */
  readonly components?: Readonly<Record<string, readonly string[]>>;
  /** MCP servers by id. */
  readonly mcpServers?: Readonly<Record<string, McpServer>>;
  readonly networkHosts?: readonly string[];
  readonly filesystemRoots?: readonly string[];
  readonly lifecycleMutation?: boolean;
  /** The host conditions the unit declares (null: none). */
  readonly when?: HostCondition | null;
  /** The agent's own counts of what the unit holds (Codewhale's inventory); a summary of the sections above. */
  readonly inventory?: Readonly<Record<string, unknown>> | null;
  /** Hooks by `event: argv` (a key repeated in one unit gets ` (#2)`), so a review names each added or removed command. */
  readonly hooks?: Readonly<Record<string, Hook>>;
  /** Skills the unit lists by name. */
  readonly skills?: readonly Skill[];
  /** The pairs the agent's capability hash is computed from, as it states them. */
  readonly pairs?: Readonly<Record<string, string>>;
};

export interface McpServer {
  /** `stdio`, a remote transport (`streamable-http`, `sse`), or `invalid` when neither a command nor a URL is set. */
  readonly transport: string;
  readonly command: string | null;
  readonly args: readonly string[];
  readonly cwd: string | null;
  /** Environment mappings: destination → the variable it is read from (null when the value is not `${NAME}`). */
  readonly env: Readonly<Record<string, string | null>>;
  readonly url: string | null;
  /** Headers filled from the environment: header → variable. */
  readonly envHeaders: Readonly<Record<string, string>>;
  readonly bearerTokenEnvVar: string | null;
  /** Timeouts in seconds by their manifest key (`connect_timeout`). */
  readonly timeouts: Readonly<Record<string, number>>;
  readonly required: boolean;
  readonly enabled: boolean;
  readonly enabledTools: readonly string[];
  readonly disabledTools: readonly string[];
}

export interface Hook {
  readonly event: string;
  /** Run with no shell, exactly these elements. */
  readonly argv: readonly string[];
  readonly timeoutSeconds: number;
  readonly tools: readonly string[];
}

export interface Skill {
  /** The qualified name the agent gives it. */
  readonly name: string;
  /** Where it is, relative to the unit's root. */
  readonly path: string;
}

export interface HostCondition {
  readonly os: readonly string[] | null;
  readonly binaries: readonly string[] | null;
}
