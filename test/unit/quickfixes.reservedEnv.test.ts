import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import type { Diagnostic } from '../../src/core/model';
import { applyFixAsEditor } from './helpers/editorApply';
import { Fixture, index } from './helpers/fixture';

const DIR = 'ws/.codewhale/plugins/local';
const CODE = 'codewhale.mcp-json.reserved-env';

/**
 * An mcp.json server may not set PLUGIN_ROOT or PLUGIN_DATA: Codewhale sets them itself
 * (codewhale.md §3.3), so removing the mapping is the fix. The fixed mcp.json is indexed
 * again and has no finding of that code.
 */
describe('quick fix for a reserved environment name in mcp.json', () => {
  let f: Fixture;
  beforeEach(() => {
    f = new Fixture();
    f.write(`${DIR}/plugin.json`, JSON.stringify({ $schema: 's', name: 'local', version: '1.0.0' }));
  });
  afterEach(() => f.remove());

  const findings = (): Diagnostic[] => index([f.path('ws')]).diagnostics.filter((x) => x.code === CODE);
  const mcp = (servers: unknown) => f.write(`${DIR}/mcp.json`, JSON.stringify({ mcpServers: servers }, null, 2));

  it('removes PLUGIN_ROOT, keeping the other mappings', () => {
    mcp({ local: { command: 'node', env: { TOKEN: '${TOKEN}', PLUGIN_ROOT: '${HOME}' } } });
    applyFixAsEditor(findings()[0]);
    assert.deepEqual(index([f.path('ws')]).diagnostics, []);
    assert.deepEqual(JSON.parse(fs.readFileSync(f.path(`${DIR}/mcp.json`), 'utf8')).mcpServers.local.env, {
      TOKEN: '${TOKEN}',
    });
  });

  it('removes each reserved name with its own fix', () => {
    mcp({ local: { command: 'node', env: { PLUGIN_DATA: '${A}', PLUGIN_ROOT: '${B}' } } });
    applyFixAsEditor(findings()[0]);
    applyFixAsEditor(findings()[0]);
    assert.deepEqual(findings(), []);
    assert.deepEqual(JSON.parse(fs.readFileSync(f.path(`${DIR}/mcp.json`), 'utf8')).mcpServers.local.env, {});
  });

  it('offers no fix where the name is written twice (the edit would reach the one not read)', () => {
    f.write(
      `${DIR}/mcp.json`,
      '{"mcpServers": {"local": {"command": "node", "env": {"PLUGIN_ROOT": "${A}", "PLUGIN_ROOT": "${B}"}}}}',
    );
    const [d] = findings();
    assert.ok(d);
    assert.equal(d.fix, undefined);
  });
});
