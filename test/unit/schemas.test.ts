import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
type Schema = {
  description?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  required?: string[];
  anyOf?: Schema[];
};
const read = (rel: string): unknown => JSON.parse(fs.readFileSync(path.join(ROOT, rel), 'utf8'));
const pkg = read('package.json') as { contributes: { jsonValidation: { fileMatch: string[]; url: string }[] } };

/** Every property, with its path, of a schema (where a user can hover). */
function properties(s: Schema, at = ''): [string, Schema][] {
  const out: [string, Schema][] = [];
  for (const [k, v] of Object.entries(s.properties ?? {})) out.push([`${at}.${k}`, v], ...properties(v, `${at}.${k}`));
  if (typeof s.additionalProperties === 'object') out.push(...properties(s.additionalProperties, `${at}.*`));
  if (s.items) out.push(...properties(s.items, `${at}[]`));
  return out;
}

/** Issue 14 item 8: the schemas Skillgate knows, contributed for completion and hover offline. */
describe('the contributed JSON schemas', () => {
  it("associates Codewhale's plugin.json, mcp.json and kimi.plugin.json and Rivumi's hooks.json and plugin manifests", () => {
    assert.deepEqual(
      pkg.contributes.jsonValidation.map((v) => [v.fileMatch, v.url]),
      [
        [['**/.codewhale/plugins/*/plugin.json'], './media/schemas/plugin.json'],
        [['**/.codewhale/plugins/*/mcp.json'], './media/schemas/mcp.json'],
        [['**/.codewhale/plugins/*/kimi.plugin.json'], './media/schemas/kimi.plugin.json'],
        [['**/.rivumi/hooks.json'], './media/schemas/rivumi-hooks.json'],
        [['**/.rivumi/plugins/*.json'], './media/schemas/rivumi-plugin.json'],
      ],
    );
  });

  it('describes every field a user can hover', () => {
    for (const { url } of pkg.contributes.jsonValidation) {
      const schema = read(url) as Schema;
      assert.ok(schema.description, url);
      const bare = properties(schema)
        .filter(([, s]) => !s.description)
        .map(([p]) => p);
      assert.deepEqual(bare, [], url);
    }
  });

  it('requires what the specs require: $schema and name in plugin.json, mcpServers in mcp.json, command in a Rivumi hook', () => {
    assert.deepEqual((read('media/schemas/plugin.json') as Schema).required, ['$schema', 'name']);
    assert.deepEqual((read('media/schemas/mcp.json') as Schema).required, ['mcpServers']);
    const hooks = read('media/schemas/rivumi-hooks.json') as Schema;
    assert.deepEqual(Object.keys(hooks.properties ?? {}), [
      'pre_tool_use',
      'post_tool_use',
      'approval_request',
      'pre_compact',
      'post_compact',
    ]);
    assert.equal(hooks.additionalProperties, false);
    assert.deepEqual(hooks.properties?.['pre_tool_use']?.items?.required, ['command']);
  });

  it("knows every key of the demo workspace's manifests", () => {
    const known = (schema: Schema, value: unknown, at: string): void => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
      for (const [k, v] of Object.entries(value)) {
        const sub =
          schema.properties?.[k] ??
          (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
        assert.ok(sub, `${at}.${k}`);
        known(sub, v, `${at}.${k}`);
      }
    };
    const demo = 'examples/demo-workspace/.codewhale/plugins/repo-tools';
    known(read('media/schemas/plugin.json') as Schema, read(`${demo}/plugin.json`), 'plugin.json');
    known(read('media/schemas/mcp.json') as Schema, read(`${demo}/mcp.json`), 'mcp.json');
    known(
      read('media/schemas/rivumi-hooks.json') as Schema,
      read('examples/demo-workspace/.rivumi/hooks.json'),
      'hooks.json',
    );
  });
});
