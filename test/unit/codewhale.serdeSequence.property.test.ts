import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import type { Snapshot } from '../../src/core/index/snapshot';
import {
  MCP_JSON_LAYOUT,
  PLUGIN_JSON_LAYOUT,
  PLUGIN_TOML_LAYOUT,
} from '../../src/core/systems/codewhale/formats/serdeSequence';
import { asSerdeArrays, tomlText, withNullOptions, type SerdeChoices } from '../fuzz/serdeForms';
import { Fixture, index } from './helpers/fixture';

/**
 * Codewhale reads its manifests with serde derive (codewhale.md §4.2): a struct written as an
 * array (its fields in declaration order) loads as the object it stands for, and `null` in an
 * `Option` field as the field left out. So for any valid manifest, those forms must give the
 * same items, decisions, inventory, capabilities and capability hash as the object form; only
 * the bytes differ (the content hash and so the review token).
 */
describe('Codewhale manifests: structs as arrays and null options read as the object form (property)', function () {
  this.timeout(60000);
  let f: Fixture;
  /** How many object forms loaded (a property over rejected manifests only would say little). */
  let loaded = 0;
  beforeEach(() => (loaded = 0));
  afterEach(function () {
    if (this.currentTest?.state === 'passed') assert.ok(loaded >= 10, `only ${loaded} manifests loaded`);
  });
  before(() => (f = new Fixture()));
  after(() => f.remove());

  const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
  /** The value without its undefined fields (a field left out). */
  const clean = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));
  const word = fc.constantFrom('a', 'b-c', 'docs', 'x_y');
  const words = fc.uniqueArray(word, { maxLength: 3 });
  /** A component table declares its directory once, by `path` or `paths` (codewhale.md §4.3). */
  const pathSpec = (dir: string) => fc.constantFrom({ path: dir }, { paths: [dir] }, { path: dir, paths: [] });
  const capabilities = fc.record(
    {
      filesystem_roots: opt(fc.constantFrom(['.'], ['src', 'docs'])),
      network_hosts: opt(fc.constant([] as string[])),
      lifecycle_mutation: opt(fc.boolean()),
    },
    { requiredKeys: [] },
  );
  const when = fc.record(
    { os: opt(fc.constantFrom(['linux'], ['linux', 'macos'])), binaries: opt(fc.constantFrom(['node'], ['git'])) },
    { requiredKeys: [] },
  );
  const extension = fc.record(
    {
      display_name: opt(fc.constantFrom('Demo', 'A demo')),
      skills: opt(pathSpec('skills')),
      commands: opt(pathSpec('commands')),
      agents: opt(pathSpec('agents')),
      capabilities: opt(capabilities),
      when: opt(when),
    },
    { requiredKeys: [] },
  );
  const author = fc.record(
    {
      name: fc.constantFrom('Ann', 'Bo'),
      email: opt(fc.constant('a@example.com')),
      url: opt(fc.constant('https://a.example')),
    },
    { requiredKeys: ['name'] },
  );
  const pluginJson = fc.record(
    {
      $schema: fc.constant('https://agent-plugins.org/schemas/plugin.json'),
      name: fc.constant('demo'),
      version: opt(fc.constantFrom('1.0.0', '0.2.0')),
      description: opt(fc.constantFrom('A demo.', 'Docs search')),
      author: opt(author),
      homepage: opt(fc.constant('https://demo.example')),
      license: opt(fc.constantFrom('MIT', 'Apache-2.0')),
      keywords: opt(words),
      extensions: opt(extension.map((e) => ({ 'net.codewhale': e }))),
    },
    { requiredKeys: ['$schema', 'name'] },
  );
  const mcpExtension = fc.record(
    {
      bearer_token_env_var: opt(fc.constant('TOKEN')),
      connect_timeout: opt(fc.integer({ min: 1, max: 60 })),
      enabled: opt(fc.boolean()),
      enabled_tools: opt(words),
      disabled_tools: opt(words),
    },
    { requiredKeys: [] },
  );
  const server = fc.oneof(
    fc.record(
      {
        command: fc.constantFrom('node', 'python3'),
        args: opt(fc.constantFrom(['server.js'], ['-m', 'srv'])),
        env: opt(fc.constant({ A: '${B}' })),
        cwd: opt(fc.constant('bin')),
      },
      { requiredKeys: ['command'] },
    ),
    fc.record(
      {
        type: opt(fc.constant('streamable-http')),
        url: fc.constantFrom('https://docs.example/mcp', 'https://api.example.com/x'),

        extensions: opt(mcpExtension.map((e) => ({ 'net.codewhale': e }))),
      },
      { requiredKeys: ['url'] },
    ),
  );
  const mcpJson = fc.option(fc.dictionary(fc.constantFrom('s', 'docs', 'api'), server, { minKeys: 1, maxKeys: 2 }), {
    nil: undefined,
  });
  const tomlManifest = fc.record(
    {
      schema_version: fc.constant(1),
      plugin: fc.record(
        {
          name: fc.constant('demo'),
          description: opt(fc.constant('A demo.')),
          version: opt(fc.constantFrom('1.0.0', '0.2.0')),
          author: opt(fc.constant('Ann')),
          display_name: opt(fc.constant('Demo')),
          license: opt(fc.constant('MIT')),
          keywords: opt(words),
        },
        { requiredKeys: ['name'] },
      ),
      skills: opt(pathSpec('skills')),
      commands: opt(pathSpec('commands')),
      capabilities: opt(capabilities),
      when: opt(when),
      mcp_servers: opt(
        fc.dictionary(fc.constantFrom('s', 'docs'), fc.constant({ command: 'node', args: ['x.js'] }), { maxKeys: 1 }),
      ),
    },
    { requiredKeys: ['schema_version', 'plugin'] },
  );
  const choices = fc
    .tuple(
      fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }),
      fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }),
    )
    .map(([convert, pad]): (() => SerdeChoices) => () => {
      let i = 0;
      let j = 0;
      return {
        convert: () => convert[i++ % convert.length] as boolean,
        trailingNulls: () => pad[j++ % pad.length] as boolean,
      };
    });

  /** A valid manifest declares exactly its remote servers' hosts (codewhale.md §4.7), where it declares capabilities. */
  const declaringHosts = ([manifest, servers]: [
    Record<string, unknown>,
    Record<string, Record<string, unknown>> | undefined,
  ]) => {
    const hosts = [
      ...new Set(
        Object.values(servers ?? {}).flatMap((s) => (typeof s.url === 'string' ? [new URL(s.url).hostname] : [])),
      ),
    ].sort();
    const ext = (manifest.extensions as Record<string, Record<string, unknown>> | undefined)?.['net.codewhale'];
    const caps = ext?.capabilities as Record<string, unknown> | undefined;
    if (caps && hosts.length) caps.network_hosts = hosts;
    return [manifest, servers] as const;
  };

  const BUNDLE = '.codewhale/plugins/demo';
  const writeTree = () => {
    f.write(`${BUNDLE}/skills/a/SKILL.md`, '---\nname: a\ndescription: A skill.\n---\nBody.\n');
    f.write(`${BUNDLE}/commands/c.md`, '---\ndescription: A command.\n---\nBody.\n');
    f.mkdir(`${BUNDLE}/bin`);
    f.write(`${BUNDLE}/agents/k.toml`, 'name = "k"\ndescription = "An agent."\n');
  };

  /** What must not change with the form: all of an item but its hashes of bytes and where its text sits. */
  const faces = (s: Snapshot) => ({
    items: s.items.map((i) => ({
      id: i.id,
      kind: i.kind,
      name: i.name,
      qualifiedName: i.qualifiedName,
      parent: i.parent,
      decision: i.decision,
      reasons: i.reasons,
      shadowedBy: i.shadowedBy,
      trust: i.trust,
      enabled: i.enabled,
      compatibility: i.compatibility,
      capabilityHash: i.capabilityHash,
      description: i.detail.description,
      version: i.detail.version,
      inventory: i.detail.inventory,
      capabilities: i.detail.capabilities,
      activation: i.detail.activation,
      agentIdentity: i.detail.agentIdentity,
      notCovered: i.detail.notCovered,
      files: i.detail.files?.filter((x) => !/(plugin\.(json|toml)|mcp\.json)$/.test(x.path)),
    })),
    diagnostics: s.diagnostics.map((d) => ({ code: d.code, severity: d.severity, message: d.message })),
  });

  const indexWith = (files: Record<string, string>): Snapshot => {
    f.remove();
    writeTree();
    for (const [rel, text] of Object.entries(files)) f.write(`${BUNDLE}/${rel}`, text);
    return index([f.root]);
  };

  const same = (objectForm: Record<string, string>, otherForm: Record<string, string>) => {
    const a = indexWith(objectForm);
    const b = indexWith(otherForm);
    assert.ok(a.items.length > 0, 'the bundle is listed');
    loaded += a.items.some((i) => i.kind === 'plugin' && !i.reasons.includes('manifest_invalid')) ? 1 : 0;
    assert.deepEqual(faces(b), faces(a), `${JSON.stringify(otherForm)}\nvs\n${JSON.stringify(objectForm)}`);
    const manifest = (s: Snapshot) => s.items.find((i) => i.kind === 'plugin');
    if (JSON.stringify(objectForm) !== JSON.stringify(otherForm) && manifest(a)?.contentHash)
      assert.notEqual(manifest(b)?.contentHash, manifest(a)?.contentHash, 'the bytes differ, so does the content hash');
  };

  it('plugin.json and mcp.json: every struct, or some, written as an array', () => {
    fc.assert(
      fc.property(
        fc.tuple(pluginJson.map(clean), mcpJson.map(clean)).map(declaringHosts),
        choices,
        ([manifest, servers], choose) => {
          const c = choose();
          const objectForm: Record<string, string> = { 'plugin.json': JSON.stringify(manifest, null, 2) };
          const arrayForm: Record<string, string> = {
            'plugin.json': JSON.stringify(asSerdeArrays(manifest, PLUGIN_JSON_LAYOUT, 'json', c)),
          };
          if (servers) {
            objectForm['mcp.json'] = JSON.stringify({ mcpServers: servers }, null, 2);
            arrayForm['mcp.json'] = JSON.stringify(asSerdeArrays({ mcpServers: servers }, MCP_JSON_LAYOUT, 'json', c));
          }
          same(objectForm, arrayForm);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('plugin.json and mcp.json: null for Option fields is the field left out', () => {
    fc.assert(
      fc.property(
        fc.tuple(pluginJson.map(clean), mcpJson.map(clean)).map(declaringHosts),
        fc.array(fc.boolean(), { minLength: 1 }),
        ([manifest, servers], picks) => {
          let i = 0;
          const pick = () => picks[i++ % picks.length] as boolean;
          const objectForm: Record<string, string> = { 'plugin.json': JSON.stringify(manifest) };
          const nullForm: Record<string, string> = {
            'plugin.json': JSON.stringify(withNullOptions(manifest, PLUGIN_JSON_LAYOUT, pick)),
          };
          if (servers) {
            objectForm['mcp.json'] = JSON.stringify({ mcpServers: servers });
            nullForm['mcp.json'] = JSON.stringify(withNullOptions({ mcpServers: servers }, MCP_JSON_LAYOUT, pick));
          }
          same(objectForm, nullForm);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('plugin.toml: [plugin], the component tables, [capabilities] and [when] written as arrays', () => {
    fc.assert(
      fc.property(tomlManifest.map(clean), choices, (manifest, choose) => {
        same(
          { 'plugin.toml': tomlText(manifest) },
          {
            'plugin.toml': tomlText(
              asSerdeArrays(manifest, PLUGIN_TOML_LAYOUT, 'toml', choose()) as Record<string, unknown>,
            ),
          },
        );
      }),
      { numRuns: 150 },
    );
  });
});
