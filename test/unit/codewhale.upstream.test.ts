import { strict as assert } from 'node:assert';
import { Fixture, index, writeW, byName, messages } from './helpers/fixture';
import { parseCodewhaleSkill, normalizeSkillName } from '../../src/core/systems/codewhale/skillFile';
import type { Snapshot } from '../../src/core/index/snapshot';

/**
 * Issue 11: where Skillgate and upstream Codewhale (activation policy v3) disagreed,
 * input by input. Each test names the upstream behaviour it reproduces.
 */

const SCHEMA = 'https://agent-plugins.org/schemas/plugin.json';

function errors(s: Snapshot): string[] {
  return s.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
}

function kimi(f: Fixture, manifest: object, name = 'k'): Snapshot {
  f.write(`ws/.codewhale/plugins/${name}/kimi.plugin.json`, JSON.stringify(manifest, null, 2));
  return index([f.path('ws')]);
}

function pluginJson(f: Fixture, manifest: object, mcp?: object, name = 'j'): Snapshot {
  f.write(
    `ws/.codewhale/plugins/${name}/plugin.json`,
    JSON.stringify({ $schema: SCHEMA, name, version: '1.0.0', ...manifest }, null, 2),
  );
  if (mcp) f.write(`ws/.codewhale/plugins/${name}/mcp.json`, JSON.stringify(mcp, null, 2));
  return index([f.path('ws')]);
}

const STDIO = { command: 'node', args: ['server.js'] };

