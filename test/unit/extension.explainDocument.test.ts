import { strict as assert } from 'node:assert';
import { explainMarkdown } from '../../src/extension/documents/explainDocument';
import { Fixture, index, writeW } from './helpers/fixture';

/**
 * The editor's Explain document (explainDocument.ts): `explain` as Markdown, the decision
 * first as the title with each reason a bullet, then each section under its heading, and
 * every text a bundle chose escaped so it renders as written (decisions.md "Explain").
 */
describe('the Explain document', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  it('titles the decision, lists each reason and each section under its heading, every text escaped', () => {
    writeW(f, '[mcp_servers.local]\ncommand = "node"\nenv = { TOKEN = "literal-secret" }\n');
    const snapshot = index([f.path('ws')]);
    const plugin = snapshot.items.find((i) => i.kind === 'plugin');
    assert.ok(plugin);
    const blocks = explainMarkdown(snapshot, plugin).split('\n\n');
    assert.deepEqual(blocks.slice(0, 4), [
      '# example\\-plugin\\: rejected\\: invalid\\, or blocked by an invalid file',
      [
        '- manifest\\_invalid\\: The manifest fails validation\\, so the agent does not load the bundle\\.',
        '- not\\_reviewed\\: Not reviewed yet\\: review it\\, then trust it\\.',
        '- not\\_enabled\\: Not enabled\\: for Codewhale\\, trust and enable are separate steps\\.',
      ].join('\n'),
      '## Source',
      [
        '- system\\: codewhale\\, kind\\: plugin\\, scope\\: workspace',
        '- path\\: \\.codewhale\\/plugins\\/example\\-plugin',
        `- id\\: ${plugin.id.replace(/[/-]/g, '\\$&')}`,
      ].join('\n'),
    ]);
    assert.deepEqual(
      blocks.filter((b) => b.startsWith('#')),
      [
        '# example\\-plugin\\: rejected\\: invalid\\, or blocked by an invalid file',
        ...['Source', 'Schema', 'Gates', 'Capabilities', 'Diagnostics'].map((t) => `## ${t}`),
      ],
    );
    assert.equal(
      blocks.at(-1),
      '- \\.codewhale\\/plugins\\/example\\-plugin\\/plugin\\.toml\\:9\\:17\\: error codewhale\\.mcp\\.env\\-value\\: MCP server \\`local\\` environment values must be exact \\`\\$\\{SOURCE\\_ENV\\}\\` references',
    );
  });
});
