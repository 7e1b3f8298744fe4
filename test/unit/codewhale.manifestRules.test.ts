import { strict as assert } from 'node:assert';
import { Findings } from '../../src/core/diagnostics/findings';
import { readPluginToml } from '../../src/core/systems/codewhale/formats/pluginToml';
import { readKimiJson } from '../../src/core/systems/codewhale/formats/kimiJson';
import { validateManifest, type ValidatedManifest } from '../../src/core/systems/codewhale/validateManifest';
import { Fixture } from './helpers/fixture';
import { editorTextBasis } from '../../src/core/text/editorTextBasis';

/**
 * The metadata, list, host, `[when]`, component and server-count rules of codewhale.md
 * §4.3-§4.5, applied to a manifest read from plugin.toml: one negative test per rule,
 * each limit on both sides of its boundary.
 */
describe('Codewhale manifest rules (codewhale.md §4.3-§4.5)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const HEAD = 'schema_version = 1\n[plugin]\nname = "p"\nversion = "1.0.0"\n';
  /** Validates `source` as the plugin.toml of bundle `b`; `plugin` adds lines to the [plugin] table. */
  const validate = (source: string): { findings: Findings; result: ValidatedManifest } => {
    const file = f.write('b/plugin.toml', source);
    const findings = new Findings();
    const m = readPluginToml(file, source, findings);
    assert.ok(m, findings.diagnostics.map((d) => d.message).join(' | '));
    return { findings, result: validateManifest(f.path('b'), m, findings) };
  };
  const plugin = (lines: string, rest = '') => validate(`${HEAD}${lines}\n${rest}`);
  const messages = (findings: Findings) => findings.diagnostics.map((d) => d.message);
  const errors = (findings: Findings) =>
    findings.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
  const list = (n: number, make: (i: number) => string) =>
    `[${Array.from({ length: n }, (_, i) => JSON.stringify(make(i))).join(', ')}]`;

  describe('legacy manifests (§4.3)', () => {
    it('warns about a missing schema_version, with a fix that adds it at the top', () => {
      const source = '[plugin]\nname = "p"\nversion = "1.0.0"\n';
      const { findings } = validate(source);
      assert.deepEqual(findings.diagnostics[0]?.fix, {
        title: 'Add schema_version = 1',
        edits: [
          {
            file: f.path('b/plugin.toml'),
            range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
            newText: 'schema_version = 1\n\n',
            // Bound to the text it was computed on: offered only while the editor holds that text.
            basis: editorTextBasis(source),
          },
        ],
      });
    });

    it('keeps a blank version as 0.0.0, with no schema_version fix (schema 1 would refuse the blank version)', () => {
      const { findings, result } = validate('[plugin]\nname = "p"\nversion = "  "\n');
      assert.deepEqual(
        findings.diagnostics.map((d) => [d.code, d.severity, d.message]),
        [
          ['codewhale.manifest-legacy', 'warning', 'legacy manifest: add `schema_version = 1`'],
          [
            'codewhale.manifest-legacy',
            'warning',
            'legacy manifest: add a semantic `[plugin].version`; displaying `0.0.0`',
          ],
        ],
      );
      assert.deepEqual(
        findings.diagnostics.map((d) => d.fix),
        [undefined, undefined],
      );
      assert.deepEqual(findings.diagnostics[1]?.range.start, { line: 0, character: 0 }, 'at the [plugin] table');
      assert.equal(result.version, '0.0.0');
    });

    it('checks a legacy manifest version that is not blank as SemVer, and warns only about the schema', () => {
      const ok = validate('schema_version = 0\n[plugin]\nname = "p"\nversion = "2.0.0"\n');
      assert.deepEqual(messages(ok.findings), ['legacy manifest: add `schema_version = 1`']);
      assert.equal(ok.result.version, '2.0.0');
      const bad = validate('[plugin]\nname = "p"\nversion = "latest"\n');
      assert.deepEqual(messages(bad.findings), [
        'legacy manifest: add `schema_version = 1`',
        "plugin version `latest` is not valid semantic versioning: unexpected character 'l' while parsing major version number",
      ]);
    });

    it('gives no legacy warning for schema_version 1, and fails its blank version', () => {
      const { findings, result } = validate('schema_version = 1\n[plugin]\nname = "p"\n');
      assert.deepEqual(messages(findings), [
        'plugin version `` is not valid semantic versioning: empty string, expected a semver version',
      ]);
      assert.equal(result.version, '');
    });

    it('gives no legacy warning to a Kimi manifest, whose schema is 1 by definition', () => {
      const findings = new Findings();
      const file = f.write('k/kimi.plugin.json', '{"name": "k"}');
      const m = readKimiJson(file, '{"name": "k"}', f.path('k'), findings);
      assert.ok(m);
      const result = validateManifest(f.path('k'), m, findings);
      assert.deepEqual(findings.diagnostics, []);
      assert.equal(result.version, '0.0.0');
    });
  });

  describe('metadata (§4.4)', () => {
    it('refuses schema_version 2 at that value, and takes 1', () => {
      const { findings } = validate('schema_version = 2\n[plugin]\nname = "p"\nversion = "1.0.0"\n');
      assert.deepEqual(
        findings.diagnostics.map((d) => [d.code, d.message, d.range.start]),
        [
          [
            'codewhale.manifest.schema-version',
            'unsupported schema_version 2; maximum is 1',
            { line: 0, character: 17 },
          ],
        ],
      );
    });

    it('refuses a bad name with a fix that renames it to the closest valid slug', () => {
      const { findings } = validate('schema_version = 1\n[plugin]\nname = "My_Plugin"\nversion = "1.0.0"\n');
      assert.deepEqual(errors(findings), [
        'plugin name `My_Plugin` must be 1-64 lowercase ASCII letters, digits, or internal hyphens',
      ]);
      assert.equal(findings.diagnostics[0]?.code, 'codewhale.manifest.name');
      assert.equal(findings.diagnostics[0]?.fix?.title, 'Rename the plugin to `my-plugin`');
      assert.deepEqual(
        findings.diagnostics[0]?.fix?.edits.map((e) => [e.newText, e.range.start]),
        [['"my-plugin"', { line: 2, character: 7 }]],
      );
    });

    const texts: [string, string, number][] = [
      ['description', 'description', 1024],
      ['author', 'author', 256],
      ['display_name', 'display name', 128],
      ['homepage', 'homepage', 2048],
      ['repository', 'repository', 2048],
      ['license', 'license', 128],
    ];
    for (const [key, label, max] of texts) {
      it(`takes a ${label} of ${max} characters, refuses ${max + 1}, a blank one and a control character`, () => {
        assert.deepEqual(messages(plugin(`${key} = "${'x'.repeat(max)}"`).findings), []);
        const over = plugin(`${key} = "${'x'.repeat(max + 1)}"`);
        assert.deepEqual(messages(over.findings), [`${label} must contain 1-${max} non-whitespace characters`]);
        assert.equal(over.findings.diagnostics[0]?.code, 'codewhale.manifest.text');
        assert.equal(over.findings.diagnostics[0]?.range.start.line, 4, 'at the field');
        assert.deepEqual(messages(plugin(`${key} = " "`).findings), [
          `${label} must contain 1-${max} non-whitespace characters`,
        ]);
        assert.deepEqual(messages(plugin(`${key} = "a\\u0007b"`).findings), [
          `${label} may not contain control characters`,
        ]);
      });
    }

    it('refuses an icon that is no inline PNG, at the icon', () => {
      const { findings } = plugin('icon = "data:image/gif;base64,AAAA"');
      assert.deepEqual(
        findings.diagnostics.map((d) => [d.code, d.message, d.range.start.line]),
        [['codewhale.manifest.icon', 'plugin icon must be an inline PNG', 4]],
      );
    });

    for (const [key, field, max, table] of [
      ['keywords', 'keyword', 128, 'plugin'],
      ['filesystem_roots', 'filesystem root', 512, 'capabilities'],
    ] as const) {
      const at = (values: string) =>
        table === 'plugin' ? plugin(`${key} = ${values}`) : plugin('', `[capabilities]\n${key} = ${values}\n`);
      it(`takes 64 ${field} values and refuses 65, at the 65th`, () => {
        assert.deepEqual(messages(at(list(64, (i) => `v${i}`)).findings), []);
        const over = at(list(65, (i) => `v${i}`));
        assert.deepEqual(messages(over.findings), [`too many ${field} values; maximum is 64`]);
        assert.equal(over.findings.diagnostics[0]?.code, 'codewhale.manifest.list');
        const line = over.findings.document(f.path('b/plugin.toml'))?.text.split('\n')[
          over.findings.diagnostics[0]?.range.start.line ?? 0
        ];
        const col = over.findings.diagnostics[0]?.range.start.character ?? 0;
        assert.equal(line?.slice(col, col + 5), '"v64"');
      });
      it(`takes a ${field} of ${max} characters and refuses ${max + 1} or a blank one`, () => {
        assert.deepEqual(messages(at(list(1, () => 'x'.repeat(max))).findings), []);
        assert.deepEqual(messages(at(list(1, () => 'x'.repeat(max + 1))).findings), [
          `${field} must contain 1-${max} non-whitespace characters`,
        ]);
        assert.deepEqual(messages(at('[""]').findings), [`${field} must contain 1-${max} non-whitespace characters`]);
      });
      it(`refuses a repeated ${field} by ASCII case, with a fix that removes the repeat`, () => {
        const { findings } = at('["Ab", "c", "aB"]');
        assert.deepEqual(messages(findings), [`duplicate ${field} value \`aB\``]);
        const fix = findings.diagnostics[0]?.fix;
        assert.equal(fix?.title, 'Remove the repeated value `aB`');
        assert.deepEqual(
          fix?.edits.map((e) => e.newText),
          [''],
        );
        const text = findings.document(f.path('b/plugin.toml'))?.text ?? '';
        const lines = text.split('\n');
        const r = fix?.edits[0]?.range;
        assert.ok(r);
        assert.equal(r.start.line, r.end.line);
        assert.equal(lines[r.start.line]?.slice(r.start.character, r.end.character), ', "aB"');
        assert.deepEqual(messages(at('["\u00c9", "\u00e9"]').findings), [], 'only ASCII letters fold');
      });
    }
  });

  describe('network_hosts (§4.4 step 7)', () => {
    const remote = (hosts: string, url = 'https://api.example.com/mcp') =>
      plugin('', `[capabilities]\nnetwork_hosts = ${hosts}\n[mcp_servers.r]\nurl = ${JSON.stringify(url)}\n`);

    it('takes declared hosts equal to the endpoint hosts, by normalized value, whatever the ports and paths', () => {
      const ok = remote('["API.example.com:443"]', 'https://api.EXAMPLE.com:8443/any/path');
      assert.deepEqual(messages(ok.findings), []);
      // The inventory takes declared hosts as written, ASCII-lowercased (§6.1), beside the endpoint hosts.
      assert.deepEqual(ok.result.networkHosts, ['api.example.com', 'api.example.com:443']);
    });

    it('inventories the declared hosts ASCII-lowercased with the endpoint hosts, sorted and deduplicated', () => {
      const { result } = plugin(
        '',
        '[capabilities]\nnetwork_hosts = ["b.example", "A.example"]\n[mcp_servers.r]\nurl = "https://a.example/"\n[mcp_servers.s]\nurl = "https://B.example/"\n',
      );
      assert.deepEqual(result.networkHosts, ['a.example', 'b.example']);
    });

    it('refuses a declared host set of the right size that names another host', () => {
      const { findings } = remote('["other.example"]');
      assert.deepEqual(
        findings.diagnostics
          .find((d) => d.code === 'codewhale.capabilities.network-hosts-mismatch')
          ?.related?.map((r) => r.message),
        [
          'Missing host `api.example.com`: MCP server `r` connects to it, so network_hosts must list it.',
          'Extra host `other.example`: no remote MCP server connects to it, so network_hosts must not list it.',
        ],
      );
    });

    it('refuses a declared host with no remote server, and names it as extra', () => {
      const { findings } = plugin('', '[capabilities]\nnetwork_hosts = ["x.example"]\n');
      assert.deepEqual(errors(findings), [
        'capabilities.network_hosts must exactly match the normalized host set of all remote MCP endpoints',
      ]);
      const d = findings.diagnostics[0];
      assert.equal(d?.code, 'codewhale.capabilities.network-hosts-mismatch');
      assert.deepEqual(
        d?.related?.map((r) => r.message),
        ['Extra host `x.example`: no remote MCP server connects to it, so network_hosts must not list it.'],
      );
      assert.equal(d?.range.start.line, 6, 'at the first declared host');
    });

    it('refuses an endpoint host that is not declared, names each missing host once, at the URL when nothing is declared', () => {
      const { findings } = plugin(
        '',
        '[mcp_servers.a]\nurl = "https://m.example/1"\n[mcp_servers.b]\nurl = "https://m.example/2"\n',
      );
      const d = findings.diagnostics.find((x) => x.code === 'codewhale.capabilities.network-hosts-mismatch');
      assert.ok(d);
      assert.deepEqual(
        d.related?.map((r) => r.message),
        ['Missing host `m.example`: MCP server `a` connects to it, so network_hosts must list it.'],
      );
      assert.equal(d.range.start.line, 6, 'at the first URL');
      assert.ok(d.fix, 'with a fix that writes the host set');
    });

    it('refuses a declared host that is no host name, and compares no sets when an MCP URL does not parse', () => {
      const { findings } = remote('["https://api.example.com"]');
      assert.deepEqual(
        findings.diagnostics.filter((d) => d.code === 'codewhale.capabilities.network-host').map((d) => d.message),
        ['network host `https://api.example.com` must be a host name, not a URL or path'],
      );
      const badUrl = remote('["other.example"]', 'not a url');
      assert.ok(errors(badUrl.findings).includes('remote MCP URL is invalid'));
      assert.ok(
        !badUrl.findings.diagnostics.some((d) => d.code === 'codewhale.capabilities.network-hosts-mismatch'),
        'no set comparison',
      );
    });

    it('compares no sets after a declared host that does not normalize: upstream stops at that host', () => {
      for (const [declared, message] of [
        ['https://api.example.com', 'network host `https://api.example.com` must be a host name, not a URL or path'],
        ['api.example.com:8443', 'network host `api.example.com:8443` must contain only a normalized host name'],
      ]) {
        const { findings } = remote(JSON.stringify([declared]));
        assert.deepEqual(errors(findings), [message], declared);
      }
      // A host that normalizes beside one that does not: still no comparison, the declared set is incomplete.
      const mixed = remote('["other.example", "exa mple"]');
      assert.equal(errors(mixed.findings).length, 1);
      assert.ok(errors(mixed.findings)[0]?.startsWith('network host `exa mple` is invalid: '));
    });

    it('checks a network host as a list too (253 characters, 64 values)', () => {
      const long = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}`;
      assert.equal(long.length, 254);
      assert.ok(
        messages(plugin('', `[capabilities]\nnetwork_hosts = ["${long}"]\n`).findings).includes(
          'network host must contain 1-253 non-whitespace characters',
        ),
      );
    });

    it('holds the hosts a Kimi manifest derives from its MCP URLs to the network host list rule, at the URL (§3.5)', () => {
      // A URL host may be longer than a DNS name (WHATWG and the url crate do not check lengths);
      // Codewhale derives network_hosts from it and refuses it as a network host of 254 characters.
      const host = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}`;
      const kimi = (url: string) => {
        const source = JSON.stringify({ name: 'k', version: '1.0.0', mcpServers: { s: { url } } });
        const file = f.write('k/kimi.plugin.json', source);
        const findings = new Findings();
        const m = readKimiJson(file, source, f.path('k'), findings);
        assert.ok(m, messages(findings).join(' | '));
        return { findings, result: validateManifest(f.path('k'), m, findings) };
      };
      const long = kimi(`https://${host}/mcp`).findings;
      assert.deepEqual(
        long.diagnostics.map((d) => [d.code, d.message]),
        [['codewhale.manifest.text', 'network host must contain 1-253 non-whitespace characters']],
      );
      const text = long.document(f.path('k/kimi.plugin.json'))?.text ?? '';
      const at = long.diagnostics[0]?.range;
      assert.equal(
        text.slice(at?.start.character, at?.end.character),
        JSON.stringify(`https://${host}/mcp`),
        'at the URL',
      );
      const fine = kimi(`https://${host.slice(1)}/mcp`);
      assert.deepEqual(messages(fine.findings), [], 'a host of 253 characters is a network host');
      assert.deepEqual(fine.result.networkHosts, [host.slice(1)]);
    });
  });

  describe('[when] (§4.4 step 8)', () => {
    it('takes each supported OS in any ASCII case, and refuses another at its value', () => {
      assert.deepEqual(
        messages(
          plugin('', '[when]\nos = ["windows", "Linux", "MACOS", "freebsd", "openbsd", "netbsd", "android", "ios"]\n')
            .findings,
        ),
        [],
      );
      const { findings } = plugin('', '[when]\nos = ["linux", "plan9"]\n');
      assert.deepEqual(
        findings.diagnostics.map((d) => [d.code, d.message, d.range.start]),
        [['codewhale.when.os', 'unsupported OS selector `plan9`', { line: 6, character: 15 }]],
      );
    });

    it('refuses a repeated OS and one over 32 characters', () => {
      assert.deepEqual(messages(plugin('', '[when]\nos = ["linux", "LINUX"]\n').findings), [
        'duplicate OS value `LINUX`',
      ]);
      assert.deepEqual(messages(plugin('', `[when]\nos = ["${'x'.repeat(33)}"]\n`).findings), [
        'OS must contain 1-32 non-whitespace characters',
        `unsupported OS selector \`${'x'.repeat(33)}\``,
      ]);
    });

    it('takes bare binary names and refuses a path or a Windows drive, at the value', () => {
      assert.deepEqual(messages(plugin('', '[when]\nbinaries = ["git", "node.exe", "git-lfs"]\n').findings), []);
      for (const b of ['bin/git', 'bin\\\\git', 'c:\\\\git'])
        assert.deepEqual(
          plugin('', `[when]\nbinaries = ["${b}"]\n`).findings.diagnostics.map((d) => [d.code, d.message]),
          [['codewhale.when.binary', `binary condition \`${b.replace('\\\\', '\\')}\` must be a bare executable name`]],
        );
      assert.deepEqual(messages(plugin('', '[when]\nbinaries = ["git", "GIT"]\n').findings), [
        'duplicate binary value `GIT`',
      ]);
      assert.deepEqual(messages(plugin('', `[when]\nbinaries = ["${'g'.repeat(129)}"]\n`).findings), [
        'binary must contain 1-128 non-whitespace characters',
      ]);
    });

    it('takes a drive letter without a separator (`C:foo`) as a bare name: only `X:\\` and `X:/` look Windows-absolute (§4.6)', () => {
      assert.deepEqual(messages(plugin('', '[when]\nbinaries = ["C:foo", "c:"]\n').findings), []);
    });
  });

  describe('component paths (§4.5)', () => {
    it('refuses a component table that declares nothing (skills excepted: that means `skills`)', () => {
      f.mkdir('b/skills');
      for (const kind of ['commands', 'agents', 'hooks', 'lsp', 'native']) {
        const { findings } = plugin('', `[${kind}]\n`);
        assert.deepEqual(
          findings.diagnostics.map((d) => [d.code, d.message]),
          [['codewhale.component.path', 'component table must declare `path` or `paths`']],
          kind,
        );
      }
      const skills = plugin('', '[skills]\n');
      assert.deepEqual(messages(skills.findings), []);
      assert.deepEqual(skills.result.componentTargets, { skills: [f.path('b/skills')] });
    });

    it('takes 64 paths and refuses 65', () => {
      for (let i = 0; i < 65; i++) f.write(`b/c/${i}.md`, '');
      assert.deepEqual(messages(plugin('', `[commands]\npaths = ${list(64, (i) => `c/${i}.md`)}\n`).findings), []);
      const { findings, result } = plugin('', `[commands]\npaths = ${list(65, (i) => `c/${i}.md`)}\n`);
      assert.deepEqual(messages(findings), ['component declares 65 paths; maximum is 64']);
      assert.equal(result.componentTargets.commands?.length, 65);
    });

    it('refuses the same path twice by exact text, at the repeat; `c` and `./c` are two paths', () => {
      f.mkdir('b/c');
      const { findings, result } = plugin('', '[commands]\npath = "c"\npaths = ["./c", "c"]\n');
      assert.deepEqual(messages(findings), ['component path `c` is declared more than once']);
      assert.deepEqual(findings.diagnostics[0]?.range.start, { line: 7, character: 16 });
      assert.deepEqual(result.componentTargets.commands, [f.path('b/c'), f.path('b/c'), f.path('b/c')]);
    });

    it('reports a path that does not resolve at that path, and leaves it out of the targets', () => {
      f.mkdir('b/a');
      const { findings, result } = plugin('', '[agents]\npaths = ["a", "../x"]\n');
      assert.deepEqual(messages(findings), ['agents path escapes the plugin root: `../x`']);
      assert.deepEqual(findings.diagnostics[0]?.range.start, { line: 6, character: 14 });
      assert.deepEqual(result.componentTargets, { agents: [f.path('b/a')] });
    });
  });

  describe('MCP servers per bundle (§3.4)', () => {
    const servers = (n: number) =>
      Array.from({ length: n }, (_, i) => `[mcp_servers.s${String(i).padStart(2, '0')}]\ncommand = "node"\n`).join('');
    it('takes 64 servers and refuses 65, at the 65th', () => {
      assert.deepEqual(errors(plugin('', servers(64)).findings), []);
      const { findings } = plugin('', servers(65));
      assert.deepEqual(
        findings.diagnostics.map((d) => [d.code, d.message]),
        [['codewhale.mcp.too-many', 'manifest declares 65 MCP servers; maximum is 64']],
      );
      const text = findings.document(f.path('b/plugin.toml'))?.text.split('\n') ?? [];
      const at = findings.diagnostics[0]?.range.start;
      assert.ok(text[at?.line ?? 0]?.includes('s64'));
    });
  });
});
