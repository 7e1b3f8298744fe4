import { strict as assert } from 'node:assert';
import { Findings } from '../../src/core/diagnostics/findings';
import { readPluginToml } from '../../src/core/systems/codewhale/formats/pluginToml';
import { validateManifest } from '../../src/core/systems/codewhale/validateManifest';
import type { Manifest } from '../../src/core/systems/codewhale/manifest';
import { Fixture } from './helpers/fixture';

/**
 * A struct written as a TOML array (codewhale.md §3.1, §4.2). Upstream reads plugin.toml with
 * `toml::from_str::<PluginManifest>` after its `mcp_servers` pre-checks; the toml crate's
 * `deserialize_struct` visits an array as a sequence, so serde derive fills the fields in
 * declaration order, and its sequence access never looks past the last field, so elements
 * beyond it are not read at all. Expected outcomes are those of upstream's structs (serde_derive
 * 1.0.152) through toml_edit 0.14.4 `easy`, whose array deserializer is the toml crate's
 * (the oracle in /tmp/tomlseq-oracle).
 */
describe('Codewhale plugin.toml: structs written as arrays (toml visit_seq, codewhale.md §4.2)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const read = (source: string) => {
    const file = f.write('b/plugin.toml', source);
    const findings = new Findings();
    const m = readPluginToml(file, source, findings);
    return { file, findings, m, messages: findings.diagnostics.map((d) => d.message) };
  };
  const ok = (source: string): Manifest => {
    const r = read(source);
    assert.deepEqual(r.messages, []);
    assert.ok(r.m);
    return r.m;
  };
  const values = (l: readonly { value: string }[] | undefined) => (l ?? []).map((x) => x.value);
  const paths = (m: Manifest) => Object.fromEntries(Object.entries(m.components).map(([k, s]) => [k, values(s.paths)]));

  it('reads [plugin] written as [name, description, version, author, display_name, icon, ...]', () => {
    const m = ok('plugin = ["n"]\n');
    assert.equal(m.name.value, 'n');
    assert.deepEqual(m.name.at.path, ['plugin', 0]);
    assert.equal(m.version.value, '');
    const full = ok('schema_version = 1\nplugin = ["n", "d", "1.0.0", "a", "D", "i", "h", "r", "l", ["k"]]\n');
    assert.deepEqual(
      [
        full.description,
        full.version,
        full.author,
        full.displayName,
        full.icon,
        full.homepage,
        full.repository,
        full.license,
      ].map((x) => [x?.value, x?.at.path]),
      [
        ['d', ['plugin', 1]],
        ['1.0.0', ['plugin', 2]],
        ['a', ['plugin', 3]],
        ['D', ['plugin', 4]],
        ['i', ['plugin', 5]],
        ['h', ['plugin', 6]],
        ['r', ['plugin', 7]],
        ['l', ['plugin', 8]],
      ],
    );
    assert.deepEqual(
      full.keywords.map((k) => [k.value, k.at.path]),
      [['k', ['plugin', 9, 0]]],
    );
  });

  it('reads path specs, their aliases, capabilities and [when] written as arrays', () => {
    const m = ok(
      'plugin = {name = "n"}\nskills = ["a", ["b", "c"]]\ncommands = []\nprofiles = ["p"]\nnative_extension = ["x", ["y"]]\n' +
        'capabilities = [["r"], ["h.example"], true]\nwhen = [["linux"], ["git"]]\n',
    );
    assert.deepEqual(paths(m), { skills: ['a', 'b', 'c'], commands: [], agents: ['p'], native: ['x', 'y'] });
    assert.deepEqual(m.components.skills?.paths[1]?.at.path, ['skills', 1, 0]);
    assert.deepEqual(m.components.agents?.paths[0]?.at.path, ['profiles', 0]);
    assert.deepEqual(
      [values(m.filesystemRoots), values(m.networkHosts), m.lifecycleMutation],
      [['r'], ['h.example'], true],
    );
    assert.deepEqual(m.networkHosts[0]?.at.path, ['capabilities', 1, 0]);
    assert.deepEqual([values(m.when?.os), values(m.when?.binaries)], [['linux'], ['git']]);
    assert.deepEqual(m.when?.binaries?.[0]?.at.path, ['when', 1, 0]);
    // An empty array is the struct with every field defaulted: `[skills]`'s default path, a `[when]` of nothing.
    const empty = ok('plugin = {name = "n"}\nskills = []\nwhen = []\n');
    assert.deepEqual(paths(empty), { skills: ['skills'] });
    assert.deepEqual([empty.when?.os, empty.when?.binaries], [undefined, undefined]);
  });

  it('never reads the elements past the last field, whatever they hold', () => {
    const m = ok(
      'schema_version = 1\nplugin = ["n", "d", "1.0.0", "a", "D", "i", "h", "r", "l", ["k"], 5, {x = 1}, 1979-05-27]\n' +
        'skills = ["s", [], true]\ncapabilities = [[], ["h.example"], true, "x"]\nwhen = [["linux"], ["git"], 3]\n',
    );
    assert.equal(m.license?.value, 'l');
    assert.deepEqual(paths(m), { skills: ['s'] });
    assert.deepEqual(
      [values(m.networkHosts), m.lifecycleMutation, values(m.when?.os)],
      [['h.example'], true, ['linux']],
    );
  });

  it('refuses what serde refuses, at the element (or the array where a field is missing)', () => {
    const missing = read('plugin = []\n');
    assert.equal(missing.m, undefined);
    assert.deepEqual(
      missing.messages.map((s) => s.replace(/ \(.*/, '')),
      ['failed to parse plugin.toml near bytes 9..11; check the v1 schema and field types'],
    );
    const wrong = read('plugin = ["n", 5]\n');
    assert.equal(wrong.m, undefined);
    assert.equal(wrong.messages.length, 1);
    assert.match(wrong.messages[0] ?? '', /^failed to parse plugin\.toml near bytes 15\.\.16;/);
    assert.equal(wrong.findings.diagnostics[0]?.range.start.character, 15);
    // A table where the first field takes a string, as `[[skills]]` writes one.
    assert.equal(read('plugin = {name = "n"}\n[[skills]]\npath = "a"\n').m, undefined);
    assert.equal(read('plugin = {name = "n"}\nskills = [{path = "a"}]\n').m, undefined);
    // An array of tables is an array: its element is the table, the array's place its first header.
    const aot = read('plugin = {name = "n"}\n[[skills]]\npath = "a"\n');
    assert.match(aot.messages[0] ?? '', /^failed to parse plugin\.toml near bytes 22\.\.43;/);
    assert.deepEqual(read('plugin = {name = "n"}\n[[mcp_servers]]\ncommand = "a"\n').findings.diagnostics[0]?.range, {
      start: { line: 1, character: 0 },
      end: { line: 2, character: 13 },
    });
    // The pre-checks see the raw value first: a server must still be a table.
    assert.deepEqual(read('plugin = {name = "n"}\nmcp_servers = {s = ["node"]}\n').messages, [
      'each MCP server must be a table',
    ]);
  });

  it('anchors the rules and their quick fixes at the element', () => {
    const source = 'schema_version = 1\nplugin = ["Bad-Name", "", "1.0.0", "", "", "", "", "", "", ["k", "K"]]\n';
    const r = read(source);
    assert.ok(r.m);
    validateManifest(f.path('b'), r.m, r.findings);
    const name = r.findings.diagnostics.find((d) => d.code === 'codewhale.manifest.name');
    assert.ok(name);
    assert.deepEqual(name.range, { start: { line: 1, character: 10 }, end: { line: 1, character: 20 } });
    assert.deepEqual(name.fix?.edits[0]?.range, name.range);
    assert.equal(name.fix?.edits[0]?.newText, '"bad-name"');
    const description = r.findings.diagnostics.find((d) => d.message.startsWith('description'));
    assert.equal(description?.range.start.character, 22);
    const repeated = r.findings.diagnostics.find((d) => d.message === 'duplicate keyword value `K`');
    assert.ok(repeated);
    assert.equal(source.split('\n')[1]?.slice(repeated.range.start.character, repeated.range.end.character), '"K"');
    const fixed = repeated.fix?.edits[0];
    assert.ok(fixed);
    assert.equal(source.split('\n')[1]?.slice(fixed.range.start.character, fixed.range.end.character), ', "K"');
  });
});
