import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import type { Diagnostic } from '../../src/core/model';
import { applyFixAsEditor } from './helpers/editorApply';
import { Fixture, index, writeW } from './helpers/fixture';

const TOML = 'ws/.codewhale/plugins/example-plugin/plugin.toml';
const HEAD = 'schema_version = 1\n[plugin]\nname = "example-plugin"\nversion = "1.2.3"\n';

/**
 * A value a Codewhale list repeats (codewhale.md §4.5 component paths, §4.7 step 6 tool
 * filters): the list means the same without the repeat, so removing it is the fix. The
 * fixed manifest is indexed again and no longer has the finding.
 */
describe('quick fixes that remove a repeated component path or tool filter', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const findings = (code: string): Diagnostic[] => index([f.path('ws')]).diagnostics.filter((x) => x.code === code);

  it('removes a component path declared twice in one list', () => {
    writeW(f);
    f.write(TOML, `${HEAD}[skills]\npaths = ["skills", "./skills", "skills"]\n`);
    const [d] = findings('codewhale.component.path').filter((x) => x.message.includes('more than once'));
    applyFixAsEditor(d);
    assert.deepEqual(findings('codewhale.component.path'), []);
    assert.match(fs.readFileSync(f.path(TOML), 'utf8'), /\npaths = \["skills", "\.\/skills"\]\n/);
  });

  it('offers no fix where `paths` repeats the value of `path` (the two lists are apart)', () => {
    writeW(f);
    f.write(TOML, `${HEAD}[skills]\npath = "skills"\npaths = ["skills"]\n`);
    const [d] = findings('codewhale.component.path');
    assert.ok(d);
    assert.equal(d.fix, undefined);
  });

  it('removes a tool named twice in enabled_tools', () => {
    writeW(f, '[mcp_servers.local]\ncommand = "node"\nenabled_tools = ["read", "write", "read"]\n');
    const [d] = findings('codewhale.mcp.tool-filter');
    applyFixAsEditor(d);
    assert.deepEqual(findings('codewhale.mcp.tool-filter'), []);
    assert.match(fs.readFileSync(f.path(TOML), 'utf8'), /\nenabled_tools = \["read", "write"\]\n/);
  });

  it('offers no fix for tool names that differ in case (removing one could enable a tool)', () => {
    writeW(f, '[mcp_servers.local]\ncommand = "node"\ndisabled_tools = ["Delete", "delete"]\n');
    const [d] = findings('codewhale.mcp.tool-filter');
    assert.ok(d);
    assert.equal(d.fix, undefined);
  });
});
