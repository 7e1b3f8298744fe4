import type { DocPath } from '../../documents/document';
import type { Located, Where } from '../../documents/located';

export type { Located, Where };

/**
 * Codewhale's internal manifest: the one shape every manifest format maps to
 * (codewhale.md §3). Each field remembers where it came from (file and path), so a
 * rule broken by a field in `mcp.json` is reported in `mcp.json`, at that field.
 */

export type ManifestLabel = 'plugin.json' | 'kimi.plugin.json' | 'plugin.toml' | '.claude-plugin/plugin.json';
export type ComponentKind = 'skills' | 'commands' | 'agents' | 'hooks' | 'lsp' | 'native';
export const COMPONENT_KINDS: readonly ComponentKind[] = ['skills', 'commands', 'agents', 'hooks', 'lsp', 'native'];

export interface PathSpecDecl {
  readonly paths: readonly Located<string>[];
  readonly at: Where;
}

export interface NamedValue {
  readonly name: string;
  readonly value: string;
  readonly at: Where;
}

export interface McpServerDecl {
  readonly id: string;
  readonly at: Where;
  readonly command?: Located<string>;
  readonly args: readonly Located<string>[];
  readonly env: readonly NamedValue[];
  readonly cwd?: Located<string>;
  readonly url?: Located<string>;
  readonly transport?: Located<string>;
  readonly timeouts: readonly (Located<number> & {
    readonly label: 'connect_timeout' | 'execute_timeout' | 'read_timeout';
  })[];
  readonly enabled: boolean;
  readonly disabled: boolean;
  readonly required?: Located<boolean>;
  readonly enabledTools: readonly Located<string>[];
  readonly disabledTools: readonly Located<string>[];
  readonly headers: readonly NamedValue[];
  readonly envHeaders: readonly NamedValue[];
  readonly bearerTokenEnvVar?: Located<string>;
  readonly scopes?: Located<readonly string[]>;
  readonly oauth?: Located<{ readonly clientId?: string }>;
  readonly oauthResource?: Located<string>;
}

export interface Manifest {
  readonly label: ManifestLabel;
  readonly file: string;
  readonly schemaVersion: Located<number>;
  readonly nameRule: 'toml' | 'agent-plugins' | 'kimi';
  readonly name: Located<string>;
  readonly version: Located<string>;
  readonly description?: Located<string>;
  readonly author?: Located<string>;
  readonly displayName?: Located<string>;
  readonly icon?: Located<string>;
  readonly homepage?: Located<string>;
  readonly repository?: Located<string>;
  readonly license?: Located<string>;
  readonly keywords: readonly Located<string>[];
  readonly components: Partial<Record<ComponentKind, PathSpecDecl>>;
  readonly mcpServers: readonly McpServerDecl[];
  readonly filesystemRoots: readonly Located<string>[];
  readonly networkHosts: readonly Located<string>[];
  /** Kimi and Claude manifests derive network hosts from MCP URLs (codewhale.md §3.5). */
  readonly networkHostsDerived: boolean;
  readonly lifecycleMutation: boolean;
  readonly when?: {
    readonly at: Where;
    readonly os?: readonly Located<string>[];
    readonly binaries?: readonly Located<string>[];
  };
}

export function located<T>(value: T, file: string, path: DocPath, key = false): Located<T> {
  return { value, at: { file, path, ...(key ? { key } : {}) } };
}
