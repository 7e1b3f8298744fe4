import * as vscode from 'vscode';

/**
 * Codewhale's `plugin.json` must name its schema by URL (`$schema`, codewhale.md §3.2), and
 * VS Code's JSON service fetches a document's own `$schema` in preference to any
 * `jsonValidation` association, so offline it warns "Unable to load schema" (or, where the
 * network drops the request, waits on it: no hover, no warning, for a minute and more). The JSON
 * service reads a `json.schemas` entry's inline `schema` instead of the URL; it reads only
 * user and workspace values of that setting (not `configurationDefaults`). So, with the
 * user's consent, Skillgate adds one entry per URL to the user settings whose inline
 * schema is a `$ref` to the copy it ships, and keeps only those entries current.
 */
const SCHEMA_URLS: Readonly<Record<string, string>> = {
  'https://agent-plugins.org/schemas/plugin.json': 'plugin.json',
  'https://agent-plugins.org/schemas/mcp.json': 'mcp.json',
};

interface SchemaSetting {
  readonly url?: string;
  readonly schema?: { readonly $ref?: string };
}

/** The user's `json.schemas` with Skillgate's entries set to the shipped copies; others untouched. */
function withOfflineSchemas(current: readonly SchemaSetting[], extensionUri: vscode.Uri): SchemaSetting[] {
  const ours = Object.entries(SCHEMA_URLS).map(([url, file]) => ({
    url,
    schema: { $ref: vscode.Uri.joinPath(extensionUri, 'media', 'schemas', file).toString() },
  }));
  return [...current.filter((s) => !(s.url && s.url in SCHEMA_URLS)), ...ours];
}

function userSchemas(): SchemaSetting[] {
  const value = vscode.workspace.getConfiguration('json').inspect<SchemaSetting[]>('schemas')?.globalValue;
  return Array.isArray(value) ? value : [];
}

/** Adds (or refreshes) the entries in the user settings. */
export async function serveSchemasOffline(extensionUri: vscode.Uri): Promise<void> {
  await vscode.workspace
    .getConfiguration('json')
    .update('schemas', withOfflineSchemas(userSchemas(), extensionUri), vscode.ConfigurationTarget.Global);
}

/** At activation: refresh entries a previous version added (its path is gone after an update); never add them unasked. */
export async function refreshOfflineSchemas(extensionUri: vscode.Uri): Promise<void> {
  const current = userSchemas();
  const present = current.filter((s) => s.url && s.url in SCHEMA_URLS);
  if (present.length === 0) return;
  const wanted = withOfflineSchemas(current, extensionUri);
  if (JSON.stringify(wanted) !== JSON.stringify(current))
    await vscode.workspace.getConfiguration('json').update('schemas', wanted, vscode.ConfigurationTarget.Global);
}
