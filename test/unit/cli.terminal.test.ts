import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { run } from '../../src/cli/main';
import { Fixture } from './helpers/fixture';
import { assertDisplaySafe } from './helpers/displaySafe';

/**
 * Issue 10: a repository names files, bundles, skills, hooks and tools; none of it may
 * reach the terminal raw. Every command's text output, on stdout and on stderr, holds no
 * control character but `\n`, no C1, no bidi override and no lone surrogate, while still
 * showing the hostile names (as `\u{hex}`). JSON and SARIF keep the raw values, safely escaped.
 */

/** What a file name can hold (anything but `/` and NUL): cursor up, erase line, an OSC title, a C1 CSI, a right-to-left override, a tab and a newline. */
const NAME = '\x1b[1A\x1b[2K\x1b]0;pwned\x07\u009b\u202e\t\n';
/** The same as JSON escapes, plus a lone surrogate (what surrogateescape makes of a byte that is not UTF-8). */
const JSON_TEXT = `${[...NAME].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}\\udcff`;
const MARKED = '\\u{1b}[1A\\u{1b}[2K\\u{1b}]0;pwned\\u{7}\\u{9b}\\u{202e}\\u{9}\\u{a}';

describe('terminal output of every CLI command (issue 10)', function () {
  this.timeout(60000);
  let f: Fixture;
  let ws: string;
  const outputs: string[] = [];
  const cli = async (
    args: string[],
    env: NodeJS.ProcessEnv = {},
  ): Promise<{ code: number; out: string; err: string }> => {
    let out = '';
    let err = '';
    const code = await run(args, {
      out: (t) => (out += t),
      err: (t) => (err += t),
      env: { SKILLGATE_STATE_DIR: f.path('state'), ...env },
      cwd: ws,
    });
    const label = `skillgate ${args.map((a) => JSON.stringify(a)).join(' ')}`;
    assertDisplaySafe(out, `${label} (stdout)`);
    assertDisplaySafe(err, `${label} (stderr)`);
    outputs.push(out + err);
    return { code, out, err };
  };
  const json = async (args: string[]) => JSON.parse((await cli([...args, '--json', '--no-user'])).out);

  beforeEach(() => {
    f = new Fixture();
    outputs.length = 0;
    ws = f.mkdir(`ws${NAME}`);
    const cw = `ws${NAME}/.codewhale/plugins`;
    // A valid bundle whose directory, skill directory and files carry the hostile name.
    f.write(
      `${cw}/ok${NAME}/plugin.toml`,
      'schema_version = 1\n[plugin]\nname = "ok"\nversion = "1.0.0"\n[skills]\npath = "skills"\n[mcp_servers.local]\ncommand = "node"\nargs = ["server.js"]\n',
    );
    f.write(`${cw}/ok${NAME}/skills/s${NAME}/SKILL.md`, '---\nname: s\ndescription: a skill\n---\nbody\n');
    f.write(`${cw}/ok${NAME}/f${NAME}.txt`, 'line\n');
    // A bundle with a file whose name is not UTF-8 (bytes 0xFF 0x9B).
    f.write(`${cw}/raw${NAME}/plugin.toml`, 'schema_version = 1\n[plugin]\nname = "rawnames"\nversion = "1.0.0"\n');
    fs.writeFileSync(
      Buffer.concat([Buffer.from(f.path(`${cw}/raw${NAME}/raw`)), Buffer.from([0xff, 0x9b]), Buffer.from('.txt')]),
      'x',
    );
    // An invalid bundle: its name, description and MCP server carry control and bidi characters (diagnostics quote them).
    f.write(
      `${cw}/bad${NAME}/plugin.toml`,
      `schema_version = 1\n[plugin]\nname = "bad\\u001b[2K\\u202e"\nversion = "1.0.0"\ndescription = "d\\u001b]0;pwned\\u0007\\u009b"\n[mcp_servers.x]\ncommand = "node\\u001b[2K"\nargs = ["a\\u009b"]\nenabled_tools = ["t\\u202e"]\n`,
    );
    // Rivumi: a skill, hooks and plugins named and described with the same characters and a lone surrogate.
    f.write(`ws${NAME}/.rivumi/skills/r${NAME}.md`, `---\nname: r\ndescription: "rs\\e[1A\\u202e"\n---\nbody\n`);
    f.write(
      `ws${NAME}/.rivumi/hooks.json`,
      `{"pre_tool_use":[{"command":["bash","h${JSON_TEXT}.sh"],"tools":["t${JSON_TEXT}"]}]}`,
    );
    f.write(`ws${NAME}/.rivumi/h${NAME}.sh`, 'echo\n');
    // A description is a str with a length limit, which refuses a lone surrogate (pydantic's string_unicode):
    // q's carries the other characters; the hooks' argv and tools (plain str) carry the lone surrogate.
    f.write(
      `ws${NAME}/.rivumi/plugins/q.json`,
      `{"name":"q","description":"lone ${JSON_TEXT.replace('\\udcff', '')}"}`,
    );
    f.write(`ws${NAME}/.rivumi/plugins/p${NAME}.json`, `{"name":"p${JSON_TEXT}","description":"${JSON_TEXT}"}`);
  });
  afterEach(() => f.remove());

  it('list, validate, show and explain of every item: escaped, one line per row, the hostile names still shown', async () => {
    const list = await cli(['list', '--no-user']);
    assert.ok(list.out.includes(`Workspace ${f.root}/ws${MARKED}`), list.out);
    const row = list.out.split('\n').find((l) => l.includes(` p${MARKED} `));
    assert.match(row ?? '', /^ {4}plugin +p.* rejected /, list.out);
    // No row is broken: every item row starts with its kind.
    for (const line of list.out.split('\n').slice(1, -3))
      assert.match(line, /^( {2}(Rivumi|Codewhale)| {4,6}\S)/, line);
    const validate = await cli(['validate', '--no-user']);
    assert.equal(validate.code, 1);
    // Every diagnostic is one compiler-style line.
    for (const line of validate.out.split('\n').slice(0, -2))
      assert.match(line, /^\.\S.*:\d+:\d+: (error|warning|information) [a-z.-]+: /, line);
    assert.ok(validate.out.includes('\\u{1b}[2K\\u{202e}'), validate.out);
    const doc = await json(['list']);
    for (const item of doc.items as { id: string }[]) {
      await cli(['show', item.id, '--no-user']);
      await cli(['explain', item.id, '--no-user']);
    }
    assert.ok(
      outputs.some((o) => o.includes('raw\ufffd\ufffd.txt') || o.includes('raw\\u{dcff}\\u{dc9b}.txt')),
      'the file whose name is not UTF-8 is shown',
    );
    assert.ok(outputs.some((o) => o.includes(`f${MARKED}.txt`)));
    assert.ok(
      outputs.some((o) => o.includes(`description: lone ${MARKED}`)),
      'the description is shown',
    );
    assert.ok(
      outputs.some((o) => /tools: t\\u\{1b\}.*\\u\{dcff\}/.test(o)),
      'the lone surrogate (a hook tool) is shown',
    );
  });

  it('review, trust, enable, check, disable, revoke, doctor and hash: escaped on stdout and stderr', async () => {
    const doc = await json(['list']);
    const ok = doc.items.find((i: { name: string; parent: string | null }) => i.name === 'ok' && i.parent === null);
    for (const bundle of doc.items.filter((i: { trust: string | null }) => i.trust !== null))
      await cli(['review', bundle.id, '--no-user']);
    assert.equal((await cli(['trust', ok.id, 'not-a-token', '--no-user'])).code, 1);
    const token = (await json(['review', ok.id])).reviewToken as string;
    const t = await cli(['trust', ok.id, token, '--no-user']);
    assert.equal(t.code, 0, t.err);
    assert.equal((await cli(['enable', ok.id, '--no-user'])).code, 0);
    // Drift with hostile bytes: the diff body is escaped line by line.
    f.write(`ws${NAME}/.codewhale/plugins/ok${NAME}/f${NAME}.txt`, `line\n\x1b[1A\x1b[2Kfake ok\r\u202eevil\u009b\n`);
    const review = await cli(['review', ok.id, '--no-user']);
    assert.ok(review.out.includes(`M f${MARKED}.txt`), review.out);
    assert.ok(review.out.includes('+\\u{1b}[1A\\u{1b}[2Kfake ok\\u{d}\\u{202e}evil\\u{9b}'), review.out);
    const check = await cli(['check', '--no-user'], { RIVUMI_ENABLE_PROJECT_HOOKS: '1' });
    assert.equal(check.code, 1);
    assert.ok(check.err.includes(`.codewhale/plugins/ok${MARKED}`), check.err);
    for (const line of check.err.split('\n').slice(1, -1)) assert.match(line, /^ {2}(rivumi|codewhale) /, line);
    await cli(['disable', ok.id, '--no-user']);
    await cli(['revoke', ok.id, '--no-user']);
    await cli(['trust', ok.id, (await json(['review', ok.id])).reviewToken, '--no-user']);
    fs.rmSync(f.path(`ws${NAME}/.codewhale/plugins/ok${NAME}`), { recursive: true });
    const doctor = await cli(['doctor']);
    assert.ok(
      doctor.out.includes(`stale receipt: ok (${f.root}/ws${MARKED}/.codewhale/plugins/ok${MARKED} no longer exists)`),
      doctor.out,
    );
    await cli(['hash', f.path(`ws${NAME}/.codewhale/plugins/bad${NAME}`)]);
    await cli(['hash', f.path(`ws${NAME}/.rivumi/plugins/p${NAME}.json`)]);
    await cli(['hash', f.path(`ws${NAME}/nothing${NAME}`)]);
  });

  it('install and usage errors: escaped on stdout and stderr', async () => {
    f.write(`pkg${NAME}/review.md`, '---\nname: review\n---\nbody');
    f.write(`pkg${NAME}/plugin.json`, JSON.stringify({ name: 'review-pack', skills: [{ path: 'review.md' }] }));
    f.write(`bad${NAME}/plugin.json`, `{"name":"x${JSON_TEXT}"}`);
    f.mkdir(`repo${NAME}`);
    const installed = await cli([
      'install',
      f.path(`pkg${NAME}/plugin.json`),
      '--no-user',
      '--workspace',
      f.path(`repo${NAME}`),
    ]);
    assert.equal(installed.code, 0, installed.err);
    assert.equal((await cli(['install', f.path(`bad${NAME}/plugin.json`), '--no-user'])).code, 1);
    assert.equal((await cli(['install', f.path(`missing${NAME}.json`), '--no-user'])).code, 1);
    assert.equal((await cli(['show', `nothing${NAME}`, '--no-user'])).code, 2);
    assert.equal((await cli([`frob${NAME}`])).code, 2);
    assert.equal((await cli(['list', `--bogus${NAME}`])).code, 2);
    assert.equal((await cli(['list', '--format', `x${NAME}`])).code, 2);
    assert.ok(outputs.every((o) => !o.includes('\x1b')));
    assert.ok(outputs.some((o) => o.includes(`frob${MARKED}`)));
  });

  it('JSON and SARIF keep the raw values, with every unsafe character as a JSON escape', async () => {
    for (const args of [
      ['list', '--json'],
      ['validate', '--format', 'json'],
      ['validate', '--format', 'sarif'],
    ]) {
      const r = await cli([...args, '--no-user']);
      assert.doesNotThrow(() => JSON.parse(r.out));
      assert.ok(
        r.out.includes('\\u001b[1A\\u001b[2K\\u001b]0;pwned\\u0007\\u009b\\u202e\\t\\n'),
        `${args.join(' ')}: the raw name, escaped`,
      );
    }
    const doc = await json(['list']);
    assert.ok(doc.items.some((i: { path: string }) => i.path === `.codewhale/plugins/ok${NAME}`));
    assert.ok(doc.items.some((i: { name: string }) => i.name === `p${NAME}`));
    const q = await json(['show', 'q']);
    assert.equal(q.detail.description, `lone ${NAME}`);
  });
});

