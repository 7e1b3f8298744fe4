import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import {
  environmentNameProblem,
  iconProblem,
  looksAbsolute,
  semverProblem,
  textProblem,
} from '../../src/core/systems/codewhale/textRules';
import { resolveContainedPath } from '../../src/core/systems/codewhale/containedPath';
import { normalizeDeclaredHost, urlHost } from '../../src/core/systems/codewhale/networkHosts';
import {
  isAgentPluginsName,
  isKimiPluginName,
  isMcpServerName,
  isTomlPluginName,
  slugForName,
} from '../../src/core/systems/codewhale/names';
import { Fixture } from './helpers/fixture';

/** The shared text, name, path and host rules of codewhale.md §3.8, §4.4 and §4.6, each refused and each limit at its boundary. */
describe('Codewhale text, name, path and host rules (codewhale.md §3.8, §4.4, §4.6)', () => {
  describe('validate_text', () => {
    it('takes 1 to max characters, counted after trimming and by code point', () => {
      assert.equal(textProblem('description', 'a', 3), undefined);
      assert.equal(textProblem('description', '  abc  ', 3), undefined);
      assert.equal(textProblem('description', '😀😀😀', 3), undefined);
      assert.equal(textProblem('description', 'abcd', 3), 'description must contain 1-3 non-whitespace characters');
      assert.equal(textProblem('description', '   ', 3), 'description must contain 1-3 non-whitespace characters');
      assert.equal(textProblem('description', '', 3), 'description must contain 1-3 non-whitespace characters');
    });
    it('refuses control characters, even in the whitespace trimmed off, and bidirectional controls', () => {
      assert.equal(textProblem('author', 'a\tb', 9), 'author may not contain control characters');
      assert.equal(textProblem('author', 'ab\n', 9), 'author may not contain control characters');
      assert.equal(textProblem('author', 'a\u0085b', 9), 'author may not contain control characters');
      for (const c of ['\u061c', '\u200e', '\u200f', '\u202a', '\u202e', '\u2066', '\u2069'])
        assert.equal(textProblem('author', `a${c}b`, 9), 'author may not contain bidirectional formatting characters');
      assert.equal(textProblem('author', 'a\u200bb', 9), undefined, 'a zero-width space is not a bidi control');
    });
  });

  describe('environment names', () => {
    for (const ok of ['A', '_', 'a_1', 'X'.repeat(128)])
      it(`accepts ${ok.length > 20 ? '128 characters' : ok}`, () =>
        assert.equal(environmentNameProblem('source', ok), undefined));
    for (const bad of ['1A', 'A-B', 'A B', 'Ä'])
      it(`refuses ${bad}`, () =>
        assert.equal(environmentNameProblem('source', bad), 'source must be an ASCII environment variable name'));
    it('refuses 129 characters and the empty name by the text rule', () => {
      assert.equal(
        environmentNameProblem('source', 'X'.repeat(129)),
        'source must contain 1-128 non-whitespace characters',
      );
      assert.equal(environmentNameProblem('source', ''), 'source must contain 1-128 non-whitespace characters');
    });
  });

  describe('semantic versions', () => {
    for (const ok of ['1.2.3', '0.0.0', '1.0.0-alpha.1', '1.0.0+build.5', ' 1.0.0 ', '1.0.0-0a.x-y'])
      it(`accepts ${JSON.stringify(ok)}`, () => assert.equal(semverProblem(ok), undefined));
    it('explains why a version is refused, as Codewhale does', () => {
      assert.equal(
        semverProblem(''),
        'plugin version `` is not valid semantic versioning: empty string, expected a semver version',
      );
      assert.equal(
        semverProblem('1.2'),
        'plugin version `1.2` is not valid semantic versioning: unexpected end of input while parsing minor version number',
      );
      assert.equal(
        semverProblem('1'),
        'plugin version `1` is not valid semantic versioning: unexpected end of input while parsing major version number',
      );
      assert.equal(
        semverProblem('latest'),
        "plugin version `latest` is not valid semantic versioning: unexpected character 'l' while parsing major version number",
      );
      for (const bad of ['v1.0.0', '01.0.0', '1.0.0-01', '1.0.0-', '1.0.0+', '1.0.0.0'])
        assert.ok(semverProblem(bad), bad);
    });
  });

  it('counts Windows-looking absolute paths as absolute on every host', () => {
    assert.deepEqual(['/a', '\\a', 'C:\\a', 'c:/a', 'a/b', 'C:a', './a', ''].map(looksAbsolute), [
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });

  describe('icons', () => {
    const png = (w: number, h: number) => {
      const b = Buffer.alloc(33);
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
      b.write('IHDR', 12, 'latin1');
      b.writeUInt32BE(w, 16);
      b.writeUInt32BE(h, 20);
      return `data:image/png;base64,${b.toString('base64')}`;
    };
    it('accepts a PNG of 1x1 to 256x256', () => {
      assert.equal(iconProblem(png(1, 1)), undefined);
      assert.equal(iconProblem(png(256, 256)), undefined);
    });
    it('refuses each failure with its message', () => {
      assert.equal(iconProblem(png(0, 1)), 'plugin icon must fit within 256 by 256 pixels');
      assert.equal(iconProblem(png(1, 0)), 'plugin icon must fit within 256 by 256 pixels');
      assert.equal(iconProblem(png(257, 1)), 'plugin icon must fit within 256 by 256 pixels');
      assert.equal(iconProblem(png(1, 257)), 'plugin icon must fit within 256 by 256 pixels');
      assert.equal(iconProblem('data:image/jpeg;base64,AAAA'), 'plugin icon must be an inline PNG');
      assert.equal(iconProblem('data:image/png;base64,invalid'), 'plugin icon has invalid base64');
      assert.equal(
        iconProblem(`data:image/png;base64,${Buffer.alloc(33).toString('base64')}`),
        'plugin icon has an invalid PNG header',
      );
      assert.equal(
        iconProblem(
          `data:image/png;base64,${Buffer.from(png(1, 1).slice(22), 'base64').subarray(0, 32).toString('base64')}`,
        ),
        'plugin icon has an invalid PNG header',
      );
      const noIhdr = Buffer.from(png(1, 1).slice(22), 'base64');
      noIhdr.write('IHDX', 12, 'latin1');
      assert.equal(
        iconProblem(`data:image/png;base64,${noIhdr.toString('base64')}`),
        'plugin icon has an invalid PNG header',
      );
      assert.equal(iconProblem(`data:image/png;base64,${'A'.repeat(32768)}`), 'plugin icon exceeds 32 KiB');
    });
    it('refuses base64 whose last character leaves bits over, as the STANDARD engine does (§4.4 step 5)', () => {
      // 34 bytes end in `…AA==`; `…AB==` decodes to the same bytes in Node, but not in Codewhale.
      const icon = `data:image/png;base64,${Buffer.concat([Buffer.from(png(1, 1).slice(22), 'base64'), Buffer.alloc(1)]).toString('base64')}`;
      assert.ok(icon.endsWith('AA=='));
      assert.equal(iconProblem(icon), undefined);
      assert.equal(iconProblem(`${icon.slice(0, -3)}B==`), 'plugin icon has invalid base64');
      assert.equal(iconProblem(`${icon.slice(0, -4)}AAB=`), 'plugin icon has invalid base64');
    });
  });

  describe('names', () => {
    it('applies the plugin.toml name rule', () => {
      for (const ok of ['a', 'a--b', 'a1', 'x'.repeat(64)]) assert.ok(isTomlPluginName(ok), ok);
      for (const bad of ['', '-a', 'a-', 'A', 'a_b', 'a.b', 'x'.repeat(65)]) assert.ok(!isTomlPluginName(bad), bad);
    });
    it('applies the Agent Plugins name rule', () => {
      for (const ok of ['a', 'a.-b', 'a.b', 'x'.repeat(64)]) assert.ok(isAgentPluginsName(ok), ok);
      for (const bad of ['', 'A', 'a_b', 'a b', '-a', 'a-', '.a', 'a.', 'a--b', 'a..b', 'x'.repeat(65)])
        assert.ok(!isAgentPluginsName(bad), bad);
    });
    it('applies the Kimi name rule', () => {
      for (const ok of ['a', 'a_', 'a-', 'x'.repeat(64)]) assert.ok(isKimiPluginName(ok), ok);
      for (const bad of ['', '_a', 'A', 'a.b', 'x'.repeat(65)]) assert.ok(!isKimiPluginName(bad), bad);
    });
    it('applies the MCP server id rule', () => {
      for (const ok of ['a', 'A_b-9', 'x'.repeat(64)]) assert.ok(isMcpServerName(ok), ok);
      for (const bad of ['', '_a', 'a_', '-a', 'a-', 'a.b', 'x'.repeat(65)]) assert.ok(!isMcpServerName(bad), bad);
    });
    it('suggests the closest valid slug', () => {
      assert.deepEqual(['My Plugin', '--a__b--', '!!!', 'a'.repeat(70), `${'a'.repeat(63)}-b`].map(slugForName), [
        'my-plugin',
        'a-b',
        'plugin',
        'a'.repeat(64),
        'a'.repeat(63),
      ]);
    });
  });

  describe('network hosts', () => {
    it('normalizes a declared host to the lowercase URL host, punycode for IDNA, :443 accepted', () => {
      assert.deepEqual(normalizeDeclaredHost('API.Example.com'), { ok: true, host: 'api.example.com' });
      assert.deepEqual(normalizeDeclaredHost('bücher.example'), { ok: true, host: 'xn--bcher-kva.example' });
      assert.deepEqual(normalizeDeclaredHost('example.com:443'), { ok: true, host: 'example.com' });
    });
    it('refuses a URL, a path, a port, user info, a query or a fragment', () => {
      for (const h of ['https://x.example', 'x.example/p', 'x\\y'])
        assert.deepEqual(normalizeDeclaredHost(h), {
          ok: false,
          message: `network host \`${h}\` must be a host name, not a URL or path`,
        });
      for (const h of ['x.example:8443', 'u@x.example', 'x.example?', 'x.example#', 'x.example?a=1', 'x.example#f'])
        assert.deepEqual(normalizeDeclaredHost(h), {
          ok: false,
          message: `network host \`${h}\` must contain only a normalized host name`,
        });
      const bad = normalizeDeclaredHost('exa mple');
      assert.ok(!bad.ok && bad.message.startsWith('network host `exa mple` is invalid: '));
    });
    it('says why a host does not parse in the url crate\'s words, not Node\'s "Invalid URL"', () => {
      // Each `{e}` is what url 2.3.1 (Url::parse on `https://{h}`) prints: /tmp/url-oracle.
      const cases: [string, string][] = [
        ['exa mple.com', 'invalid domain character'],
        ['exa|mple.com', 'invalid domain character'],
        ['ex%00ample.com', 'invalid domain character'],
        ['ex%2Fample.com', 'invalid domain character'],
        ['%', 'invalid domain character'],
        ['\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45\uff0e\uff43\uff4f\uff4d\uff1c', 'invalid domain character'],
        ['a\u2100b.com', 'invalid domain character'],
        ['', 'empty host'],
        ['@', 'empty host'],
        ['u@', 'empty host'],
        ['::1]', 'empty host'],
        ['\u00ad', 'empty host'],
        ['1.2.3.4.5', 'invalid IPv4 address'],
        ['256.0.0.1', 'invalid IPv4 address'],
        ['0x100000000', 'invalid IPv4 address'],
        ['foo.09', 'invalid IPv4 address'],
        ['example.com:65536', 'invalid port number'],
        ['example.com:4a', 'invalid port number'],
        ['example.com: 443', 'invalid port number'],
        ['localhost.:99999', 'invalid port number'],
        ['[::1', 'invalid IPv6 address'],
        ['[1::2::3]', 'invalid IPv6 address'],
        ['[fe80::1%25eth0]', 'invalid IPv6 address'],
        ['[::1]x', 'invalid IPv6 address'],
        ['xn--a.com', 'invalid international domain name'],
        ['\u2603\u0080.net', 'invalid international domain name'],
        ['%ff.com', 'invalid international domain name'],
      ];
      for (const [h, e] of cases)
        assert.deepEqual(normalizeDeclaredHost(h), { ok: false, message: `network host \`${h}\` is invalid: ${e}` }, h);
    });
    it("refuses an `xn--` label that decodes to ASCII alone or to nothing, as idna 1.x does (url 2.5, Codewhale's Cargo.lock)", () => {
      // Node's parser takes `xn--abc-.com` as it is; url 2.5 refuses it, url 2.3 read it as `abc.com`.
      for (const h of ['xn--abc-.com', 'XN--abc-.com', 'a.xn--abc-'])
        assert.deepEqual(normalizeDeclaredHost(h), {
          ok: false,
          message: `network host \`${h}\` is invalid: invalid international domain name`,
        });
      assert.deepEqual(urlHost('https://xn--abc-.com/mcp'), { ok: false, message: 'remote MCP URL is invalid' });
      assert.deepEqual(normalizeDeclaredHost('xn--nxasmq6b.com'), { ok: true, host: 'xn--nxasmq6b.com' });
      assert.deepEqual(normalizeDeclaredHost('xn--ls8h.la'), { ok: true, host: 'xn--ls8h.la' });
    });
    it('takes the lowercase host of an MCP URL', () => {
      assert.deepEqual(urlHost('https://API.example.com:8443/mcp'), { ok: true, host: 'api.example.com' });
      assert.deepEqual(urlHost('not a url'), { ok: false, message: 'remote MCP URL is invalid' });
      assert.deepEqual(urlHost('file:///x'), { ok: false, message: 'remote MCP URL is missing a host' });
    });
  });

  describe('contained paths (resolve_contained_path)', () => {
    let f: Fixture;
    beforeEach(() => {
      f = new Fixture();
      f.write('b/skills/x.md', 'x');
      f.write('outside.txt', 'x');
    });
    afterEach(() => f.remove());
    const root = () => f.path('b');

    it('resolves a contained file or directory to its canonical path and type', () => {
      assert.deepEqual(resolveContainedPath(root(), 'skills/x.md', 'skills'), {
        ok: true,
        absolute: f.path('b/skills/x.md'),
        type: 'file',
      });
      assert.deepEqual(resolveContainedPath(root(), './skills/', 'skills'), {
        ok: true,
        absolute: f.path('b/skills'),
        type: 'directory',
      });
      assert.deepEqual(resolveContainedPath(root(), '.', 'skills'), { ok: true, absolute: root(), type: 'directory' });
    });
    it('refuses an absolute path, `..`, a link on the way, and a missing path, each with its message', () => {
      assert.deepEqual(resolveContainedPath(root(), '/etc', 'skills'), {
        ok: false,
        message: 'skills path must be relative: `/etc`',
      });
      assert.deepEqual(resolveContainedPath(root(), 'C:\\x', 'hooks'), {
        ok: false,
        message: 'hooks path must be relative: `C:\\x`',
      });
      assert.deepEqual(resolveContainedPath(root(), 'skills/../../outside.txt', 'skills'), {
        ok: false,
        message: 'skills path escapes the plugin root: `skills/../../outside.txt`',
      });
      assert.deepEqual(resolveContainedPath(root(), 'skills/..', 'skills'), {
        ok: false,
        message: 'skills path escapes the plugin root: `skills/..`',
      });
      fs.symlinkSync(f.path('b/skills'), f.path('b/link'));
      assert.deepEqual(resolveContainedPath(root(), 'link/x.md', 'skills'), {
        ok: false,
        message: 'skills path may not traverse symbolic link link',
      });
      const missing = resolveContainedPath(root(), 'nope', 'MCP cwd');
      assert.ok(!missing.ok && missing.message.startsWith('failed to inspect MCP cwd path nope: '));
      assert.deepEqual(resolveContainedPath(root(), '', 'skills'), {
        ok: false,
        message: 'skills path must contain 1-1024 non-whitespace characters',
      });
    });
  });
});
