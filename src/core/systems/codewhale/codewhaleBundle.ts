import type { Capabilities } from '../../capabilities';
import type { HashedFile } from '../../hashing/bundleContent';
import type { Diagnostic, Range, Scope } from '../../model';
import type { CompatibilityReport, Inventory } from './inventory';
import type { ManifestLabel } from './manifest';

/*
 * What the index knows of one Codewhale bundle, as data: what the loader (bundle.ts) makes,
 * the parse cache (bundleCache.ts) stores and recalls, and the capability model
 * (capabilities.ts), the items and the trust unit read. Its own module so that those
 * readers need not import the loader, nor the loader them back.
 */

export interface BundleSkill {
  readonly name: string;
  readonly description: string;
  /** Absolute path of the SKILL.md. */
  readonly file: string;
  readonly rel: string;
}

export interface WhenFacts {
  readonly applicable: boolean;
  readonly reasons: readonly string[];
}

/** Everything known about one Codewhale bundle directory: the incremental unit of the index. */
export interface CodewhaleBundle {
  readonly scope: Scope;
  /** The bundle directory as discovered (discovery root + child name), its bytes exact (rawNames.ts). */
  readonly dir: string;
  /** The directory name for display: a name that is not UTF-8 shows U+FFFD here. */
  readonly dirName: string;
  readonly canonicalRoot: string | undefined;
  readonly manifestFile: string | undefined;
  readonly label: ManifestLabel | undefined;
  /** Manifest name when it parsed, else the directory name. */
  readonly name: string;
  readonly valid: boolean;
  /**
   * What the manifest declares, once it parsed: its capability model (the values only,
   * shared by every snapshot and review), its description and its MCP servers' ids in
   * the manifest's order. The typed manifest itself, with a place on every field, is
   * read by the loader's rules and not kept (docs/memory.md).
   */
  readonly capabilities?: Capabilities;
  /** Null: the manifest has none. */
  readonly description?: string | null;
  readonly mcpServerIds?: readonly string[];
  readonly version?: string;
  readonly inventory?: Inventory;
  readonly compatibility?: CompatibilityReport;
  readonly contentHash?: string;
  readonly capabilityHash?: string;
  readonly reviewToken?: string;
  readonly pluginId?: string;
  readonly files: readonly HashedFile[];
  /** Bundle-relative directories, root first (empty ones count for the content hash). */
  readonly directories: readonly string[];
  readonly skills: readonly BundleSkill[];
  readonly when: WhenFacts;
  readonly diagnostics: readonly Diagnostic[];
  /** Where to open each part in the editor: `name`, `mcp:<id>`, `component:<kind>`. */
  readonly anchors: Readonly<Record<string, { readonly file: string; readonly range: Range }>>;
  /** Files read for this bundle, for the watcher: a change to any of them re-reads the bundle. */
  readonly bundleFiles: readonly string[];
}
