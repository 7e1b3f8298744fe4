import { strict as assert } from 'node:assert';
import type { Diagnostic } from '../../src/core/model';
import type { FixDraft } from '../../src/core/diagnostics/fixBasis';
import { assertFixBoundToEditorText } from './helpers/editorApply';
import { cpuTime } from './helpers/cpuTime';
import { Fixture, index, writeW } from './helpers/fixture';

const CODE = 'codewhale.capabilities.network-hosts-mismatch';
const SCHEMA = 'https://agent-plugins.org/schemas/plugin.json';
const REMOTE = '[mcp_servers.weather]\nurl = "https://api.weather.example/mcp"\n';
const TOML_HEAD =
  'schema_version = 1\n[plugin]\nname = "example-plugin"\nversion = "1.2.3"\n[skills]\npath = "skills"\n';

/**
 * The quick fix for a `network_hosts` mismatch (codewhale.md §4.4 step 7): the list to
 * set is the normalized host set of the MCP URLs. An existing list is replaced; a
 * `[capabilities]` header gets the key on the line after it; a manifest without the
 * table gets one at its end; `plugin.json` gets the key under
 * `extensions["net.codewhale"].capabilities`, in the file's own indentation and line
 * ends. Where the place is not obvious (an inline or dotted table) there is no fix.
 */
