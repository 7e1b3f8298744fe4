import type { BundleFile, Diagnostic } from '../../model';
import type { HookEvent } from './schemas';
import type { Where } from '../../documents/located';

/** What Rivumi would do with each file of one workspace's `.rivumi/` (rivumi.md §6). */

/** A file's own verdict, before the fail-fast loads are taken into account. */
export type RivumiFileState = 'valid' | 'invalid' | 'beyond_cap';

export interface RivumiSkill {
  readonly name: string;
  /** `<plugin>.<skill>` for plugin skills, else the name. */
  readonly qualifiedName: string;
  readonly file: string;
  readonly source: string;
  readonly plugin: string | null;
  readonly description: string;
  readonly body: string;
  readonly state: RivumiFileState;
  /** The file's own first error, when invalid. */
  readonly error?: Diagnostic;
}

export interface RivumiHook {
  readonly event: HookEvent;
  /** Index within its source file's list for the event. */
  readonly index: number;
  readonly argv: readonly string[];
  readonly timeoutSeconds: number;
  readonly tools: readonly string[];
  /** `project` or the plugin name. */
  readonly origin: string;
  readonly file: string;
  readonly at: Where;
  /** The entry validates on its own; an entry past the per-event cap still does (its file fails the load). */
  readonly valid: boolean;
}

export interface RivumiBundleHashes {
  readonly contentHash: string;
  readonly capabilityHash: string;
  readonly capabilities: Record<string, string>;
  readonly files: readonly BundleFile[];
  /** The content hash's inputs besides the manifest: covered workspace-relative raw paths, and what could not be covered. */
  readonly covered: readonly Buffer[];
  readonly notCovered: readonly NotCovered[];
  /** Paths inside the workspace whose change can change what the hooks' argv covers. */
  readonly watch: readonly string[];
}

/** A hook argv element trust cannot cover: its error, and its bytes as hashed. */
export interface NotCovered {
  readonly message: string;
  readonly marker: Buffer;
}

export interface RivumiPlugin {
  readonly name: string;
  readonly file: string;
  /** The manifest's canonical (realpath) path: the bundle's identity (trust.md "Bundle identity"). */
  readonly canonicalFile: string;
  readonly fileName: string;
  readonly source: string;
  readonly state: RivumiFileState;
  readonly description: string;
  readonly discovery: Record<string, unknown>;
  readonly skills: readonly RivumiSkill[];
  readonly hooks: readonly RivumiHook[];
  readonly hashes?: RivumiBundleHashes;
  readonly error?: Diagnostic;
  /** The first error of its hook section in the hook load (not an array, a bad entry, past 16 per event); the skill load never sees it. */
  readonly hookError?: Diagnostic;
}

export interface RivumiHooksFile {
  readonly file: string;
  readonly canonicalFile: string;
  readonly valid: boolean;
  readonly hooks: readonly RivumiHook[];
  readonly hashes?: RivumiBundleHashes;
  readonly error?: Diagnostic;
}

/** The first error of a fail-fast load: the file at fault and what Rivumi says. */
export interface LoadFailure {
  readonly file: string;
  readonly message: string;
  readonly diagnostic: Diagnostic;
}

export interface RivumiProject {
  readonly workspace: string;
  readonly skills: readonly RivumiSkill[];
  readonly plugins: readonly RivumiPlugin[];
  readonly hooksFile?: RivumiHooksFile;
  readonly skillLoad: LoadFailure | null;
  readonly hookLoad: LoadFailure | null;
  /** The file that overflowed a 16-per-event merge, when that is what broke the hook load. */
  readonly hookOverflowFile: string | null;
  readonly diagnostics: readonly Diagnostic[];
  /** Set when reading the workspace's `.rivumi/` failed inside Skillgate (index/faults.ts). */
  readonly fault?: Diagnostic;
}

/** A workspace in which Rivumi loads nothing: no skills, plugins or hooks, and so no load that failed. */
export function emptyRivumiProject(workspace: string, diagnostics: readonly Diagnostic[]): RivumiProject {
  return {
    workspace,
    skills: [],
    plugins: [],
    skillLoad: null,
    hookLoad: null,
    hookOverflowFile: null,
    diagnostics,
  };
}
