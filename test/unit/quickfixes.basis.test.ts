import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { Fixture, index, writeW } from './helpers/fixture';
import { A0, writeEvaProject } from './helpers/evaFixture';
import { EditorModel, applyFixAsEditor } from './helpers/editorApply';
import { editorTextBasis, lineMapTextBasis } from '../../src/core/text/editorTextBasis';
import { fixIsCurrent } from '../../src/extension/problems/fixIsCurrent';
import type { Diagnostic, Fix, Range } from '../../src/core/model';

/**
 * A quick fix is offered only on the text it was computed on: each edit carries the basis
 * (a fingerprint) of its file's text as the editor holds it, and the editor's provider
 * compares it with the text it would edit (quickFixes.ts). After a save or another tool's
 * write, the snapshot's ranges stay until the index lands again; a line added above would
 * make the stale edit replace other text.
 */
describe('quick fixes are bound to the text they were computed on', () => {
  describe('the basis of a text as the editor holds it', () => {
    const lf = 'a = 1\nb = "x"\n\nc = [1, 2]\n';

    it('is the same for a file saved with CRLF, lone CR, mixed line ends or a byte-order mark', () => {
      const editor = editorTextBasis(lf);
      for (const disk of [
        lf.replace(/\n/g, '\r\n'),
        lf.replace(/\n/g, '\r'),
        'a = 1\r\nb = "x"\n\rc = [1, 2]\r\n',
        `\uFEFF${lf}`,
        `\uFEFF${lf.replace(/\n/g, '\r\n')}`,
      ]) {
        assert.equal(lineMapTextBasis(disk), editor, JSON.stringify(disk));
        // And as VS Code opens that file: its text model, whatever line end it chose.
        assert.equal(editorTextBasis(new EditorModel(Buffer.from(disk)).text), editor, JSON.stringify(disk));
      }
    });

    it('differs for a changed character, an added line or a line break moved', () => {
      const editor = editorTextBasis(lf);
      for (const other of [lf.replace('x', 'y'), `# added\n${lf}`, lf.replace('\n\n', '\n'), lf.slice(0, -1)])
        assert.notEqual(lineMapTextBasis(other), editor, JSON.stringify(other));
      // The code units the ranges count, not their UTF-8 (which writes each lone surrogate as U+FFFD).
      assert.notEqual(editorTextBasis('a\uD800'), editorTextBasis('a\uDC00'));
      assert.notEqual(editorTextBasis('a\uD800'), editorTextBasis('a\uFFFD'));
    });

    it('keeps a second leading U+FEFF and the characters VS Code does not break lines at', () => {
      // Only the first U+FEFF is the encoding's mark; the editor shows the second as a character.
      assert.equal(lineMapTextBasis(`\uFEFF\uFEFF${lf}`), editorTextBasis(`\uFEFF${lf}`));
      assert.notEqual(lineMapTextBasis(`\uFEFF\uFEFF${lf}`), editorTextBasis(lf));
      for (const c of ['\u2028', '\u2029', '\u0085'])
        assert.notEqual(editorTextBasis(`a${c}b`), editorTextBasis('a\nb'), JSON.stringify(c));
    });
  });

  describe('every fix the core computes carries the basis of its file as the editor opens it', () => {
    let f: Fixture;
    beforeEach(() => (f = new Fixture()));
    afterEach(() => f.remove());

    const plugins = 'ws/.codewhale/plugins';
    /** One file of each fix's kind, in TOML, JSON and YAML, written through `spell` (line ends, BOM). */
    const writeFixable = (spell: (text: string) => string) => {
      const write = (rel: string, text: string) => f.write(rel, spell(text));
      writeW(f, '[mcp_servers.local]\ncommand = "node"\nenv = { TOKEN = "literal-secret" }\n', `${plugins}/env`);
      write(`${plugins}/env/plugin.toml`, fs.readFileSync(f.path(`${plugins}/env/plugin.toml`), 'utf8'));
      write(
        `${plugins}/hosts/plugin.toml`,
        'schema_version = 1\n[plugin]\nname = "hosts"\nversion = "1.0.0"\nkeywords = ["a", "b",\n  "A", "c"]\n[capabilities]\nnetwork_hosts = ["other.invalid"]\n[mcp_servers.remote]\nurl = "https://example.invalid/mcp"\n',
      );
      write(`${plugins}/legacy/plugin.toml`, '[plugin]\nname = "legacy"\nversion = "1.0.0"\n');
      write(`${plugins}/zero/plugin.toml`, 'schema_version = 0\n[plugin]\nname = "Zero_Tools"\nversion = "1.0.0"\n');
      write(
        `${plugins}/weather/plugin.json`,
        `${JSON.stringify({ $schema: 's', name: 'weather', version: '1.0.0', keywords: ['x', 'y', 'x'] }, null, 2)}\n`,
      );
      write(`${plugins}/named/plugin.json`, JSON.stringify({ $schema: 's', name: 'Bad..Name', version: '1.0.0' }));
      write(
        `${plugins}/weather/mcp.json`,
        `${JSON.stringify({ mcpServers: { weather: { url: 'https://api.weather.example/mcp' } } }, null, 2)}\n`,
      );
      writeEvaProject(f, 'ws', spell(A0.replace('enabled: true', 'enabled: yes')));
      write(
        'ws/config/adapters/stub.yaml',
        A0.replace('id: review-skill', 'id: stub-skill').replace(/  output_schema:.*\n/, ''),
      );
    };
    const fixed = (): Diagnostic[] => index([f.path('ws')]).diagnostics.filter((d) => d.fix);
    const assertBound = (d: Diagnostic) => {
      for (const e of (d.fix as Fix).edits)
        assert.equal(e.basis, editorTextBasis(EditorModel.read(e.file).text), `${d.code} in ${e.file}`);
    };
    const EVERY_FIX = [
      'codewhale.capabilities.network-hosts-mismatch',
      'codewhale.manifest-legacy',
      'codewhale.manifest.list',
      'codewhale.manifest.name',
      'codewhale.mcp.env-value',
      'eva.schema.type',
      'eva.skill.schema-missing',
    ];

    for (const [spelling, spell] of [
      ['LF', (t: string) => t],
      ['CRLF', (t: string) => t.replace(/\n/g, '\r\n')],
      ['a byte-order mark and CRLF', (t: string) => `\uFEFF${t.replace(/\n/g, '\r\n')}`],
      // VS Code writes mixed line ends as the dominant one on opening: the places stay.
      ['mixed line ends', (t: string) => t.replace(/\n/g, (_, i: number) => (i % 3 === 0 ? '\r\n' : '\n'))],
    ] as const) {
      it(`in files written with ${spelling}`, () => {
        writeFixable(spell);
        const found = fixed();
        // Every kind of fix, in every spelling: none is left out of the check.
        assert.deepEqual([...new Set(found.map((d) => d.code))].sort(), EVERY_FIX);
        for (const d of found) assertBound(d);
      });
    }

    it('in Eva adapters written with lone CRs (libyaml breaks lines there, and VS Code)', () => {
      const cr = (t: string) => t.replace(/\n/g, '\r');
      writeEvaProject(f, 'ws', cr(A0.replace('enabled: true', 'enabled: yes')));
      f.write(
        'ws/config/adapters/stub.yaml',
        cr(A0.replace('id: review-skill', 'id: stub-skill').replace(/  output_schema:.*\n/, '')),
      );
      const found = fixed();
      assert.deepEqual([...new Set(found.map((d) => d.code))].sort(), ['eva.schema.type', 'eva.skill.schema-missing']);
      for (const d of found) assertBound(d);
    });

    it('in Eva adapters that start with two byte-order marks (the editor keeps the second)', () => {
      // libyaml skips the second U+FEFF as one column of indentation: every later line one space in.
      const twoBoms = (t: string) =>
        `\uFEFF\uFEFF${t
          .split('\n')
          .map((l, i) => (i === 0 || l === '' ? l : ` ${l}`))
          .join('\n')}`;
      writeEvaProject(f, 'ws', twoBoms(A0.replace('enabled: true', 'enabled: yes')));
      f.write(
        'ws/config/adapters/stub.yaml',
        twoBoms(A0.replace('id: review-skill', 'id: stub-skill').replace(/  output_schema:.*\n/, '')),
      );
      const found = fixed();
      assert.deepEqual([...new Set(found.map((d) => d.code))].sort(), ['eva.schema.type', 'eva.skill.schema-missing']);
      for (const d of found) assertBound(d);
    });

    it('in a plugin.json that the network_hosts fix edits from a diagnostic in mcp.json', () => {
      writeFixable((t) => t);
      const d = fixed().find(
        (x) => x.code === 'codewhale.capabilities.network-hosts-mismatch' && x.file.endsWith('mcp.json'),
      );
      assert.ok(d?.fix);
      assert.ok(d.fix.edits.every((e) => e.file.endsWith('plugin.json')));
      assertBound(d);
    });
  });

  describe('the provider offers a fix only while the text it would edit has its basis', () => {
    let f: Fixture;
    beforeEach(() => (f = new Fixture()));
    afterEach(() => f.remove());

    /** The env-value fix of a bundle, and its file. */
    const envFix = (): { fix: Fix; file: string } => {
      const dir = writeW(f, '[mcp_servers.local]\ncommand = "node"\nenv = { TOKEN = "literal-secret" }\n');
      const d = index([f.path('ws')]).diagnostics.find((x) => x.code === 'codewhale.mcp.env-value');
      assert.ok(d?.fix);
      return { fix: d.fix, file: `${dir}/plugin.toml` };
    };
    const editorText = (file: string) => EditorModel.read(file).text;

    it('offers the fix on the text it was computed on, as the editor holds it', () => {
      const { fix, file } = envFix();
      assert.equal(
        fixIsCurrent(fix, (x) => (x === file ? editorText(x) : undefined)),
        true,
      );
    });

    it('offers the fix on the same text with CRLF line ends (an editor set to CRLF, or a checkout that wrote them)', () => {
      const { fix, file } = envFix();
      const text = fs.readFileSync(file, 'utf8');
      assert.ok(!text.includes('\r'));
      assert.equal(
        fixIsCurrent(fix, () => text.replace(/\n/g, '\r\n')),
        true,
      );
    });

    it('offers no fix on stale text: a line added above (saved or not) would make it replace other text', () => {
      const { fix, file } = envFix();
      const text = fs.readFileSync(file, 'utf8');
      // The file as a checkout or another tool rewrote it, before the index lands again.
      fs.writeFileSync(file, `# a line above\n${text}`);
      assert.equal(
        fixIsCurrent(fix, (x) => editorText(x)),
        false,
      );
      assert.equal(
        fixIsCurrent(fix, () => text.replace('node', 'deno')),
        false,
        'a changed character',
      );
    });

    it('offers no fix when the text of a file it edits is unknown, or an edit has no basis', () => {
      const { fix, file } = envFix();
      assert.equal(
        fixIsCurrent(fix, () => undefined),
        false,
      );
      const unbound = { ...fix, edits: fix.edits.map(({ basis: _basis, ...e }) => e) } as unknown as Fix;
      assert.equal(
        fixIsCurrent(unbound, () => editorText(file)),
        false,
      );
      assert.equal(
        fixIsCurrent(unbound, () => undefined),
        false,
        'an edit without a basis on a file whose text is unknown',
      );
      assert.equal(
        fixIsCurrent({ ...fix, edits: [] }, () => editorText(file)),
        false,
        'a fix of no edit',
      );
    });

    it("reads each file's text from the editor once, however many of the fix's edits name it", () => {
      const { fix, file } = envFix();
      const edit = fix.edits[0];
      assert.ok(edit);
      const asked: string[] = [];
      const text = (x: string) => (asked.push(x), editorText(x));
      assert.equal(fixIsCurrent({ ...fix, edits: [edit, edit, edit] }, text), true);
      assert.deepEqual(asked, [file]);
    });

    it("offers the Eva fix on a file with a second leading U+FEFF, where its ranges name the editor's characters", () => {
      // Eva's reader drops the encoding's mark, as VS Code does; the second U+FEFF is a character
      // of the text in both (libyaml skips it as one column of indentation, so every later line
      // is indented one space). The line map once hid it too: `yes` at 9..12 where the editor
      // has it at 10..13, the diagnostic on `\ufeffenable`, and the edit would write `enabled:trues`.
      const text = A0.replace('enabled: true\n', '')
        .replace('id: review-skill', 'enabled: yes\nid: review-skill')
        .split('\n')
        .map((l, i) => (i === 0 || l === '' ? l : ` ${l}`))
        .join('\n');
      writeEvaProject(f, 'ws', '');
      const file = f.write('ws/config/adapters/review.yaml', Buffer.from(`\uFEFF\uFEFF${text}`));
      const d = index([f.path('ws')]).diagnostics.find((x) => x.code === 'eva.schema.type');
      assert.ok(d?.fix, 'the boolean fix is computed');
      const editor = EditorModel.read(file);
      assert.equal(editor.slice(d.range), 'enabled');
      assert.equal(editor.slice(d.fix.edits[0]?.range as Range), 'yes');
      assert.equal(
        fixIsCurrent(d.fix, (x) => editorText(x)),
        true,
      );
      applyFixAsEditor(d);
      assert.equal(fs.readFileSync(file, 'utf8'), `\uFEFF\uFEFF${text.replace('enabled: yes', 'enabled: true')}`);
      const after = index([f.path('ws')]);
      assert.deepEqual(
        after.diagnostics.filter((x) => x.file === file).map((x) => x.code),
        [],
      );
      assert.equal(after.items.find((i) => i.path === file)?.decision, 'registered');
    });

    it('a fix offered on the current text applies as the editor applies it and the file validates', () => {
      const { fix, file } = envFix();
      assert.ok(fixIsCurrent(fix, editorText));
      applyFixAsEditor({ fix } as Diagnostic);
      assert.match(fs.readFileSync(file, 'utf8'), /TOKEN = "\$\{TOKEN\}"/);
      assert.equal(
        index([f.path('ws')]).diagnostics.some((x) => x.code === 'codewhale.mcp.env-value'),
        false,
      );
    });
  });
});