describe('SARIF artifact locations (issue 11)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  it('percent-encodes #, ?, % and non-ASCII in bundle directories, so each URI resolves to its own file', async () => {
    for (const dir of ['a#b', 'a?b', 'a%20b', 'ü'])
      f.write(
        `ws/.codewhale/plugins/${dir}/plugin.toml`,
        'schema_version = 1\n[plugin]\nname = "x"\nversion = "1.0.0"\nunknown = 1\n',
      );
    let out = '';
    await run(['validate', '--format', 'sarif', '--no-user'], {
      out: (t) => (out += t),
      err: () => undefined,
      env: { SKILLGATE_STATE_DIR: f.path('state') },
      cwd: f.path('ws'),
    });
    const sarif = JSON.parse(out);
    const uris = new Set<string>(
      sarif.runs[0].results.map(
        (r: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }) =>
          r.locations[0]?.physicalLocation.artifactLocation.uri,
      ),
    );
    for (const uri of [
      '.codewhale/plugins/a%23b/plugin.toml',
      '.codewhale/plugins/a%3Fb/plugin.toml',
      '.codewhale/plugins/a%2520b/plugin.toml',
      '.codewhale/plugins/%C3%BC/plugin.toml',
    ])
      assert.ok(uris.has(uri), `${uri} in ${[...uris].join(', ')}`);
    // Each resolves, against the workspace, to exactly the file it names.
    const base = sarif.runs[0].originalUriBaseIds['%SRCROOT%'].uri as string;
    for (const uri of uris) {
      const resolved = new URL(uri, base);
      assert.equal(resolved.hash + resolved.search, '');
      assert.ok(fs.existsSync(decodeURIComponent(resolved.pathname)), `${uri} resolves to ${resolved.pathname}`);
    }
    assert.equal(path.basename(f.root).length > 0, true);
  });
});
