import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lostArgument, lostArgumentProblem } from '../../src/cli/argumentBytes';
import { Fixture } from './helpers/fixture';

/**
 * Node decodes argv as UTF-8 with U+FFFD for a byte that is not: a path argument whose
 * name is not UTF-8 named another file, one a repository put beside it under the U+FFFD
 * spelling, and `skillgate hash` printed that other bundle's token (src/cli/argumentBytes.ts).
 */
describe('CLI arguments whose bytes are not UTF-8', () => {
  const cmdline =
    (...parts: (string | Buffer)[]) =>
    () =>
      Buffer.concat(parts.flatMap((p) => [typeof p === 'string' ? Buffer.from(p) : p, Buffer.from([0])]));
  const ff = Buffer.from('p\xff', 'latin1');

  it('finds the argument whose bytes Node lost, after node options and the script', () => {
    assert.equal(lostArgument(['hash', 'p\ufffd'], cmdline('node', 'cli.js', 'hash', ff)), 1);
    assert.equal(
      lostArgument(
        ['--workspace', 'p\ufffd', 'list'],
        cmdline('node', '--enable-source-maps', 'cli.js', '--workspace', ff, 'list'),
      ),
      1,
    );
  });

  it('takes an argument really spelled with U+FFFD, and any argument without it, as given', () => {
    assert.equal(lostArgument(['hash', 'p\ufffd'], cmdline('node', 'cli.js', 'hash', 'p\ufffd')), undefined);
    assert.equal(
      lostArgument(['hash', 'p'], () => assert.fail('no U+FFFD: the command line is not read')),
      undefined,
    );
    // No /proc (macOS, Windows: file names there are Unicode text).
    assert.equal(
      lostArgument(['hash', 'p\ufffd'], () => undefined),
      undefined,
    );
  });

  it('says to give such an item as `list` prints it, quoted for the shell, in the \\u{hex} form', () => {
    const problem = lostArgumentProblem(['show', 'p\ufffd'], cmdline('node', 'cli.js', 'show', ff)) ?? '';
    // Unquoted, a shell reads `\u` as `u`: the id must reach the CLI with its backslash.
    assert.match(problem, /in single quotes \(`'…\\u\{dcff\}…'` for the byte 0xFF\)$/);
  });

  it('refuses when the arguments cannot be matched with their bytes', () => {
    assert.equal(lostArgument(['a', 'b', 'p\ufffd'], cmdline('b', ff)), 2);
  });

  it('keeps `hash` from hashing the U+FFFD twin of the bundle it was given', function () {
    this.timeout(60000);
    const f = new Fixture();
    try {
      const root = Buffer.from(fs.realpathSync.native(f.root));
      const bundle = (dir: Buffer, name: string) => {
        fs.mkdirSync(Buffer.concat([dir, Buffer.from('/skills')]), { recursive: true });
        fs.writeFileSync(
          Buffer.concat([dir, Buffer.from('/plugin.toml')]),
          `schema_version = 1\n\n[plugin]\nname = "${name}"\nversion = "1.0.0"\n\n[skills]\npath = "skills"\n`,
        );
      };
      bundle(Buffer.concat([root, Buffer.from('/p\xff', 'latin1')]), 'hostile');
      bundle(Buffer.concat([root, Buffer.from('/p\ufffd')]), 'benign');
      const cli = path.resolve(__dirname, '../../src/cli/cli.ts');
      // The shell passes the byte 0xFF itself, which a string argument from Node cannot.
      const r = spawnSync(
        '/bin/sh',
        ['-c', `exec "$0" -r tsx/cjs "$1" hash "$(printf '%s/p\\377' "$2")"`, process.execPath, cli, f.root],
        { encoding: 'utf8', cwd: path.resolve(__dirname, '../..') },
      );
      assert.doesNotMatch(r.stdout, /benign/);
      assert.equal(r.status, 2, r.stdout + r.stderr);
      assert.match(r.stderr, /argument 2 is not valid UTF-8/);
    } finally {
      f.remove();
    }
  });
});
