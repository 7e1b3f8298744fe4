import { strict as assert } from 'node:assert';
import { Findings } from '../../src/core/diagnostics/findings';
import { readMcpJson } from '../../src/core/systems/codewhale/formats/mcpJson';
import { readPluginJson } from '../../src/core/systems/codewhale/formats/pluginJson';
import { readKimiJson } from '../../src/core/systems/codewhale/formats/kimiJson';
import { readClaudeMcpJson } from '../../src/core/systems/codewhale/formats/claudePluginJson';
import { Fixture } from './helpers/fixture';

/**
 * A JSON manifest its schema refuses (codewhale.md §4.2): every problem is upstream's
 * `failed to parse <file>: …`, under the file's own parse code, at the field it names: the
 * key of an unknown field, the value of a wrong one, its element where a struct is an array.
 */
describe('Codewhale JSON manifests: schema refusals, their code, words and place', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  /** Each finding as its code, message and the text under its range (one-line documents). */
  const refusals = (text: string, read: (file: string, findings: Findings) => unknown, rel: string) => {
    const file = f.write(rel, text);
    const findings = new Findings();
    assert.equal(read(file, findings), undefined);
    return findings.diagnostics.map((d) => [
      d.code,
      d.message,
      text.slice(d.range.start.character, d.range.end.character),
    ]);
  };

  it('plugin.json', () => {
    const text = '{"$schema":"s","name":"p","bogus":1,"author":[1]}';
    assert.deepEqual(
      refusals(text, (file, findings) => readPluginJson(file, text, f.path('b'), findings), 'b/plugin.json'),
      [
        ['codewhale.manifest.parse', 'failed to parse plugin.json: expected string at `author.name`', '1'],
        ['codewhale.manifest.parse', 'failed to parse plugin.json: unknown field `bogus`', '"bogus"'],
      ],
    );
  });

  it('kimi.plugin.json and its Claude form', () => {
    const text = '{"name":"k","bogus":1,"interface":[1]}';
    for (const [label, rel, what] of [
      ['kimi.plugin.json', 'b/kimi.plugin.json', 'kimi.plugin.json'],
      ['.claude-plugin/plugin.json', 'b/.claude-plugin/plugin.json', 'Claude plugin.json'],
    ] as const)
      assert.deepEqual(
        refusals(text, (file, findings) => readKimiJson(file, text, f.path('b'), findings, label), rel),
        [
          ['codewhale.manifest.parse', `failed to parse ${what}: expected string at \`interface.displayName\``, '1'],
          ['codewhale.manifest.parse', `failed to parse ${what}: unknown field \`bogus\``, '"bogus"'],
        ],
        label,
      );
  });

  it('mcp.json', () => {
    const text = '{"mcpServers":{"s":["stdio",1]},"bogus":1}';
    assert.deepEqual(
      refusals(text, (file, findings) => readMcpJson(file, findings), 'b/mcp.json'),
      [
        ['codewhale.mcp-json.parse', 'failed to parse mcp.json: expected string at `mcpServers.s.command`', '1'],
        ['codewhale.mcp-json.parse', 'failed to parse mcp.json: unknown field `bogus`', '"bogus"'],
      ],
    );
  });

  it("a Claude bundle's .mcp.json, servers by id or under mcpServers", () => {
    const expectedString = (at: string) => [
      'codewhale.mcp-json.parse',
      `failed to parse .mcp.json: expected string at \`${at}\``,
      '1',
    ];
    assert.deepEqual(
      refusals('{"s":["stdio",1]}', (file, findings) => readClaudeMcpJson(file, findings), 'b/.mcp.json'),
      [expectedString('s.command')],
    );
    assert.deepEqual(
      refusals(
        '{"mcpServers":{"s":["stdio",1]},"bogus":1}',
        (file, findings) => readClaudeMcpJson(file, findings),
        'b/.mcp.json',
      ),
      [
        expectedString('mcpServers.s.command'),
        ['codewhale.mcp-json.parse', 'failed to parse .mcp.json: unknown field `bogus`', '"bogus"'],
      ],
    );
  });
});
