import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { Fixture, index, writeW, byName } from './helpers/fixture';
import type { Snapshot } from '../../src/core/index/snapshot';

/**
 * One negative test per MCP rule of codewhale.md §4.7, with the boundary on both sides of
 * every limit. Findings are asserted by their stable diagnostic code (the wording is
 * the spec's, and is asserted where the rule has no code of its own).
 */
describe('Codewhale MCP rules, each refused and each limit at its boundary (codewhale.md §4.7)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const DIR = 'ws/.codewhale/plugins/example-plugin';
  const run = (extra: string): { decision: string; codes: string[]; messages: string[]; snapshot: Snapshot } => {
    writeW(f, extra);
    f.write(`${DIR}/server.js`, '// placeholder\n');
    f.write(`${DIR}/bin/run.sh`, '#!/bin/sh\n', 0o755);
    f.write('ws/outside.sh', '#!/bin/sh\n', 0o755);
    const s = index([f.path('ws')]);
    const errors = s.diagnostics.filter((d) => d.severity === 'error');
    return {
      decision: byName(s, 'example-plugin').decision,
      codes: errors.map((d) => d.code),
      messages: errors.map((d) => d.message),
      snapshot: s,
    };
  };
  const refused = (extra: string, code: string) => {
    const r = run(extra);
    assert.equal(r.decision, 'rejected', `rejected: ${r.messages.join(' | ')}`);
    assert.ok(r.codes.includes(code), `${code} in ${r.codes.join(', ')}: ${r.messages.join(' | ')}`);
    return r;
  };
  const accepted = (extra: string) => {
    const r = run(extra);
    assert.deepEqual(r.messages, [], 'no error');
    assert.notEqual(r.decision, 'rejected');
    return r;
  };
  const stdio = (command: string, body = '') => `[mcp_servers.local]\ncommand = ${JSON.stringify(command)}\n${body}`;
  const remote = (body: string) =>
    `[capabilities]\nnetwork_hosts = ["example.invalid"]\n[mcp_servers.remote]\nurl = "https://example.invalid/mcp"\n${body}`;
  const list = (n: number, make: (i: number) => string) =>
    `[${Array.from({ length: n }, (_, i) => JSON.stringify(make(i))).join(', ')}]`;
  const table = (n: number, make: (i: number) => [string, string]) =>
    `{ ${Array.from({ length: n }, (_, i) => make(i))
      .map(([k, v]) => `${k} = ${JSON.stringify(v)}`)
      .join(', ')} }`;

  describe('stdio command', () => {
    for (const [name, command] of [
      ['a path out of the bundle', '../../outside.sh'],
      ['an absolute path', '/bin/sh'],
      ['a directory of the bundle', 'bin'],
      ['a contained path to a directory', 'bin/'],
      ['a name with a space', 'bad name'],
      ['`..`', '..'],
      ['`.`', '.'],
      ['a 129-byte name', 'n'.repeat(129)],
      ['a name with a character outside [A-Za-z0-9_.+-]', 'node;rm'],
      ['a contained path that does not exist', 'bin/missing.sh'],
    ] as const) {
      it(`refuses ${name}`, () => {
        // A bare `bin` is a name, not a path: it passes the name rule (Codewhale looks it up on PATH).
        if (command === 'bin') return accepted(stdio(command));
        return refused(stdio(command), 'codewhale.mcp.command');
      });
    }

    it('refuses a contained path that is a directory as not a regular file', () => {
      const r = refused(stdio('./bin'), 'codewhale.mcp.command');
      assert.ok(
        r.messages.some((m) => /command is not a regular file/.test(m)),
        r.messages.join(' | '),
      );
    });

    for (const command of ['n'.repeat(128), 'node', 'python3.12', 'g++', 'my_tool-2.0', 'bin/run.sh', './bin/run.sh']) {
      it(`accepts ${command.length > 20 ? 'a 128-byte name' : command}`, () => accepted(stdio(command)));
    }

    it('accepts a contained path through a directory whose name starts with two dots (a name, not `..`)', () => {
      f.write(`${DIR}/..bin/run.sh`, '#!/bin/sh\n', 0o755);
      f.write(`${DIR}/..work/.keep`, '');
      accepted(stdio('..bin/run.sh', 'cwd = "..work"\n'));
    });

    // The bare name's limit is 128 bytes (§4.7 stdio branch), but of [A-Za-z0-9_.+-] only: every
    // character a name may hold is one byte, so no name tells bytes from characters, and a
    // multi-byte one is refused by the character rule whatever its length (the 128/129 cases
    // above are the limit). What multi-byte text does tell apart is the command's text rule.
    it('counts the command text limit in characters: 300 two-byte characters pass it and fail the bare-name rule', () => {
      const r = refused(stdio('é'.repeat(300)), 'codewhale.mcp.command');
      assert.deepEqual(r.messages, ['MCP command must be a bare executable name or a contained plugin path']);
    });
  });

  describe('exactly one of command or url', () => {
    it('refuses both', () =>
      refused(
        `[capabilities]\nnetwork_hosts = ["example.invalid"]\n[mcp_servers.both]\ncommand = "node"\nurl = "https://example.invalid/mcp"\n`,
        'codewhale.mcp.command-or-url',
      ));
    it('refuses neither', () => refused(`[mcp_servers.none]\nrequired = false\n`, 'codewhale.mcp.command-or-url'));
    it('accepts one command', () => accepted(stdio('node')));
    it('accepts one url', () => accepted(remote('')));
  });

  describe('server name', () => {
    for (const name of ['-lead', 'trail_', 'bad.name', 'x'.repeat(65), 'sp ace']) {
      it(`refuses \`${name.length > 20 ? '65 characters' : name}\``, () =>
        refused(`[mcp_servers.${JSON.stringify(name)}]\ncommand = "node"\n`, 'codewhale.mcp.server-name'));
    }
    for (const name of ['a', 'A_b-9', 'x'.repeat(64)]) {
      it(`accepts \`${name.length > 20 ? '64 characters' : name}\``, () =>
        accepted(`[mcp_servers.${JSON.stringify(name)}]\ncommand = "node"\n`));
    }
  });

  describe('count caps', () => {
    it('takes 64 arguments and refuses 65', () => {
      accepted(stdio('node', `args = ${list(64, (i) => `a${i}`)}\n`));
      f.remove();
      f = new Fixture();
      const r = refused(stdio('node', `args = ${list(65, (i) => `a${i}`)}\n`), 'codewhale.mcp.too-many');
      assert.ok(r.messages.some((m) => /too many arguments; maximum is 64/.test(m)));
    });

    it('takes 64 environment mappings and refuses 65', () => {
      accepted(stdio('node', `env = ${table(64, (i) => [`E${i}`, `\${S${i}}`])}\n`));
      f.remove();
      f = new Fixture();
      const r = refused(stdio('node', `env = ${table(65, (i) => [`E${i}`, `\${S${i}}`])}\n`), 'codewhale.mcp.too-many');
      assert.ok(r.messages.some((m) => /too many environment mappings; maximum is 64/.test(m)));
    });

    it('takes 64 environment-backed headers and refuses 65', () => {
      accepted(remote(`env_headers = ${table(64, (i) => [`X-H${i}`, `S${i}`])}\n`));
      f.remove();
      f = new Fixture();
      const r = refused(remote(`env_headers = ${table(65, (i) => [`X-H${i}`, `S${i}`])}\n`), 'codewhale.mcp.too-many');
      assert.ok(r.messages.some((m) => /too many environment-backed headers; maximum is 64/.test(m)));
    });

    it('caps OAuth scopes at 64', () => {
      const at64 = run(remote(`scopes = ${list(64, (i) => `s${i}`)}\n`));
      assert.ok(!at64.codes.includes('codewhale.mcp.too-many'), at64.messages.join(' | '));
      f.remove();
      f = new Fixture();
      const r = refused(remote(`scopes = ${list(65, (i) => `s${i}`)}\n`), 'codewhale.mcp.too-many');
      assert.ok(r.messages.some((m) => /too many OAuth scopes; maximum is 64/.test(m)));
    });

    for (const field of ['enabled_tools', 'disabled_tools']) {
      it(`takes 64 ${field}, refuses 65 as a list over 64, and 257 also as over the 256 filter cap`, () => {
        accepted(stdio('node', `${field} = ${list(64, (i) => `t${i}`)}\n`));
        f.remove();
        f = new Fixture();
        const at65 = refused(stdio('node', `${field} = ${list(65, (i) => `t${i}`)}\n`), 'codewhale.mcp.too-many');
        assert.ok(at65.messages.some((m) => /maximum is 64/.test(m)));
        assert.ok(!at65.messages.some((m) => /maximum is 256 per list/.test(m)));
        f.remove();
        f = new Fixture();
        const at256 = run(stdio('node', `${field} = ${list(256, (i) => `t${i}`)}\n`));
        assert.ok(!at256.messages.some((m) => /maximum is 256 per list/.test(m)));
        f.remove();
        f = new Fixture();
        const at257 = refused(stdio('node', `${field} = ${list(257, (i) => `t${i}`)}\n`), 'codewhale.mcp.too-many');
        assert.ok(
          at257.messages.some((m) => /declares too many tool filters; maximum is 256 per list/.test(m)),
          at257.messages.join(' | '),
        );
      });
    }

    it('takes 64 MCP servers in one bundle and refuses 65', () => {
      const servers = (n: number) =>
        Array.from({ length: n }, (_, i) => `[mcp_servers.s${i}]\ncommand = "node"\n`).join('');
      accepted(servers(64));
      f.remove();
      f = new Fixture();
      const r = refused(servers(65), 'codewhale.mcp.too-many');
      assert.ok(r.messages.some((m) => /65 MCP servers; maximum is 64/.test(m)));
    });
  });

  describe('timeouts', () => {
    for (const label of ['connect_timeout', 'execute_timeout', 'read_timeout']) {
      for (const bad of [0, 3601])
        it(`refuses ${label} = ${bad}`, () => refused(stdio('node', `${label} = ${bad}\n`), 'codewhale.mcp.timeout'));
      for (const good of [1, 3600])
        it(`accepts ${label} = ${good}`, () => accepted(stdio('node', `${label} = ${good}\n`)));
    }
  });

  describe('tool filters', () => {
    for (const field of ['enabled_tools', 'disabled_tools']) {
      it(`refuses a duplicate in ${field}, compared without case`, () =>
        refused(stdio('node', `${field} = ["Read", "read"]\n`), 'codewhale.mcp.tool-filter'));
      it(`refuses an empty name in ${field}`, () =>
        refused(stdio('node', `${field} = [""]\n`), 'codewhale.mcp.tool-filter'));
    }
    it('accepts distinct names in each list', () =>
      accepted(stdio('node', 'enabled_tools = ["read", "list"]\ndisabled_tools = ["write"]\n')));
    it('compares the two lists exactly: `Read` enabled and `read` disabled is not the same tool', () =>
      accepted(stdio('node', 'enabled_tools = ["Read"]\ndisabled_tools = ["read"]\n')));
    it('refuses the same tool in both lists', () =>
      refused(stdio('node', 'enabled_tools = ["read"]\ndisabled_tools = ["read"]\n'), 'codewhale.mcp.tool-filter'));
  });

  describe('required and enabled', () => {
    it('refuses a server required while disabled', () =>
      refused(stdio('node', 'required = true\nenabled = false\n'), 'codewhale.mcp.required-disabled'));
    it('accepts a required enabled server, and a disabled optional one', () => {
      accepted(stdio('node', 'required = true\n'));
      f.remove();
      f = new Fixture();
      accepted(stdio('node', 'required = false\nenabled = false\n'));
    });
  });

  describe('remote headers and sources', () => {
    for (const [name, header] of [
      ['a space', 'Bad Header'],
      ['a colon', 'X:Y'],
      ['129 bytes', 'H'.repeat(129)],
      ['nothing', ''],
    ] as const) {
      it(`refuses a header name with ${name}`, () =>
        refused(remote(`env_headers = { ${JSON.stringify(header)} = "SRC" }\n`), 'codewhale.mcp.header-name'));
    }
    it('accepts a 128-byte header name and every HTTP token character', () => {
      accepted(remote(`env_headers = { ${JSON.stringify('H'.repeat(128))} = "SRC" }\n`));
      f.remove();
      f = new Fixture();
      accepted(remote(`env_headers = { "X-a!#$%&'*+.^_\`|~9" = "SRC" }\n`));
    });
    it('refuses a header source that is not an environment name', () =>
      refused(remote('env_headers = { X-Key = "1BAD" }\n'), 'codewhale.mcp.env-name'));
    it('refuses a bearer source that is not an environment name', () =>
      refused(remote('bearer_token_env_var = "BAD-NAME"\n'), 'codewhale.mcp.env-name'));
    it('refuses a transport other than sse, in any case', () => {
      refused(remote('transport = "websocket"\n'), 'codewhale.mcp.transport');
      f.remove();
      f = new Fixture();
      accepted(remote('transport = "SSE"\n'));
    });
  });

  describe('remote URL', () => {
    const url = (u: string, hosts = '["example.invalid"]') =>
      `[capabilities]\nnetwork_hosts = ${hosts}\n[mcp_servers.remote]\nurl = ${JSON.stringify(u)}\n`;
    it('refuses a URL that does not parse', () => refused(url('not a url'), 'codewhale.mcp.url-invalid'));
    it('refuses a scheme other than http or https', () =>
      refused(url('ftp://example.invalid/mcp'), 'codewhale.mcp.url-invalid'));
    it('refuses an empty fragment the URL parser would drop', () =>
      refused(url('https://example.invalid/mcp#'), 'codewhale.mcp.url-query'));
    it('accepts plain http to localhost and to 127.x.y.z', () => {
      accepted(url('http://localhost:8080/mcp', '["localhost"]'));
      f.remove();
      f = new Fixture();
      accepted(url('http://127.0.0.1:8080/mcp', '["127.0.0.1"]'));
    });
    it('refuses plain http to a host that only starts like loopback', () =>
      refused(url('http://127.0.0.1.example.invalid/mcp', '["127.0.0.1.example.invalid"]'), 'codewhale.mcp.url-https'));
    it('refuses a password without a user name', () =>
      refused(url('https://:secret@example.invalid/mcp'), 'codewhale.mcp.url-credentials'));
    it('refuses stdio env on a remote server', () =>
      refused(remote('env = { A = "${B}" }\n'), 'codewhale.mcp.remote-stdio-fields'));
    it('refuses cwd on a remote server', () => refused(remote('cwd = "bin"\n'), 'codewhale.mcp.remote-stdio-fields'));
  });

  describe('stdio fields', () => {
    it('refuses a cwd out of the bundle', () => refused(stdio('node', 'cwd = "../.."\n'), 'codewhale.mcp.cwd'));
    it('refuses a cwd that is a file', () => refused(stdio('node', 'cwd = "server.js"\n'), 'codewhale.mcp.cwd'));
    it('accepts a contained cwd', () => accepted(stdio('node', 'cwd = "bin"\n')));
    it('refuses env_headers on a stdio server', () =>
      refused(stdio('node', 'env_headers = { X-Key = "SRC" }\n'), 'codewhale.mcp.stdio-remote-fields'));
    it('refuses bearer_token_env_var on a stdio server', () =>
      refused(stdio('node', 'bearer_token_env_var = "SRC"\n'), 'codewhale.mcp.stdio-remote-fields'));
    it('refuses an environment destination that is not a name', () =>
      refused(stdio('node', 'env = { "1A" = "${B}" }\n'), 'codewhale.mcp.env-name'));
    it('refuses an environment source that is not a name', () =>
      refused(stdio('node', 'env = { A = "${1B}" }\n'), 'codewhale.mcp.env-name'));
    it('refuses a reference with text around it', () =>
      refused(stdio('node', 'env = { A = "x${B}" }\n'), 'codewhale.mcp.env-value'));
    it('refuses an argument over 4096 bytes and takes 4096', () => {
      accepted(stdio('node', `args = ["${'a'.repeat(4096)}"]\n`));
      f.remove();
      f = new Fixture();
      refused(stdio('node', `args = ["${'a'.repeat(4097)}"]\n`), 'codewhale.mcp.argument');
    });
    it('refuses an AKIA key of 16 bytes and takes 15', () => {
      refused(stdio('node', 'args = ["AKIA123456789012"]\n'), 'codewhale.mcp.literal-credential');
      f.remove();
      f = new Fixture();
      accepted(stdio('node', 'args = ["AKIA12345678901"]\n'));
    });
    for (const prefix of ['ghp_', 'github_pat_', 'xoxb-', 'xoxp-']) {
      it(`refuses a ${prefix} literal, after trimming`, () =>
        refused(stdio('node', `args = [" ${prefix}abc"]\n`), 'codewhale.mcp.literal-credential'));
    }
    it('trims as Rust does: a leading byte-order mark is kept, so `\\uFEFFsk-…` is no literal credential', () => {
      accepted(stdio('node', 'args = ["\\uFEFFsk-live"]\n'));
      f.remove();
      f = new Fixture();
      refused(stdio('node', 'args = ["\\u2003sk-live"]\n'), 'codewhale.mcp.literal-credential');
    });
    for (const arg of ['--client_secret=x', 'PASSWORD=x', '--my-access-key=x', '--credentials=x']) {
      it(`refuses ${arg} as a credential-bearing argument`, () =>
        refused(stdio('node', `args = [${JSON.stringify(arg)}]\n`), 'codewhale.mcp.credential-argument'));
    }
    for (const arg of ['--tokenizer=x', '--password-file', '--secretive=x']) {
      it(`accepts ${arg}, whose key only starts like a sensitive one`, () =>
        accepted(stdio('node', `args = [${JSON.stringify(arg)}, "v"]\n`)));
    }
    it('accepts a backslash path (on Unix `\\` is no separator: one component), a URL or an option holding ..', () => {
      accepted(stdio('node', 'args = ["..\\\\up\\\\x.js"]\n'));
      f.remove();
      f = new Fixture();
      accepted(stdio('node', 'args = ["--dir=../x", "~/../x", "https://example.invalid/../x"]\n'));
    });
  });
  describe("in the spec's words (codewhale.md §4.7)", () => {
    const only = (extra: string, code: string) => {
      const r = run(extra);
      assert.equal(r.decision, 'rejected', r.messages.join(' | '));
      return r.snapshot.diagnostics.filter((d) => d.code === code).map((d) => d.message);
    };
    const cases: [string, string, string, string][] = [
      [
        'a required, disabled server',
        stdio('node', 'required = true\nenabled = false\n'),
        'codewhale.mcp.required-disabled',
        'MCP server `local` cannot be required while disabled',
      ],
      [
        'an empty argument',
        stdio('node', 'args = [" "]\n'),
        'codewhale.mcp.argument',
        'MCP argument must contain 1-4096 non-whitespace characters',
      ],
      [
        'an empty enabled tool',
        stdio('node', 'enabled_tools = [""]\n'),
        'codewhale.mcp.tool-filter',
        'enabled MCP tool must contain 1-256 non-whitespace characters',
      ],
      [
        'an empty disabled tool',
        stdio('node', 'disabled_tools = [""]\n'),
        'codewhale.mcp.tool-filter',
        'disabled MCP tool must contain 1-256 non-whitespace characters',
      ],
      [
        'a duplicate tool',
        stdio('node', 'enabled_tools = ["read", "READ"]\n'),
        'codewhale.mcp.tool-filter',
        'duplicate enabled MCP tool value `READ`',
      ],
      [
        'both command and url',
        `[capabilities]\nnetwork_hosts = ["example.invalid"]\n[mcp_servers.both]\ncommand = "node"\nurl = "https://example.invalid/mcp"\n`,
        'codewhale.mcp.command-or-url',
        'MCP server `both` must declare exactly one of command or url',
      ],
      [
        'a command with a control character',
        stdio('no\tde'),
        'codewhale.mcp.command',
        'MCP command may not contain control characters',
      ],
      [
        'a command path out of the bundle',
        stdio('../../outside.sh'),
        'codewhale.mcp.command',
        'MCP command path escapes the plugin root: `../../outside.sh`',
      ],
      [
        'a bad bare command',
        stdio('bad name'),
        'codewhale.mcp.command',
        'MCP command must be a bare executable name or a contained plugin path',
      ],
      [
        'a cwd out of the bundle',
        stdio('node', 'cwd = "../.."\n'),
        'codewhale.mcp.cwd',
        'MCP cwd path escapes the plugin root: `../..`',
      ],
      [
        'a cwd that is a file',
        stdio('node', 'cwd = "server.js"\n'),
        'codewhale.mcp.cwd',
        'MCP server `local` cwd is not a directory: server.js',
      ],
      [
        'a bad environment destination',
        stdio('node', 'env = { "1A" = "${B}" }\n'),
        'codewhale.mcp.env-name',
        'MCP environment destination must be an ASCII environment variable name',
      ],
      [
        'a bad environment source',
        stdio('node', 'env = { A = "${1B}" }\n'),
        'codewhale.mcp.env-name',
        'MCP environment source must be an ASCII environment variable name',
      ],
      [
        'a reference followed by text',
        stdio('node', 'env = { A = "${B}x" }\n'),
        'codewhale.mcp.env-value',
        'MCP server `local` environment values must be exact `${SOURCE_ENV}` references',
      ],
      [
        'a credential argument',
        stdio('node', 'args = ["--token", "v"]\n'),
        'codewhale.mcp.credential-argument',
        'MCP server `local` argument #1 embeds a credential-bearing value; pass credentials through a reviewed environment mapping instead',
      ],
      [
        'a URL that does not parse',
        remote('').replace('https://example.invalid/mcp', 'https://exa mple.invalid/mcp'),
        'codewhale.mcp.url-invalid',
        'remote MCP URL is invalid',
      ],
      [
        'an ftp URL',
        remote('').replace('https://', 'ftp://'),
        'codewhale.mcp.url-invalid',
        'MCP server `remote` URL must use http or https and include a host',
      ],
      [
        'a user name in the URL',
        remote('').replace('https://', 'https://user@'),
        'codewhale.mcp.url-credentials',
        'MCP server `remote` URL must not embed credentials; use environment-backed authentication',
      ],
      [
        'an empty transport',
        remote('transport = " "\n'),
        'codewhale.mcp.transport',
        'MCP transport must contain 1-32 non-whitespace characters',
      ],
      [
        'a websocket transport',
        remote('transport = "websocket"\n'),
        'codewhale.mcp.transport',
        'MCP server `remote` transport must be `sse` when explicitly set',
      ],
      [
        'an empty header name',
        remote('env_headers = { "" = "SRC" }\n'),
        'codewhale.mcp.header-name',
        'MCP HTTP header name must contain 1-128 non-whitespace characters',
      ],
      [
        'a header name with a space',
        remote('env_headers = { "Bad Header" = "SRC" }\n'),
        'codewhale.mcp.header-name',
        'MCP HTTP header name is invalid',
      ],
      [
        'a bad header source',
        remote('env_headers = { X-Key = "1BAD" }\n'),
        'codewhale.mcp.env-name',
        'MCP header environment source must be an ASCII environment variable name',
      ],
      [
        'a bad bearer source',
        remote('bearer_token_env_var = "BAD-NAME"\n'),
        'codewhale.mcp.env-name',
        'MCP bearer environment source must be an ASCII environment variable name',
      ],
    ];
    for (const [name, extra, code, message] of cases)
      it(`says it of ${name}`, () => assert.deepEqual(only(extra, code), [message]));

    for (const key of [
      'token',
      'api-key',
      'apikey',
      'password',
      'passwd',
      'secret',
      'client-secret',
      'authorization',
      'auth-token',
      'access-key',
      'private-key',
      'credential',
      'credentials',
    ]) {
      it(`flags --${key}=v and --my-${key}=v, and --${key}x=v not`, () => {
        const r = run(stdio('node', `args = ["--${key}=v", "--my_${key.replace(/-/g, '_')}=v", "--${key}x=v"]\n`));
        assert.deepEqual(
          r.snapshot.diagnostics
            .filter((d) => d.code === 'codewhale.mcp.credential-argument')
            .map((d) => d.message.replace(/ embeds.*/, '')),
          ['MCP server `local` argument #1', 'MCP server `local` argument #2'],
        );
      });
    }
    it('strips only the leading dashes of a key: my--token=v is flagged as ending in -token', () =>
      refused(stdio('node', 'args = ["my--token=v"]\n'), 'codewhale.mcp.credential-argument'));

    it('reads a relative path only without a leading dash: --opt/../x and a bare .. pass', () =>
      accepted(stdio('node', 'args = ["--opt/../x", ".."]\n')));
    it('accepts empty args and env on a remote server: upstream reads an empty list or table as absent', () => {
      accepted(remote('args = []\n'));
      f.remove();
      f = new Fixture();
      accepted(remote('env = {}\n'));
    });
    it('accepts plain http to any 127.x.y.z address', () =>
      accepted(
        `[capabilities]\nnetwork_hosts = ["127.10.200.30"]\n[mcp_servers.remote]\nurl = "http://127.10.200.30/mcp"\n`,
      ));
    it('reports a control character in the command once', () =>
      assert.equal(only(stdio('no\tde'), 'codewhale.mcp.command').length, 1));

    it('points a field that may not be there at its key, not its value', () => {
      const at = (extra: string, code: string, key: string) => {
        const r = run(extra);
        const d = r.snapshot.diagnostics.find((x) => x.code === code);
        assert.ok(d, `${code} in ${r.codes.join(', ')}`);
        const line = fs.readFileSync(f.path(`${DIR}/plugin.toml`), 'utf8').split('\n')[d.range.start.line] ?? '';
        assert.equal(d.range.start.character, line.indexOf(key), `${code} at ${key} in ${JSON.stringify(line)}`);
        f.remove();
        f = new Fixture();
      };
      at(stdio('node', 'transport = "sse"\n'), 'codewhale.mcp.stdio-remote-fields', 'transport');
      at(remote('scopes = ["a"]\n'), 'codewhale.mcp.oauth-disabled', 'scopes');
      at(stdio('node', 'env = { "1A" = "${B}" }\n'), 'codewhale.mcp.env-name', '"1A"');
      at(remote('env_headers = { "Bad Header" = "SRC" }\n'), 'codewhale.mcp.header-name', '"Bad Header"');
      at(
        `[capabilities]\nnetwork_hosts = ["example.invalid"]\n[mcp_servers.both]\ncommand = "node"\nurl = "https://example.invalid/mcp"\n`,
        'codewhale.mcp.command-or-url',
        '"node"',
      );
    });
  });

  describe("in upstream's order: its first error is the one a refusal names (codewhale.md §4, §4.7)", () => {
    it('checks every argument for credentials before any argument for its path', () => {
      const credential = (i: number, what: string) =>
        `MCP server \`local\` argument #${i} ${what}; pass credentials through a reviewed environment mapping instead`;
      assert.deepEqual(run(stdio('node', 'args = ["/tmp/server.js", "--token", "v"]\n')).messages, [
        credential(2, 'embeds a credential-bearing value'),
        'MCP server `local` argument #1 must not use an absolute path',
      ]);
      f.remove();
      f = new Fixture();
      assert.deepEqual(run(stdio('node', 'args = ["../up/server.js", "sk-live"]\n')).messages, [
        credential(2, 'looks like a literal credential'),
        'MCP server `local` argument #1 escapes the plugin root',
      ]);
    });
  });
});
