import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { LineMap } from '../../src/core/text/lineMap';
import type { Diagnostic } from '../../src/core/model';
import { Fixture, index } from './helpers/fixture';
import { A0, EvaFixture } from './helpers/evaFixture';
import { EditorModel, applyFixAsEditor } from './helpers/editorApply';
import { fixIsCurrent } from '../../src/extension/problems/fixIsCurrent';

/**
 * Diagnostics land on the exact field as VS Code counts it, and each quick fix, applied as
 * the editor applies it (EditorModel: no BOM in the text, the file's own line ends), leaves
 * a file that parses and no longer has the diagnostic, its BOM, line ends and indentation kept.
 */

const BOM = '\uFEFF';

function only(diagnostics: readonly Diagnostic[], code: string): Diagnostic {
  const found = diagnostics.filter((d) => d.code === code);
  assert.equal(found.length, 1, diagnostics.map((d) => `${d.code}: ${d.message}`).join('\n'));
  return found[0] as Diagnostic;
}

describe('LineMap: positions as the editor counts them', () => {
  it('leaves a leading byte-order mark out of the first line, as VS Code leaves it out of its text', () => {
    const lines = new LineMap(`${BOM}name = "x"\nb = 1`);
    assert.deepEqual(lines.position(0), { line: 0, character: 0 });
    assert.deepEqual(lines.range(8, 3), { start: { line: 0, character: 7 }, end: { line: 0, character: 10 } });
    assert.deepEqual(lines.lineRange(0), { start: { line: 0, character: 0 }, end: { line: 0, character: 10 } });
    assert.deepEqual(lines.position(12), { line: 1, character: 0 });
    assert.deepEqual(lines.lineRange(1), { start: { line: 1, character: 0 }, end: { line: 1, character: 5 } });
    // Only the first character is a BOM: one later is text like any other.
    assert.deepEqual(new LineMap(`a${BOM}b`).position(2), { line: 0, character: 2 });
  });

  it('counts a leading U+FEFF as a character once the reader dropped the mark (a file starting with two)', () => {
    // Eva's reader drops the encoding's mark, as VS Code does: what leads the rest is the
    // file's second U+FEFF, which the editor shows.
    const lines = new LineMap(`${BOM}enabled: yes\n id: x`, true);
    assert.deepEqual(lines.range(10, 3), { start: { line: 0, character: 10 }, end: { line: 0, character: 13 } });
    assert.deepEqual(lines.lineRange(0), { start: { line: 0, character: 0 }, end: { line: 0, character: 13 } });
    assert.deepEqual(lines.position(15), { line: 1, character: 1 });
    assert.deepEqual(new LineMap('a: 1', true).range(3, 1), {
      start: { line: 0, character: 3 },
      end: { line: 0, character: 4 },
    });
  });

  it('breaks lines at \\n, \\r\\n and a lone \\r only, counting UTF-16 units', () => {
    const lines = new LineMap('a\r\nb\rc\u2028d\u2029e\u0085f😀g');
    assert.deepEqual(lines.position(5), { line: 2, character: 0 });
    assert.deepEqual(lines.position(13), { line: 2, character: 8 });
  });
});

