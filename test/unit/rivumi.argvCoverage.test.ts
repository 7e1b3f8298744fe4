import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { Fixture } from './helpers/fixture';
import { hookArgvCoverage } from '../../src/core/systems/rivumi/hookArgvFiles';
import { MAX_HASHED_BYTES } from '../../src/core/hashing/treeRead';

/**
 * Which workspace files a hook's argv names, element by element (trust.md "Hook argv
 * files, exactly"): what each candidate is, what a walk from the workspace folder finds,
 * and the refusal for each case trust cannot cover.
 */
describe('Rivumi hook argv: the files an argv names, and what trust cannot cover', () => {
  let f: Fixture;
  let ws: string;
  beforeEach(() => {
    f = new Fixture();
    ws = f.mkdir('ws');
  });
  afterEach(() => f.remove());

  const covered = (argv: string[]) => hookArgvCoverage(ws, argv).files.map((b) => b.toString('latin1'));
  const problems = (argv: string[]) => hookArgvCoverage(ws, argv).problems.map((p) => [p.argIndex, p.code, p.message]);

  describe('candidates', () => {
    beforeEach(() => {
      for (const n of ['a.sh', 'b.js', 'c.py', 'd.sh', 'e.sh', 'sub/f.sh']) f.write(`ws/${n}`, 'x');
    });
    it('takes every element, argv[0] included', () => assert.deepEqual(covered(['a.sh', 'b.js']), ['a.sh', 'b.js']));
    it('takes the text after the first = of any element', () =>
      assert.deepEqual(covered(['node', '--require=b.js', 'X=c.py=1', 'S=a.sh']), ['b.js', 'a.sh']));
    it("takes a short option's attached value, never a long option or a bare dash", () =>
      assert.deepEqual(covered(['node', '-rb.js', '--a.sh', '-', '-d', '-xsub/f.sh']), ['b.js', 'sub/f.sh']));
    it('takes each word of an inline script, split at whitespace and shell punctuation', () =>
      assert.deepEqual(covered(['bash', '-c', '. ./a.sh && (d.sh|e.sh);`c.py`>"b.js"']), [
        'a.sh',
        'd.sh',
        'e.sh',
        'c.py',
        'b.js',
      ]));
    it('follows . and inner .. components inside the workspace', () =>
      assert.deepEqual(covered(['./sub/../a.sh', 'sub/./f.sh', './/c.py']), ['a.sh', 'sub/f.sh', 'c.py']));
    it('counts a file an element names twice once', () => assert.deepEqual(covered(['a.sh=a.sh']), ['a.sh']));
    it('skips an element holding NUL (the schema refuses it)', () =>
      assert.deepEqual(hookArgvCoverage(ws, ['a.sh\0']), { files: [], problems: [], watch: [] }));
  });

  describe('what a candidate reaches', () => {
    it('names no file for a missing path or a directory, and watches the path', () => {
      f.mkdir('ws/dir');
      const c = hookArgvCoverage(ws, ['python', 'dir', 'missing/x.py']);
      assert.deepEqual([c.files, c.problems], [[], []]);
      assert.deepEqual(c.watch, [f.path('ws/python'), f.path('ws/dir'), f.path('ws/missing/x.py')]);
    });
    it('names no file below a regular file', () => {
      f.write('ws/a.sh', 'x');
      const c = hookArgvCoverage(ws, ['a.sh/x']);
      assert.deepEqual([c.files, c.problems, c.watch], [[], [], [f.path('ws/a.sh')]]);
    });
    it('names no file and watches nothing for "." or an element that is all slashes and dots', () =>
      assert.deepEqual(hookArgvCoverage(ws, ['.', './']), { files: [], problems: [], watch: [] }));
    it('covers an absolute path inside the workspace as a relative one', () => {
      f.write('ws/a.sh', 'x');
      assert.deepEqual(covered([f.path('ws/a.sh')]), ['a.sh']);
    });
    it('covers an absolute path inside the workspace through its canonical path', () => {
      f.write('ws/a.sh', 'x');
      f.symlink('ws', 'alias');
      const c = hookArgvCoverage(f.path('alias'), [f.path('ws/a.sh')]);
      assert.deepEqual(
        c.files.map((b) => b.toString()),
        ['a.sh'],
      );
    });
    it('names a host file for an absolute path outside the workspace, existing or not, with no problem', () =>
      assert.deepEqual(hookArgvCoverage(ws, ['/bin/sh', '/usr/bin/env', '/nonexistent/x', f.path('other/x')]), {
        files: [],
        problems: [],
        watch: [],
      }));
    it('refuses an absolute path through a link into the workspace even before the file it names exists', () => {
      f.symlink('ws', 'alias');
      assert.deepEqual(
        problems([f.path('alias/later.sh'), f.path('alias/new/dir/later.sh')]).map(([i, code]) => [i, code]),
        [
          [0, 'rivumi.hook.argv-uncovered'],
          [1, 'rivumi.hook.argv-uncovered'],
        ],
      );
    });
    it('finds what 30,000 missing components lead into with one look per halving, within the default timeout', () => {
      // Each ancestor was resolved from the longest down: 1 s for one such 60 KB argument.
      f.mkdir('ws/in');
      f.symlink('ws', 'alias');
      f.mkdir('other/dir');
      const deep = 'x/'.repeat(30_000);
      const argv = [];
      for (let i = 0; i < 32; i++) argv.push(f.path(`alias/in/${i}/${deep}s.sh`), f.path(`other/dir/${i}/${deep}s.sh`));
      assert.deepEqual(
        problems(argv).map(([i, code]) => [i, code]),
        argv.flatMap((_, i) => (i % 2 === 0 ? [[i, 'rivumi.hook.argv-uncovered']] : [])),
      );
    });
  });

  describe('refusals', () => {
    it('refuses .. above the workspace (through an existing directory, as the kernel walks it)', () => {
      f.mkdir('ws/x');
      assert.deepEqual(problems(['sh', 'x/../../out.sh']), [
        [
          1,
          'rivumi.hook.argv-uncovered',
          "hook argument 'x/../../out.sh' names 'x/../../out.sh' outside the workspace: it cannot be covered by trust",
        ],
      ]);
      // Through a missing directory the kernel finds nothing: no file is named.
      assert.deepEqual(problems(['sh', 'y/../../out.sh']), []);
    });
    it('refuses an element once, at the first name it cannot cover, and counts the others', () => {
      f.write('ws/real.sh', 'x');
      f.symlink('real.sh', 'ws/link.sh');
      assert.deepEqual(problems(['bash', '-c', '. ../a.sh; . link.sh; . real.sh', '../b.sh']), [
        [
          2,
          'rivumi.hook.argv-uncovered',
          "hook argument '. ../a.sh; . link.sh; . real.sh' names '../a.sh' outside the workspace: it cannot be covered by trust, nor can 1 more name in this argument",
        ],
        [
          3,
          'rivumi.hook.argv-uncovered',
          "hook argument '../b.sh' names '../b.sh' outside the workspace: it cannot be covered by trust",
        ],
      ]);
    });
    it('quotes a 64 KiB inline script of 9,000 names outside the workspace once, not once per name', () => {
      // One problem per name quoted the whole element in each: gigabytes, and the CLI ran out of memory.
      const script = Array.from({ length: 9_000 }, (_, i) => `. ../${i}.sh`).join('; ');
      const c = hookArgvCoverage(ws, ['bash', '-c', script]);
      assert.deepEqual(
        c.problems.map((p) => [p.argIndex, p.marker.equals(Buffer.from(script))]),
        [[2, true]],
      );
      assert.match(
        c.problems[0]?.message ?? '',
        /names '\.\.\/0\.sh' outside the workspace: it cannot be covered by trust, nor can 8999 more names in this argument$/,
      );
    });
    it('refuses a script that is a symbolic link, and one reached through a linked directory', () => {
      f.write('ws/real.sh', 'x');
      f.symlink('real.sh', 'ws/link.sh');
      f.mkdir('ws/realdir');
      f.symlink('realdir', 'ws/linkdir');
      assert.deepEqual(problems(['link.sh', 'linkdir/x.sh']), [
        [
          0,
          'rivumi.hook.argv-uncovered',
          "hook script 'link.sh' is a symbolic link (Rivumi runs whatever it points to, which trust cannot pin): it cannot be covered by trust",
        ],
        [
          1,
          'rivumi.hook.argv-uncovered',
          "hook script 'linkdir/x.sh' is reached through the symbolic link 'linkdir' (Rivumi follows it, and trust cannot pin where it points): it cannot be covered by trust",
        ],
      ]);
    });
    it('refuses a script too large to hash: its bytes could change and the content hash would not', () => {
      // Sparse: the size is past the limit without writing 64 MiB.
      fs.writeFileSync(f.path('ws/big.sh'), 'echo one\n');
      fs.truncateSync(f.path('ws/big.sh'), MAX_HASHED_BYTES + 1);
      f.write('ws/small.sh', 'x');
      fs.truncateSync(f.path('ws/small.sh'), MAX_HASHED_BYTES);
      const c = hookArgvCoverage(ws, ['sh', 'big.sh', 'small.sh']);
      assert.deepEqual(
        c.files.map((b) => b.toString('latin1')),
        ['small.sh'],
      );
      assert.deepEqual(
        c.problems.map((p) => [p.argIndex, p.code, p.message]),
        [
          [
            1,
            'rivumi.hook.argv-uncovered',
            `hook script 'big.sh' is ${MAX_HASHED_BYTES + 1} bytes, past the ${MAX_HASHED_BYTES}-byte review limit, so Skillgate cannot hash what Rivumi runs: it cannot be covered by trust`,
          ],
        ],
      );
    });
    it('refuses a special file', () => {
      execFileSync('mkfifo', [f.path('ws/pipe')]);
      assert.deepEqual(problems(['cat', 'pipe']), [
        [
          1,
          'rivumi.hook.argv-uncovered',
          "hook argument 'pipe' names 'pipe', which is neither a regular file nor a directory: it cannot be covered by trust",
        ],
      ]);
    });
    it('refuses absolute paths that lead back into the workspace: . or .., /proc, /dev/fd, /dev/stdin, a link', () => {
      f.symlink('ws', 'alias');
      const argv = ['/tmp/./x', '/a/../b', '/proc/self/cwd/a.sh', '/dev/fd/3', '/dev/stdin', f.path('alias/a.sh')];
      assert.deepEqual(
        problems(argv).map(([i, code]) => [i, code]),
        argv.map((_, i) => [i, 'rivumi.hook.argv-uncovered']),
      );
      assert.match(
        String(problems(['/proc/1/cwd'])[0]?.[2]),
        /^hook argument '\/proc\/1\/cwd' names '\/proc\/1\/cwd', an absolute path that can lead into the workspace through a link: /,
      );
    });
    it('refuses an element Rivumi cannot encode, and marks it as such', () => {
      const c = hookArgvCoverage(ws, ['sh', 'a\ud800']);
      assert.deepEqual(
        c.problems.map((p) => [p.argIndex, p.code]),
        [[1, 'rivumi.hook.argv-encoding']],
      );
      assert.match(
        c.problems[0]?.message ?? '',
        /^hook argument is not valid Unicode: 'a\\ud800' holds a lone surrogate/,
      );
      assert.deepEqual(
        c.problems[0]?.marker,
        Buffer.concat([Buffer.from('\0utf16le\0'), Buffer.from('a\ud800', 'utf16le')]),
      );
    });
    it('marks an uncovered element by the bytes Rivumi runs', () => {
      const c = hookArgvCoverage(ws, ['../o\udcff']);
      assert.deepEqual(c.problems[0]?.marker, Buffer.from([0x2e, 0x2e, 0x2f, 0x6f, 0xff]));
    });
  });

  describe("an executable script's interpreter line (the kernel runs a relative interpreter from the hook's working directory)", () => {
    const script = (rel: string, text: string, mode = 0o755) => {
      f.write(`ws/${rel}`, text);
      fs.chmodSync(f.path(`ws/${rel}`), mode);
    };
    it('covers a relative interpreter, and one that env runs, and theirs in turn', () => {
      script('hook.sh', '#!bin/runner -x\necho hi\n');
      script('bin/runner', '#! /usr/bin/env  ./lib/inner.sh\n');
      script('lib/inner.sh', '#!/bin/sh\necho inner\n');
      assert.deepEqual(covered(['./hook.sh']), ['hook.sh', 'bin/runner', 'lib/inner.sh']);
      // The kernel really runs them so, from the working directory.
      assert.equal(execFileSync('./hook.sh', { cwd: ws, encoding: 'utf8' }), 'inner\n');
    });
    it('refuses a relative interpreter above the workspace, at the argv element that runs the script', () => {
      script('hook.sh', '#!../evil\n');
      assert.deepEqual(
        problems(['x', './hook.sh']).map(([i, code]) => [i, code]),
        [[1, 'rivumi.hook.argv-uncovered']],
      );
    });
    // fs/exec.c `exec_binprm`: `for (depth = 0;; depth++) { if (depth > 5) return -ELOOP; … }`, so the
    // file reached after five `#!` rewrites is still run when it is a binary (or read by one).
    it('covers the file five interpreter lines down, which the kernel still runs', () => {
      for (let i = 0; i < 5; i++) script(`s${i}`, `#!./s${i + 1}\n`);
      fs.copyFileSync('/bin/echo', f.path('ws/s5'));
      fs.chmodSync(f.path('ws/s5'), 0o755);
      assert.deepEqual(covered(['./s0']), ['s0', 's1', 's2', 's3', 's4', 's5']);
      assert.deepEqual(problems(['./s0']), []);
      // The kernel really runs s5 (echo), with each script's path after it.
      assert.equal(execFileSync('./s0', ['ran'], { cwd: ws, encoding: 'utf8' }), './s4 ./s3 ./s2 ./s1 ./s0 ran\n');
    });
    it('refuses a file further down than the kernel rewrites: reached through an exec that starts the count again (env)', () => {
      for (let i = 0; i < 6; i++) script(`s${i}`, `#!/usr/bin/env ./s${i + 1}\n`);
      script('s6', '#!/bin/sh\necho deep\n');
      assert.deepEqual(covered(['./s0']), ['s0', 's1', 's2', 's3', 's4', 's5']);
      assert.deepEqual(problems(['./s0']), [
        [
          0,
          'rivumi.hook.argv-uncovered',
          "hook argument './s0' leads to './s6' (on the #! line of 's5') through more than 5 interpreter lines, further than Skillgate follows them: it cannot be covered by trust",
        ],
      ]);
      // env execs each next script afresh, so the kernel's count starts again and s6 runs.
      assert.equal(execFileSync('./s0', { cwd: ws, encoding: 'utf8' }), 'deep\n');
    });
    it('refuses nothing further down that is covered nearer the hook already', () => {
      for (let i = 0; i < 5; i++) script(`s${i}`, `#!/usr/bin/env ./s${i + 1}\n`);
      script('s5', '#!/usr/bin/env s0\n');
      assert.deepEqual(covered(['./s0']), ['s0', 's1', 's2', 's3', 's4', 's5']);
      assert.deepEqual(problems(['./s0']), []);
    });
    // fs/binfmt_script.c `load_script`: the interpreter and its argument are C strings, so a NUL
    // ends each; a NUL right after the interpreter leaves no argument at all.
    it('reads the interpreter and its argument up to a NUL, as the kernel does', () => {
      script('bin/runner', '#!/bin/sh\necho "runner $*"\n');
      script('lib/in', '#!/bin/sh\necho in\n');
      script('nul.sh', '#!\0bin/runner\n');
      assert.deepEqual(covered(['./nul.sh']), ['nul.sh']);
      assert.deepEqual(problems(['./nul.sh']), []);
      script('noarg.sh', '#!bin/runner\0./lib/in\n');
      assert.deepEqual(covered(['./noarg.sh']), ['noarg.sh', 'bin/runner']);
      assert.equal(execFileSync('./noarg.sh', { cwd: ws, encoding: 'utf8' }), 'runner ./noarg.sh\n');
      script('cut.sh', '#!/usr/bin/env ./lib/in\0ner\n');
      assert.deepEqual(covered(['./cut.sh']), ['cut.sh', 'lib/in']);
      assert.equal(execFileSync('./cut.sh', { cwd: ws, encoding: 'utf8' }), 'in\n');
    });
    it('reads a line with no newline in its first 256 bytes as the kernel does: its last byte is not in it', () => {
      // Bytes 15..254 are the argument: `./` and 238 a's; the 239th a, byte 255, is cut.
      const name = 'a'.repeat(238);
      script(name, '#!/bin/sh\necho kernel\n');
      script('long.sh', `#!/usr/bin/env ./${name}a\n`);
      assert.deepEqual(covered(['./long.sh']), ['long.sh', name]);
      assert.equal(execFileSync('./long.sh', { cwd: ws, encoding: 'utf8' }), 'kernel\n');
      // An interpreter that does not end within them is taken as cut short: the kernel runs nothing.
      script('truncated.sh', `#!${'b'.repeat(300)}\n`);
      assert.deepEqual(covered(['./truncated.sh']), ['truncated.sh']);
    });
    it('reads no interpreter line of a file that is not executable, and stops at a loop', () => {
      script('data.sh', '#!bin/runner\n', 0o644);
      script('bin/runner', '#!x\n', 0o644);
      assert.deepEqual(covered(['sh', 'data.sh']), ['data.sh']);
      script('loop.sh', '#!loop.sh\n');
      assert.deepEqual(covered(['./loop.sh']), ['loop.sh']);
    });
  });

  it('covers a file whose name is not UTF-8 by its raw bytes', () => {
    fs.writeFileSync(Buffer.concat([Buffer.from(`${ws}/r`), Buffer.from([0xff])]), 'x');
    assert.deepEqual(hookArgvCoverage(ws, ['r\udcff']).files, [Buffer.from([0x72, 0xff])]);
  });
});
