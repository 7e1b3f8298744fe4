import { strict as assert } from 'node:assert';
import { loadWithVscode, vscodeStandIn } from './helpers/vscodeStandIn';

type OfflineSchemas = typeof import('../../src/extension/offlineSchemas');

// Not in the stand-in, and read by the module through `vscode`: named before it loads, for its
// `import * as vscode` takes the names there are then.
Object.assign(vscodeStandIn.api, { ConfigurationTarget: undefined });

/**
 * The user's `json.schemas` entries that let VS Code's JSON service read Codewhale's
 * schemas offline (offlineSchemas.ts): Skillgate's two entries point at the copies it
 * ships, the user's other entries stay as they are, and nothing is added unasked.
 */
describe('the offline JSON schemas in the user settings', () => {
  const { serveSchemasOffline, refreshOfflineSchemas } = loadWithVscode(
    () => require('../../src/extension/offlineSchemas') as OfflineSchemas,
  );
  const api = vscodeStandIn.api as unknown as Record<string, unknown>;
  const workspace = vscodeStandIn.api.workspace as unknown as Record<string, unknown>;
  const uris = vscodeStandIn.api.Uri as unknown as Record<string, unknown>;
  const getConfiguration = workspace.getConfiguration;
  const extension = { fsPath: '/ext/v2' };
  const PLUGIN = 'https://agent-plugins.org/schemas/plugin.json';
  const MCP = 'https://agent-plugins.org/schemas/mcp.json';
  const ours = [
    { url: PLUGIN, schema: { $ref: 'file:///ext/v2/media/schemas/plugin.json' } },
    { url: MCP, schema: { $ref: 'file:///ext/v2/media/schemas/mcp.json' } },
  ];
  /** Each write: the section, the key, the value and where it was written. */
  let written: { section: string; key: string; value: unknown; target: unknown }[];

  beforeEach(() => {
    vscodeStandIn.reset();
    written = [];
    api.ConfigurationTarget = { Global: 'user', Workspace: 'workspace', WorkspaceFolder: 'folder' };
    uris.joinPath = (base: { fsPath: string }, ...parts: string[]) => ({
      toString: () => `file://${[base.fsPath, ...parts].join('/')}`,
    });
    workspace.getConfiguration = (section: string) => ({
      ...(getConfiguration as (section: string) => object)(section),
      update: async (key: string, value: unknown, target: unknown) =>
        void written.push({ section, key, value, target }),
    });
  });
  after(() => {
    workspace.getConfiguration = getConfiguration;
    delete uris.joinPath;
    delete api.ConfigurationTarget;
    vscodeStandIn.reset();
  });

  const userSchemas = (globalValue: unknown, workspaceValue?: unknown) =>
    vscodeStandIn.settings.set('json.schemas', { globalValue, workspaceValue });

  it("adds its two entries to the user's, keeping the others and replacing its own older ones", async () => {
    const other = { url: 'https://example.com/a.json', fileMatch: ['a.json'] };
    userSchemas([
      { url: PLUGIN, schema: { $ref: 'file:///ext/v1/media/schemas/plugin.json' } },
      other,
      { fileMatch: ['b'] },
    ]);
    await serveSchemasOffline(extension as never);
    assert.deepEqual(written, [
      {
        section: 'json',
        key: 'schemas',
        value: [other, { fileMatch: ['b'] }, ...ours],
        target: 'user',
      },
    ]);
  });

  it('reads only the user value, and one that is not a list as none', async () => {
    for (const globalValue of [undefined, 'x', { url: 'https://example.com/a.json' }]) {
      written = [];
      userSchemas(globalValue, [{ url: 'https://example.com/repo.json' }]);
      await serveSchemasOffline(extension as never);
      assert.deepEqual(
        written.map((w) => w.value),
        [ours],
        JSON.stringify(globalValue),
      );
    }
  });

  it('reads the setting as none when VS Code has nothing to say of it', async () => {
    const configuration = workspace.getConfiguration as (section: string) => object;
    workspace.getConfiguration = (section: string) => ({ ...configuration(section), inspect: () => undefined });
    await serveSchemasOffline(extension as never);
    assert.deepEqual(
      written.map((w) => w.value),
      [ours],
    );
  });

  it('at activation, adds nothing unasked, leaves current entries unwritten and moves older ones to this version', async () => {
    const other = { url: 'https://example.com/a.json' };
    userSchemas([other]);
    await refreshOfflineSchemas(extension as never);
    assert.deepEqual(written, [], 'never added unasked');
    userSchemas([other, ...ours]);
    await refreshOfflineSchemas(extension as never);
    assert.deepEqual(written, [], 'nothing written when the entries are current');
    userSchemas([{ url: MCP, schema: { $ref: 'file:///ext/v1/media/schemas/mcp.json' } }, other]);
    await refreshOfflineSchemas(extension as never);
    assert.deepEqual(written, [{ section: 'json', key: 'schemas', value: [other, ...ours], target: 'user' }]);
  });
});