describe('diagnostic places and quick fixes, applied as the editor applies them', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  it('points at a plugin.toml field on the first line of a file with a BOM, and its fix renames it there', () => {
    const file = f.write(
      'ws/.codewhale/plugins/p/plugin.toml',
      `${BOM}plugin.name = "Bad Name"\nschema_version = 1\nplugin.version = "1.0.0"\n`,
    );
    const d = only(index([f.path('ws')]).diagnostics, 'codewhale.manifest.name');
    assert.equal(EditorModel.read(file).slice(d.range), '"Bad Name"');
    applyFixAsEditor(d);
    assert.equal(
      fs.readFileSync(file, 'utf8'),
      `${BOM}plugin.name = "bad-name"\nschema_version = 1\nplugin.version = "1.0.0"\n`,
    );
    assert.deepEqual(index([f.path('ws')]).diagnostics, []);
  });

  it('sets a written `schema_version = 0` to 1 in place rather than adding a second key', () => {
    const file = f.write(
      'ws/.codewhale/plugins/p/plugin.toml',
      'schema_version = 0\r\n[plugin]\r\nname = "p"\r\nversion = "1.0.0"\r\n',
    );
    applyFixAsEditor(only(index([f.path('ws')]).diagnostics, 'codewhale.manifest-legacy'));
    assert.equal(
      fs.readFileSync(file, 'utf8'),
      'schema_version = 1\r\n[plugin]\r\nname = "p"\r\nversion = "1.0.0"\r\n',
    );
    assert.deepEqual(index([f.path('ws')]).diagnostics, []);
  });

  it('adds network_hosts to a tab-indented CRLF plugin.json in tabs and CRLF', () => {
    const dir = 'ws/.codewhale/plugins/weather';
    const manifest = f.write(
      `${dir}/plugin.json`,
      JSON.stringify({ $schema: 's', name: 'weather', version: '1.0.0' }, null, '\t').replace(/\n/g, '\r\n') + '\r\n',
    );
    f.write(`${dir}/mcp.json`, JSON.stringify({ mcpServers: { w: { url: 'https://api.weather.example/mcp' } } }));
    applyFixAsEditor(only(index([f.path('ws')]).diagnostics, 'codewhale.capabilities.network-hosts-mismatch'));
    const out = fs.readFileSync(manifest, 'utf8');
    assert.deepEqual(JSON.parse(out).extensions, {
      'net.codewhale': { capabilities: { network_hosts: ['api.weather.example'] } },
    });
    assert.ok(!/[^\r]\n/.test(out), 'only CRLF line ends');
    assert.deepEqual(
      out.split('\r\n').filter((l) => /^\s/.test(l) && !l.startsWith('\t')),
      [],
      'every indented line indented with tabs',
    );
    assert.deepEqual(index([f.path('ws')]).diagnostics, []);
  });

  it('points a literal env value at the last of a repeated env name (the one serde keeps), and its fix replaces that one', () => {
    const dir = 'ws/.codewhale/plugins/w';
    f.write(`${dir}/plugin.json`, JSON.stringify({ $schema: 's', name: 'w', version: '1.0.0' }));
    const mcp = f.write(
      `${dir}/mcp.json`,
      '{"mcpServers": {"w": {"command": "node", "env": {\n  "TOKEN": "${TOKEN}",\n  "TOKEN": "literal"\n}}}}\n',
    );
    const d = only(index([f.path('ws')]).diagnostics, 'codewhale.mcp.env-value');
    assert.equal(EditorModel.read(mcp).slice(d.range), '"literal"');
    applyFixAsEditor(d);
    assert.deepEqual(JSON.parse(fs.readFileSync(mcp, 'utf8')).mcpServers.w.env, { TOKEN: '${TOKEN}' });
    assert.deepEqual(index([f.path('ws')]).diagnostics, []);
  });

  it('places a refusal inside a replaced value of a repeated key in that value, not in the one that replaced it', () => {
    const dir = 'ws/.codewhale/plugins/w';
    f.write(`${dir}/plugin.json`, JSON.stringify({ $schema: 's', name: 'w', version: '1.0.0' }));
    const mcp = f.write(
      `${dir}/mcp.json`,
      '{"mcpServers": {"s": {"command": "x", "command": "y", "env": {"A": 1}},\n "s": {"command": "z"}}}',
    );
    const d = only(index([f.path('ws')]).diagnostics, 'codewhale.mcp-json.parse');
    assert.deepEqual(d.range, { start: { line: 0, character: 38 }, end: { line: 0, character: 47 } });
    assert.equal(EditorModel.read(mcp).slice(d.range), '"command"');
    fs.writeFileSync(mcp, '{"mcpServers": {"s": {"command": "x", "env": {"A": 1,\n "A": "${C}"}}}}');
    const e = only(index([f.path('ws')]).diagnostics, 'codewhale.mcp-json.parse');
    assert.deepEqual(e.range, { start: { line: 0, character: 51 }, end: { line: 0, character: 52 } });
  });

  it("points a Rivumi finding at the last of a repeated key, the value Python's json keeps", () => {
    f.write('ws/.rivumi/plugins/a.md', 'body');
    const manifest = f.write('ws/.rivumi/plugins/pk.json', '{"skills": [{"path": "a.md"}],\n "skills": 5}\n');
    const d = only(index([f.path('ws')]).diagnostics, 'rivumi.plugin.invalid');
    assert.equal(EditorModel.read(manifest).slice(d.range), '5');
  });
});