describe('upstream Codewhale fidelity (issue 11)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  describe('verdicts', () => {
    it('upstream: schema_version must be an unsigned integer (1.0 is a parse error)', () => {
      f.write('ws/.codewhale/plugins/p/plugin.toml', 'schema_version = 1.0\n[plugin]\nname = "p"\nversion = "1.0.0"\n');
      const s = index([f.path('ws')]);
      assert.equal(byName(s, 'p').decision, 'rejected');
      assert.deepEqual(errors(s), [
        'failed to parse plugin.toml near bytes 17..20; check the v1 schema and field types (expected an unsigned integer at `schema_version`)',
      ]);
    });

    it('upstream: MCP timeouts are unsigned integers too, in plugin.toml and in mcp.json (30.0 is a type error, 30 is fine)', () => {
      writeW(f, '[mcp_servers.s]\ncommand = "node"\nconnect_timeout = 30.0\n');
      const toml = index([f.path('ws')]);
      assert.equal(byName(toml, 'example-plugin').decision, 'rejected');
      assert.match(
        errors(toml)[0] ?? '',
        /^failed to parse plugin\.toml near bytes \d+\.\.\d+; .*expected an unsigned integer at `mcp_servers\.s\.connect_timeout`/,
      );
      f.remove();
      f = new Fixture();
      const json = pluginJson(
        f,
        {},
        { mcpServers: { s: { ...STDIO, extensions: { 'net.codewhale': { execute_timeout: 30.0 } } } } },
      );
      // JSON.stringify writes 30.0 as 30; write the literal by hand.
      f.write(
        'ws/.codewhale/plugins/j/mcp.json',
        '{"mcpServers": {"s": {"command": "node", "extensions": {"net.codewhale": {"execute_timeout": 30.0}}}}}',
      );
      const again = index([f.path('ws')]);
      assert.equal(byName(json, 'j').decision, 'disabled');
      assert.deepEqual(errors(again), [
        'mcp.json server extensions["net.codewhale"] is invalid: expected an unsigned integer at `execute_timeout`',
      ]);
    });

    it('upstream: on Unix `\\` is not a path separator, so an MCP argument like a\\..\\x does not escape the bundle', () => {
      writeW(f, '[mcp_servers.s]\ncommand = "node"\nargs = ["a\\\\..\\\\x", "..\\\\y"]\n');
      const s = index([f.path('ws')]);
      if (process.platform === 'win32') assert.equal(byName(s, 'example-plugin').decision, 'rejected');
      else {
        assert.deepEqual(errors(s), []);
        assert.equal(byName(s, 'example-plugin').decision, 'disabled');
      }
    });

    it('upstream: an argument like 1:/../x is neither absolute nor a relative path (any second byte `:` before a separator), so it is not checked for `..`', () => {
      writeW(f, '[mcp_servers.s]\ncommand = "node"\nargs = ["1:/../x"]\n');
      assert.deepEqual(errors(index([f.path('ws')])), []);
      f.remove();
      f = new Fixture();
      writeW(f, '[mcp_servers.s]\ncommand = "node"\nargs = ["a/../x"]\n');
      assert.deepEqual(errors(index([f.path('ws')])), ['MCP server `s` argument #1 escapes the plugin root']);
    });

    it('upstream: a Kimi mcpOverrides key is trimmed, and an empty one is rejected', () => {
      const s = kimi(f, { name: 'k', interface: { mcpOverrides: { ' ': { displayName: 'x' } } } });
      assert.equal(byName(s, 'k').decision, 'rejected');
      assert.deepEqual(errors(s), ['kimi.plugin.json interface mcpOverrides keys must not be empty']);
      const ok = kimi(
        f,
        { name: 'k2', interface: { mcpOverrides: { srv: { displayName: 'x', iconUrl: 'https://e.invalid/i.png' } } } },
        'k2',
      );
      assert.equal(byName(ok, 'k2').decision, 'disabled');
    });

    it('upstream: a Kimi mcpOverrides entry is closed (displayName and iconUrl only)', () => {
      const s = kimi(f, { name: 'k', interface: { mcpOverrides: { srv: { command: 'x' } } } });
      assert.equal(byName(s, 'k').decision, 'rejected');
      assert.deepEqual(errors(s), ['failed to parse kimi.plugin.json: unknown field `command`']);
    });

    it('upstream: Kimi interface platforms are trimmed and ASCII-lowercased; an empty list sets no [when]', () => {
      const s = kimi(f, { name: 'k', interface: { platforms: [' Linux '] } });
      assert.deepEqual(errors(s), []);
      assert.equal(byName(s, 'k').decision, 'disabled');
      const none = kimi(f, { name: 'k2', interface: { platforms: [] } }, 'k2');
      assert.deepEqual(byName(none, 'k2').reasons.includes('not_applicable'), false);
    });

    it('upstream: a Kimi hostKind is compared case-insensitively (LOCAL is local)', () => {
      const s = kimi(f, { name: 'k', interface: { hostKind: 'LOCAL' } });
      assert.deepEqual(errors(s), []);
    });

    it('upstream: a Kimi enabledTools that differs from the extension enabled_tools is rejected as conflicting', () => {
      const server = (ext: string[]) => ({
        ...STDIO,
        enabledTools: ['a'],
        extensions: { 'net.codewhale': { enabled_tools: ext } },
      });
      const s = kimi(f, { name: 'k', mcpServers: { s: server(['b']) } });
      assert.equal(byName(s, 'k').decision, 'rejected');
      assert.deepEqual(errors(s), ['kimi.plugin.json MCP server `s` declares conflicting enabledTools filters']);
      const same = kimi(f, { name: 'k2', mcpServers: { s: server(['a']) } }, 'k2');
      assert.equal(byName(same, 'k2').decision, 'disabled');
    });

    it('upstream: a Kimi server reads its extensions["net.codewhale"]: a disabled_tools entry that enabledTools also names is refused', () => {
      const s = kimi(f, {
        name: 'k',
        mcpServers: {
          s: { ...STDIO, enabledTools: ['a'], extensions: { 'net.codewhale': { disabled_tools: ['a'] } } },
        },
      });
      assert.deepEqual(errors(s), ['MCP server `s` declares a tool in both enabled_tools and disabled_tools']);
    });

    it('upstream: disabledTools is no Kimi field (only the extension has disabled_tools)', () => {
      const s = kimi(f, { name: 'k', mcpServers: { s: { ...STDIO, disabledTools: ['a'] } } });
      assert.deepEqual(errors(s), ['failed to parse kimi.plugin.json: unknown field `disabledTools`']);
    });

    it('upstream: a Kimi server goes through the mcp.json server rules (reserved env names, in mcp.json words)', () => {
      const s = kimi(f, { name: 'k', mcpServers: { s: { ...STDIO, env: { PLUGIN_ROOT: '${X}' } } } });
      assert.deepEqual(errors(s), ['mcp.json server `s` env may not define reserved name `PLUGIN_ROOT`']);
    });

    it('upstream: `"skills": {}` in a plugin.json extension falls back to the default skills path', () => {
      f.write('ws/.codewhale/plugins/j/skills/one/SKILL.md', '---\nname: one\n---\nbody\n');
      const s = pluginJson(f, { extensions: { 'net.codewhale': { skills: {} } } });
      assert.deepEqual(errors(s), []);
      assert.equal(byName(s, 'j:one').kind, 'skill');
      assert.equal(byName(s, 'j').detail.inventory?.skills, 1);
    });

    it('upstream: `commands: {}` has no default and is still refused', () => {
      f.write('ws/.codewhale/plugins/j/commands/x.md', 'x');
      const s = pluginJson(f, { extensions: { 'net.codewhale': { commands: {} } } });
      assert.deepEqual(errors(s), ['component table must declare `path` or `paths`']);
    });

    it('upstream: the TOML parser skips a leading UTF-8 byte-order mark in plugin.toml', () => {
      f.write(
        'ws/.codewhale/plugins/p/plugin.toml',
        '\uFEFFschema_version = 1\n[plugin]\nname = "p"\nversion = "1.0.0"\n',
      );
      const s = index([f.path('ws')]);
      assert.deepEqual(errors(s), []);
      assert.equal(byName(s, 'p').decision, 'disabled');
    });

    it('upstream: a SKILL.md that begins with a byte-order mark has no front matter and is skipped with a warning', () => {
      writeW(f);
      f.write('ws/.codewhale/plugins/example-plugin/skills/example/SKILL.md', '\uFEFF---\nname: example\n---\nbody\n');
      const s = index([f.path('ws')]);
      assert.equal(s.items.filter((i) => i.kind === 'skill').length, 0);
      assert.deepEqual(messages(s), [
        'no frontmatter and no `# Heading` found to use as skill name (skills/example/SKILL.md)',
      ]);
    });

    it('upstream: a skill name `a:b` is kept as written, with the unsafe-name warning', () => {
      writeW(f);
      f.write('ws/.codewhale/plugins/example-plugin/skills/example/SKILL.md', '---\nname: a:b\n---\nbody\n');
      const s = index([f.path('ws')]);
      assert.equal(byName(s, 'example-plugin:a:b').kind, 'skill');
      assert.deepEqual(messages(s), [
        'Skill name `a:b` in skills/example/SKILL.md is not a safe command name; using `a:b` instead.',
      ]);
      assert.equal(normalizeSkillName('Foo Bar:Baz'), 'foo-bar:baz');
      assert.equal(normalizeSkillName('a:b:c'), 'a-b-c');
    });

    it('upstream: the front matter ends at the next `---` anywhere, and a heading keeps a trailing #', () => {
      const r = parseCodewhaleSkill('---\nname: a---\nbody');
      assert.deepEqual(r.ok && [r.name, r.body], ['a', 'body']);
      const h = parseCodewhaleSkill('# Title #\ntext');
      assert.equal(h.ok && h.name, 'Title #');
    });

    it('upstream: block scalars keep relative indentation and follow YAML chomping', () => {
      const r = parseCodewhaleSkill('---\nname: x\ndescription: |-\n  one\n    two\n\n---\nb');
      assert.equal(r.ok && r.description, 'one\n  two');
      const folded = parseCodewhaleSkill('---\nname: x\ndescription: >\n  one\n\n  two\n---\nb');
      assert.equal(folded.ok && folded.description, 'one\ntwo');
    });

    it("upstream: trimming is Rust's, so a description of a lone byte-order mark is text, not blank", () => {
      writeW(f, '');
      f.write(
        'ws/.codewhale/plugins/example-plugin/plugin.toml',
        'schema_version = 1\n[plugin]\nname = "example-plugin"\nversion = "1.2.3"\ndescription = "\uFEFF"\n[skills]\npath = "skills"\n',
      );
      const s = index([f.path('ws')]);
      assert.deepEqual(errors(s), []);
    });
  });

  describe('Claude-format fallbacks', () => {
    it("upstream: an existing skills/ directory joins a Claude manifest's paths only when no declared path names it (`./skills/` does)", () => {
      f.write(
        'ws/.codewhale/plugins/c/.claude-plugin/plugin.json',
        JSON.stringify({ name: 'c', version: '1.0.0', skills: './skills/' }),
      );
      f.write('ws/.codewhale/plugins/c/skills/one/SKILL.md', '---\nname: one\n---\nbody\n');
      const s = index([f.path('ws')]);
      assert.deepEqual(errors(s), []);
      assert.equal(byName(s, 'c').detail.inventory?.skills, 1);
    });
  });

  describe('ASCII case, as Rust compares it', () => {
    it('upstream: tool filters are duplicates only by ASCII case (É and é are two tools)', () => {
      writeW(f, '[mcp_servers.s]\ncommand = "node"\nenabled_tools = ["\u00c9", "\u00e9"]\n');
      assert.deepEqual(errors(index([f.path('ws')])), []);
    });

    it('upstream: declared network hosts enter the capability inventory ASCII-lowercased (the capability hash depends on it)', () => {
      writeW(
        f,
        '[capabilities]\nnetwork_hosts = ["\u00c9XAMPLE.com"]\n[mcp_servers.s]\nurl = "https://\u00c9xample.com/mcp"\n',
      );
      const s = index([f.path('ws')]);
      assert.deepEqual(errors(s), []);
      assert.deepEqual(byName(s, 'example-plugin').detail.inventory?.network_hosts, [
        'xn--xample-9ua.com',
        '\u00c9xample.com',
      ]);
    });

    it('upstream: an empty userinfo in a declared network host is none (`@e.invalid` is e.invalid)', () => {
      writeW(f, '[capabilities]\nnetwork_hosts = ["@e.invalid"]\n[mcp_servers.s]\nurl = "https://e.invalid/mcp"\n');
      assert.deepEqual(errors(index([f.path('ws')])), []);
    });

    it('upstream: the credential-argument key is lowercased ASCII only (a Kelvin sign K is not k)', () => {
      writeW(f, '[mcp_servers.s]\ncommand = "node"\nargs = ["server.js", "--to\u212aen", "x"]\n');
      assert.deepEqual(errors(index([f.path('ws')])), []);
    });
  });

  describe('messages in upstream words', () => {
    it('upstream: a blank version is quoted untrimmed', () => {
      f.write('ws/.codewhale/plugins/p/plugin.toml', 'schema_version = 1\n[plugin]\nname = "p"\nversion = "  "\n');
      const s = index([f.path('ws')]);
      assert.deepEqual(errors(s), [
        'plugin version `  ` is not valid semantic versioning: empty string, expected a semver version',
      ]);
    });

    it('upstream: an invalid version says what the semver crate says', () => {
      const cases: [string, string][] = [
        ['latest', "unexpected character 'l' while parsing major version number"],
        ['1.0', 'unexpected end of input while parsing minor version number'],
        ['01.0.0', 'invalid leading zero in major version number'],
        ['1.0.0 beta', "unexpected character ' ' after patch version number"],
        ['1.0.0-01', 'invalid leading zero in pre-release identifier'],
        ['1.0.0+', 'empty identifier segment in build metadata'],
        ['1.2.99999999999999999999', 'value of patch version number exceeds u64::MAX'],
      ];
      cases.forEach(([v], i) =>
        f.write(
          `ws/.codewhale/plugins/p${i}/plugin.toml`,
          `schema_version = 1\n[plugin]\nname = "p${i}"\nversion = "${v}"\n`,
        ),
      );
      const s = index([f.path('ws')]);
      assert.deepEqual(
        errors(s),
        cases.map(([v, e]) => `plugin version \`${v}\` is not valid semantic versioning: ${e}`),
      );
    });

    it('upstream: an unparseable remote MCP URL is reported first as "remote MCP URL is invalid", before the per-server rules', () => {
      writeW(f, '[capabilities]\nnetwork_hosts = ["example.com"]\n[mcp_servers.s]\nurl = "https://exa mple.com/mcp"\n');
      const s = index([f.path('ws')]);
      assert.deepEqual(errors(s), ['remote MCP URL is invalid']);
    });

    it('upstream: a blank $schema is "`…json` `$schema` must be a non-empty string", not a parse error', () => {
      const s = pluginJson(f, { $schema: ' ' });
      assert.deepEqual(errors(s), ['plugin.json `$schema` must be a non-empty string']);
      const k = kimi(f, { $schema: '\t', name: 'k' });
      assert.deepEqual(errors(k).slice(1), ['kimi.plugin.json `$schema` must be a non-empty string']);
    });

    it('upstream: an invalid Kimi name gets the Kimi parse-time message', () => {
      const s = kimi(f, { name: 'Bad' });
      assert.deepEqual(errors(s), [
        'kimi.plugin.json name `Bad` is invalid (1-64 lowercase ASCII letters, digits, hyphens, or underscores; must start with a letter or digit)',
      ]);
    });

    it('upstream: Kimi texts for an empty skills list, a bad platform, a repeated platform and a bad hostKind', () => {
      assert.deepEqual(errors(kimi(f, { name: 'a', skills: [] }, 'a')), [
        'Kimi plugin component path list must not be empty',
      ]);
      f.remove();
      f = new Fixture();
      assert.deepEqual(errors(kimi(f, { name: 'b', interface: { platforms: ['Plan9'] } }, 'b')), [
        'kimi.plugin.json interface has unsupported platform `plan9`',
      ]);
      f.remove();
      f = new Fixture();
      assert.deepEqual(errors(kimi(f, { name: 'c', interface: { platforms: ['linux', 'LINUX'] } }, 'c')), [
        'kimi.plugin.json interface repeats platform `linux`',
      ]);
      f.remove();
      f = new Fixture();
      assert.deepEqual(errors(kimi(f, { name: 'd', interface: { hostKind: 'remote' } }, 'd')), [
        'kimi.plugin.json interface hostKind `remote` is unsupported; only `local` is understood',
      ]);
    });

    it('upstream: OAuth with an extra key in mcp.json is refused as "plugin OAuth is disabled", not as an unknown field', () => {
      const s = pluginJson(
        f,
        { extensions: { 'net.codewhale': { capabilities: { network_hosts: ['e.invalid'] } } } },
        {
          mcpServers: {
            s: {
              url: 'https://e.invalid/mcp',
              extensions: { 'net.codewhale': { oauth: { client_id: 'c', secret: 'x' } } },
            },
          },
        },
      );
      assert.deepEqual(errors(s), [
        'remote MCP server `s` may not declare OAuth fields because plugin OAuth is disabled; use env_headers or bearer_token_env_var',
      ]);
    });

    it('upstream: an env value like ${A}${B} is an exact reference whose source is not a variable name', () => {
      writeW(f, '[mcp_servers.s]\ncommand = "node"\nenv = { X = "${A}${B}" }\n');
      const s = index([f.path('ws')]);
      assert.deepEqual(errors(s), ['MCP environment source must be an ASCII environment variable name']);
    });

    it('upstream: an empty args list or scopes list counts as none (a remote server with `args = []` is fine)', () => {
      writeW(
        f,
        '[capabilities]\nnetwork_hosts = ["e.invalid"]\n[mcp_servers.s]\nurl = "https://e.invalid/mcp"\nargs = []\nscopes = []\n',
      );
      const s = index([f.path('ws')]);
      assert.deepEqual(errors(s), []);
    });

    it('upstream sentences, bundle-relative paths: a missing component path and a cwd that is not a directory', () => {
      writeW(f, '[commands]\npath = "missing"\n[mcp_servers.s]\ncommand = "node"\ncwd = "./skills/example/SKILL.md"\n');
      const s = index([f.path('ws')]);
      assert.deepEqual(errors(s), [
        'failed to inspect commands path missing: No such file or directory (os error 2)',
        'MCP server `s` cwd is not a directory: skills/example/SKILL.md',
      ]);
      for (const m of messages(s)) assert.ok(!m.includes(f.root), m);
    });
  });
});
