import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { runCli, type CliResult } from './helpers/runCli';
import { checkWorkspaces, parseCommandLine, UsageError } from '../../src/cli/options';
import { Fixture, writeW } from './helpers/fixture';

/**
 * The command line's error paths as a user meets them (spec/cli.md "Exit codes"): a usage
 * error is exit 2 with its sentence on standard error and nothing on standard output; a
 * place Skillgate cannot look into is refused, never reported as empty.
 */
describe('the CLI error paths (spec/cli.md)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  // Hermetic: a trust store beside the workspace, never the real per-user one.
  const cli = (args: string[], cwd = f.path('ws')): Promise<CliResult> =>
    runCli([...args, '--no-user'], { SKILLGATE_STATE_DIR: f.path('state') }, cwd);

  it('prints the usage to standard error, not standard output, when no command is given (exit 2)', async () => {
    f.mkdir('ws');
    for (const args of [[], ['--json']]) {
      const r = await runCli(args, { SKILLGATE_STATE_DIR: f.path('state') }, f.path('ws'));
      assert.equal(r.code, 2, args.join(' '));
      // A script reading `--json` output gets no text that is not JSON.
      assert.equal(r.out, '', args.join(' '));
      assert.match(r.err, /^skillgate: no command given\nskillgate <command> \[arguments\] \[options\]\n/);
    }
  });

  describe('a folder Skillgate cannot search is refused, not indexed as empty (exit 2)', () => {
    const denied = (refused: string) => (dir: string) => {
      if (dir === refused)
        throw Object.assign(new Error(`EACCES: permission denied, access '${dir}'`), { code: 'EACCES' });
    };

    it('refuses a --workspace, --codewhale-home or --eva-home it may not search', () => {
      const ws = f.mkdir('ws');
      const home = f.mkdir('home');
      for (const [flag, dir] of [
        ['--workspace', ws],
        ['--codewhale-home', home],
        ['--eva-home', home],
      ] as const) {
        const cmd = parseCommandLine(['check', flag, dir], {}, f.root);
        assert.throws(
          () => checkWorkspaces(cmd, f.root, denied(dir)),
          (e: unknown) =>
            e instanceof UsageError &&
            e.message === `${flag} ${dir} cannot be searched (EACCES: permission denied), so nothing in it can be seen`,
          flag,
        );
        // The same folder searchable: accepted.
        assert.doesNotThrow(() => checkWorkspaces(cmd, f.root, () => undefined), flag);
      }
    });

    it('refuses a current directory it may not search when it is the workspace, and not for `hash` or `doctor`', () => {
      const ws = f.mkdir('ws');
      const check = parseCommandLine(['check'], {}, ws);
      assert.throws(
        () => checkWorkspaces(check, ws, denied(ws)),
        /^Error: the current directory cannot be searched \(EACCES: permission denied\), so nothing in it can be seen; pass --workspace <dir>$/,
      );
      for (const argv of [['hash', '/elsewhere/bundle'], ['doctor']])
        assert.doesNotThrow(() => checkWorkspaces(parseCommandLine(argv, {}, ws), ws, denied(ws)), argv[0]);
    });

    it('exits 2 for a --workspace with no permissions, where the file system enforces them (not as root)', async function () {
      if (process.platform === 'win32' || process.getuid?.() === 0) this.skip();
      writeW(f);
      fs.chmodSync(f.path('ws'), 0);
      try {
        const r = await cli(['check', '--workspace', f.path('ws')], f.root);
        assert.equal(r.code, 2, r.err);
        assert.match(r.err, /--workspace .* cannot be searched/);
        assert.equal(r.out, '');
      } finally {
        fs.chmodSync(f.path('ws'), 0o755);
      }
    });
  });

  it('never replaces a FIFO, socket, device or directory named with `lock --lock`, and writes nothing (exit 2)', async function () {
    if (process.platform === 'win32') this.skip();
    writeW(f);
    f.mkdir('pins');
    execFileSync('mkfifo', [f.path('pins/fifo.lock')]);
    f.mkdir('pins/dir.lock');
    for (const [name, what] of [
      ['fifo.lock', 'not a regular file'],
      ['dir.lock', 'a directory'],
    ] as const) {
      const target = f.path('pins', name);
      const r = await cli(['lock', '--lock', target]);
      assert.equal(r.code, 2, r.err);
      assert.equal(
        r.err,
        `skillgate: cannot write ${target}: it is ${what}; a lock is written only as a regular file\n`,
      );
      assert.equal(r.out, '');
    }
    assert.ok(fs.lstatSync(f.path('pins/fifo.lock')).isFIFO(), 'the FIFO is still a FIFO');
    assert.deepEqual(fs.readdirSync(f.path('pins')).sort(), ['dir.lock', 'fifo.lock'], 'no temporary file left');
    assert.deepEqual(fs.readdirSync(f.path('pins/dir.lock')), []);
  });

  it('says a FIFO given to `hash` is neither a bundle directory nor a manifest file (exit 1)', async function () {
    if (process.platform === 'win32') this.skip();
    f.mkdir('ws');
    execFileSync('mkfifo', [f.path('ws/plugin.toml')]);
    const r = await cli(['hash', 'plugin.toml']);
    assert.equal(r.code, 1);
    assert.equal(
      r.err,
      `skillgate: ${f.path('ws/plugin.toml')} is neither a directory nor a regular file; give a bundle directory or a manifest file\n`,
    );
  });
});