describe('Eva quick fixes, applied as the editor applies them', () => {
  let f: EvaFixture;
  beforeEach(() => (f = new EvaFixture().p0()));
  afterEach(() => f.remove());

  for (const header of ['|', '|-', '>-']) {
    it(`writes the boolean over a block scalar (${header}) and keeps the line break after it`, () => {
      const file = f.adapter(A0.replace('enabled: true', `enabled: ${header}\n  yes`));
      applyFixAsEditor(f.index().diagnostics('eva.schema.type')[0]);
      assert.equal(fs.readFileSync(file, 'utf8'), A0);
    });
  }

  it('offers no schema stub when the skill mapping is an alias (its entries live at the anchor)', () => {
    const skill = /skill:\n(  .*\n)+/.exec(A0)?.[0] ?? '';
    const body = skill.replace(/^skill:\n/, '').replace(/ {2}output_schema:.*\n/, '');
    f.adapter(`${A0.replace(skill, '')}x_base: &s\n${body}skill: *s\n`);
    const d = f.index().diagnostics('eva.skill.schema-missing')[0];
    assert.ok(d, 'the missing schema is reported');
    assert.equal(d.fix, undefined);
  });

  it('adds the schema stub to a file that starts with two BOMs, at the indentation libyaml reads there', () => {
    // libyaml skips the second U+FEFF as one column: every later line is indented one space,
    // and the skill's entries three. VS Code keeps the second one in its text.
    const shifted = A0.replace(/ {2}output_schema:.*\n/, '')
      .split('\n')
      .map((l, i) => (i === 0 || l === '' ? l : ` ${l}`))
      .join('\n');
    const file = f.adapter(`${BOM}${BOM}${shifted}`);
    const d = f.index().diagnostics('eva.skill.schema-missing')[0];
    assert.ok(d?.fix && fixIsCurrent(d.fix, (x) => EditorModel.read(x).text), 'the editor offers the fix');
    applyFixAsEditor(d);
    const out = fs.readFileSync(file, 'utf8');
    assert.ok(out.startsWith(`${BOM}${BOM}id: review-skill\n`), JSON.stringify(out.slice(0, 20)));
    assert.match(out, /\n {3}input_schema: .*\n {3}output_schema: \{type: object\}\n capabilities:/);
    assert.equal(f.index().item('adapters/review.yaml').detail.eva.evaDecision, 'registered');
  });

  it('adds the schema stub to a CRLF file with a BOM in CRLF, the BOM kept', () => {
    const file = f.adapter(`${BOM}${A0.replace(/ {2}output_schema:.*\n/, '').replace(/\n/g, '\r\n')}`);
    applyFixAsEditor(f.index().diagnostics('eva.skill.schema-missing')[0]);
    const out = fs.readFileSync(file, 'utf8');
    assert.ok(out.startsWith(BOM));
    assert.ok(!/[^\r]\n/.test(out), 'only CRLF line ends');
    assert.match(out, /\r\n {2}output_schema: \{type: object\}\r\n/);
    assert.equal(f.index().item('adapters/review.yaml').detail.eva.evaDecision, 'registered');
  });
});

describe('Rivumi skill front matter: the line a finding points at is the editor line', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const finding = (text: string): { line: string; code: string } => {
    const file = f.write('ws/.rivumi/skills/a.md', text);
    const [d, ...rest] = index([f.path('ws')]).diagnostics;
    assert.ok(d && rest.length === 0);
    return { line: EditorModel.read(file).lines()[d.range.start.line] ?? '', code: d.code };
  };

  it("places a line Python's splitlines cuts at U+2028 on the editor line that holds it", () => {
    assert.deepEqual(finding('---\ndescription: a\u2028b\nname: ok\n---\nbody\n'), {
      line: 'description: a\u2028b',
      code: 'rivumi.skill.frontmatter',
    });
    assert.deepEqual(finding('---\ndescription: d\u2028name: Bad!\n---\nbody\n'), {
      line: 'description: d\u2028name: Bad!',
      code: 'rivumi.skill.name',
    });
  });

  it('finds an indented key, as the parser reads it (each line stripped)', () => {
    assert.deepEqual(finding('---\ndescription: d\n  name: Bad!\n---\nbody\n'), {
      line: '  name: Bad!',
      code: 'rivumi.skill.name',
    });
    assert.deepEqual(finding(`---\nname: ok\n description: ${'x'.repeat(401)}\n---\nbody\n`), {
      line: ` description: ${'x'.repeat(401)}`,
      code: 'rivumi.skill.description-length',
    });
  });
});