describe('Codewhale network_hosts quick fix: where the host list goes', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const mismatch = (): Diagnostic => {
    const s = index([f.path('ws')]);
    const d = s.diagnostics.find((x) => x.code === CODE);
    assert.ok(d, s.diagnostics.map((x) => x.code).join(', '));
    return d;
  };
  /** The fix, each edit bound to its file's text as the editor opens it; returned without that basis, to compare places. */
  const fixOf = (): FixDraft => {
    const fix = mismatch().fix;
    assert.ok(fix);
    assert.equal(fix.edits.length > 0, true);
    assertFixBoundToEditorText(fix);
    return { title: fix.title, edits: fix.edits.map(({ basis: _basis, ...e }) => e) };
  };
  const tomlFile = () => f.path('ws/.codewhale/plugins/example-plugin/plugin.toml');

  it('names every host of the set in its title and its list, in order', () => {
    writeW(f, `${REMOTE}[mcp_servers.other]\nurl = "https://B.example/x"\n[capabilities]\nnetwork_hosts = []\n`);
    const fix = fixOf();
    assert.equal(fix.title, 'Set network_hosts to ["api.weather.example", "b.example"]');
    assert.equal(fix.edits[0]?.newText, '["api.weather.example", "b.example"]');
  });

  it('replaces an existing list where it stands', () => {
    writeW(f, `${REMOTE}[capabilities]\nnetwork_hosts = ["x.example"]\n`);
    const lines = TOML_HEAD.split('\n').length - 1 + REMOTE.split('\n').length - 1 + 1;
    assert.deepEqual(fixOf().edits, [
      {
        file: tomlFile(),
        range: { start: { line: lines, character: 16 }, end: { line: lines, character: 29 } },
        newText: '["api.weather.example"]',
      },
    ]);
  });

  it('puts the key on the line after a `[capabilities]` header, spaced and commented or not', () => {
    writeW(f, `${REMOTE}  [ capabilities ]  # what it may do\nlifecycle_mutation = false\n`);
    const header = TOML_HEAD.split('\n').length - 1 + REMOTE.split('\n').length - 1;
    const at = { line: header + 1, character: 0 };
    assert.deepEqual(fixOf().edits, [
      { file: tomlFile(), range: { start: at, end: at }, newText: 'network_hosts = ["api.weather.example"]\n' },
    ]);
  });

  it('puts the key after a `[capabilities]` header on the last line, on a line of its own', () => {
    writeW(f, `${REMOTE}[capabilities]`);
    const header = TOML_HEAD.split('\n').length - 1 + REMOTE.split('\n').length - 1;
    const at = { line: header, character: '[capabilities]'.length };
    assert.deepEqual(fixOf().edits, [
      { file: tomlFile(), range: { start: at, end: at }, newText: '\nnetwork_hosts = ["api.weather.example"]\n' },
    ]);
  });

  it('offers no fix when the table is inline or dotted (no obvious place for the key)', () => {
    for (const table of ['capabilities = { lifecycle_mutation = false }', 'capabilities.lifecycle_mutation = false']) {
      f.write(
        'ws/.codewhale/plugins/example-plugin/plugin.toml',
        `schema_version = 1\n${table}\n[plugin]\nname = "example-plugin"\nversion = "1.2.3"\n${REMOTE}`,
      );
      assert.equal(mismatch().fix, undefined, table);
    }
  });

  it('adds the table at the end of a file without a final line break, after a blank line', () => {
    writeW(f, REMOTE.trimEnd());
    const last = TOML_HEAD.split('\n').length - 1 + REMOTE.split('\n').length - 2;
    const end = { line: last, character: 'url = "https://api.weather.example/mcp"'.length };
    assert.deepEqual(fixOf().edits, [
      {
        file: tomlFile(),
        range: { start: end, end },
        newText: '\n\n[capabilities]\nnetwork_hosts = ["api.weather.example"]\n',
      },
    ]);
  });

  it('adds the table after one line break when the file ends with one', () => {
    writeW(f, REMOTE);
    const end = { line: TOML_HEAD.split('\n').length - 1 + REMOTE.split('\n').length - 1, character: 0 };
    assert.deepEqual(fixOf().edits, [
      {
        file: tomlFile(),
        range: { start: end, end },
        newText: '\n[capabilities]\nnetwork_hosts = ["api.weather.example"]\n',
      },
    ]);
  });

  describe('plugin.json', () => {
    const json = (text: string) => {
      f.write('ws/.codewhale/plugins/w/plugin.json', text);
      f.write(
        'ws/.codewhale/plugins/w/mcp.json',
        JSON.stringify({ mcpServers: { w: { url: 'https://h.example/m' } } }),
      );
    };
    const applied = (text: string, fix: FixDraft) => {
      // Edits come in document order and do not overlap: apply them from the end.
      const offset = (p: { line: number; character: number }) =>
        text
          .split('\n')
          .slice(0, p.line)
          .reduce((n, l) => n + l.length + 1, 0) + p.character;
      let out = text;
      for (const e of [...fix.edits].reverse())
        out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
      return out;
    };

    it('writes the key in the indentation and line ends the file already uses', () => {
      const text = JSON.stringify({ $schema: SCHEMA, name: 'w', version: '1.0.0' }, null, 4).replace(/\n/g, '\r\n');
      json(text);
      const fix = fixOf();
      assert.equal(fix.edits[0]?.file, f.path('ws/.codewhale/plugins/w/plugin.json'));
      const out = applied(text, fix);
      assert.deepEqual(JSON.parse(out).extensions, {
        'net.codewhale': { capabilities: { network_hosts: ['h.example'] } },
      });
      assert.ok(!/[^\r]\n/.test(out), 'only CRLF line ends');
      assert.match(out, /\r\n {4}"extensions": \{\r\n {8}"net\.codewhale"/);
    });

    it('indents by two spaces where the file does not say', () => {
      const text = `{"$schema": "${SCHEMA}", "name": "w", "version": "1.0.0"}`;
      json(text);
      assert.equal(
        applied(text, fixOf()),
        `{\n  "$schema": "${SCHEMA}",\n  "name": "w",\n  "version": "1.0.0",\n  "extensions": {\n    "net.codewhale": {\n      "capabilities": {\n        "network_hosts": [\n          "h.example"\n        ]\n      }\n    }\n  }\n}`,
      );
    });

    it('replaces a list that is there', () => {
      const text = `{"$schema": "${SCHEMA}", "name": "w", "version": "1.0.0", "extensions": {"net.codewhale": {"capabilities": {"network_hosts": ["x.example"]}}}}`;
      json(text);
      const out = applied(text, fixOf());
      assert.deepEqual(JSON.parse(out).extensions['net.codewhale'].capabilities.network_hosts, ['h.example']);
      assert.ok(!out.includes('x.example'));
    });

    it('adds the key inside an `extensions` object written on one line of 20,000 keys (a fuzz input that hung the index)', () => {
      // Seed "skillgate-s42", input 2835: jsonc-parser's formatting of that one line for the
      // quick fix took 14 s of the index's time (src/core/documents/jsonEdit.ts).
      const keys: Record<string, number> = {};
      for (let i = 0; i < 20_000; i++) keys[`k${i}`] = i;
      const text = `{\n  "$schema": "${SCHEMA}",\n  "name": "w",\n  "version": "1.0.0",\n  "extensions": ${JSON.stringify(keys)}\n}\n`;
      json(text);
      const { result: fix, ms } = cpuTime(fixOf);
      assert.ok(ms < 3000, `took ${ms} ms of CPU`);
      const out = JSON.parse(applied(text, fix)) as { extensions: Record<string, unknown> };
      assert.deepEqual(out.extensions['net.codewhale'], { capabilities: { network_hosts: ['h.example'] } });
      assert.equal(Object.keys(out.extensions).length, 20_001);
    });

    it('writes the table in place of a `capabilities: null` (serde reads it as left out), and the index does not fail', () => {
      // Found by the serde-forms property test: jsonc-parser's edit threw under the null ("Can
      // not add index to parent of type null"), and the bundle became an internal error.
      const text = `{"$schema": "${SCHEMA}", "name": "w", "version": "1.0.0", "extensions": {"net.codewhale": {"capabilities": null}}}`;
      json(text);
      const out = JSON.parse(applied(text, fixOf())) as { extensions: Record<string, unknown> };
      assert.deepEqual(out.extensions['net.codewhale'], { capabilities: { network_hosts: ['h.example'] } });
    });

    it('offers no fix where `extensions` repeats "net.codewhale" (serde keeps the last; the edit would land in the first)', () => {
      // `extensions` is a map: serde_json keeps the last value of a repeated key (repeatedKeys.ts), and so
      // does the mismatch; jsonc-parser's `modify` follows the first, so the fix changed a value no one reads.
      for (const [first, last] of [
        ['{"capabilities": {"network_hosts": ["x.example"]}}', '{"capabilities": {"network_hosts": ["y.example"]}}'],
        ['{"capabilities": {"network_hosts": ["x.example"]}}', '{"display_name": "b"}'],
        ['{"display_name": "a"}', '{"display_name": "b"}'],
      ]) {
        const text = `{"$schema": "${SCHEMA}", "name": "w", "version": "1.0.0", "extensions": {"net.codewhale": ${first}, "net.code\\u0077hale": ${last}}}`;
        json(text);
        assert.equal(mismatch().fix, undefined, text);
      }
    });

    it('offers no fix, and the mismatch is still reported, where a struct on the way is written as an array', () => {
      // serde reads a struct from an array too (serdeSequence.ts); a key cannot be set in one, and
      // jsonc-parser's edit threw there ("Can not add index to parent of type array").
      for (const text of [
        `["${SCHEMA}","w","1.0.0",null,null,null,null,null,[],{"net.codewhale":{}}]`,
        `{"$schema":"${SCHEMA}","name":"w","extensions":{"net.codewhale":["D"]}}`,
        `{"$schema":"${SCHEMA}","name":"w","extensions":{"net.codewhale":{"capabilities":[["/f"]]}}}`,
      ]) {
        json(text);
        assert.equal(mismatch().fix, undefined, text);
      }
    });
  });
});
