import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BlockingOutput, type WriteCall } from '../../src/cli/blockingOutput';
import { generateWorkspace } from '../../bench/syntheticWorkspace';
import { Fixture } from './helpers/fixture';

const ROOT = path.resolve(__dirname, '../..');
const CLI = path.join(ROOT, 'src/cli/cli.ts');

/** An errno error as `fs.writeSync` throws it. */
const errno = (code: string) => Object.assign(new Error(code), { code });

/**
 * The CLI's standard output (blockingOutput.ts): every byte in order however little the
 * pipe takes at once, a full pipe waited for, and a reader that goes away ending the
 * output quietly instead of an unhandled EPIPE.
 */
describe('the CLI standard output', function () {
  this.timeout(120000);

  /** A pipe that takes at most `most` bytes a call and is full (EAGAIN) every `fullEvery`-th call. */
  const pipe = (most: number, fullEvery = 0) => {
    const taken: Buffer[] = [];
    let calls = 0;
    const write: WriteCall = (bytes, offset, length) => {
      if (fullEvery > 0 && ++calls % fullEvery === 0) throw errno('EAGAIN');
      const n = Math.min(most, length);
      taken.push(Buffer.from(bytes.subarray(offset, offset + n)));
      return n;
    };
    return { write, text: () => Buffer.concat(taken).toString('utf8') };
  };

  it('writes every byte in order when the pipe takes a few at a time, characters split across writes', () => {
    const p = pipe(3);
    const out = new BlockingOutput(p.write, () => assert.fail('never full'));
    const texts = ['{"name":"ünïcödé ✓ 𝄞"', ',\n', '', '"x":"', 'y'.repeat(1000), '"}'];
    for (const t of texts) out.write(t);
    assert.equal(p.text(), texts.join(''));
    assert.equal(out.readerGone, false);
  });

  it('waits while the pipe is full and drops nothing', () => {
    const p = pipe(5, 2);
    let pauses = 0;
    const out = new BlockingOutput(p.write, () => pauses++);
    out.write('0123456789abcdefghij');
    out.write('klmnop');
    assert.equal(p.text(), '0123456789abcdefghijklmnop');
    assert.ok(pauses >= 5, `paused ${pauses} times`);
  });

  it('stops quietly when the reader goes away, and writes nothing more', () => {
    let calls = 0;
    const out = new BlockingOutput(() => {
      calls++;
      throw errno('EPIPE');
    });
    out.write('first');
    assert.equal(out.readerGone, true);
    out.write('second');
    assert.equal(calls, 1);
  });

  it('throws any other failure to write', () => {
    const out = new BlockingOutput(() => {
      throw errno('EBADF');
    });
    assert.throws(() => out.write('x'), /EBADF/);
  });

  describe('the real binary through a pipe', () => {
    let f: Fixture;
    beforeEach(() => (f = new Fixture()));
    afterEach(() => f.remove());

    /** Runs the CLI's entry on a workspace, its standard output read by `read`; its exit code and standard error. */
    const runCli = (ws: string, read: (stdout: NodeJS.ReadableStream, done: () => void) => void) =>
      new Promise<{ code: number | null; err: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          ['--require', 'tsx/cjs', CLI, 'list', '--json', '--no-user', '--no-cache', '--workspace', ws],
          { cwd: ROOT, env: { ...process.env, SKILLGATE_STATE_DIR: f.path('state') } },
        );
        let err = '';
        child.stderr.on('data', (d: Buffer) => (err += d.toString()));
        read(child.stdout, () => child.stdout.destroy());
        child.on('close', (code) => resolve({ code, err }));
      });

    it('gives a slow reader the whole report, every item in it', async () => {
      const ws = f.mkdir('ws');
      generateWorkspace(ws, 120);
      const chunks: Buffer[] = [];
      const { code, err } = await runCli(ws, (stdout) => {
        // Reads a piece, then lets the pipe fill before the next: the writer meets a full pipe and must lose nothing.
        stdout.on('data', (d: Buffer) => {
          chunks.push(d);
          stdout.pause();
          setTimeout(() => stdout.resume(), 2);
        });
      });
      assert.equal(err, '');
      assert.equal(code, 0);
      const report = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { items: unknown[] };
      assert.ok(report.items.length > 240, `${report.items.length} items`);
    });

    it('ends quietly with its own exit code when the reader closes the pipe early (`| head`)', async () => {
      const ws = f.mkdir('ws');
      generateWorkspace(ws, 120);
      const { code, err } = await runCli(ws, (stdout, done) => stdout.once('data', done));
      assert.equal(err, '', 'no EPIPE, no stack trace');
      assert.equal(code, 0);
    });

    it('keeps its exit code when the reader of standard error has gone (`2>&1 | head -1`)', async () => {
      const ws = f.mkdir('ws');
      const code = await new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, ['--require', 'tsx/cjs', CLI, 'list', '--bogus', '--workspace', ws], {
          cwd: ROOT,
          env: { ...process.env, SKILLGATE_STATE_DIR: f.path('state') },
        });
        // Gone before the CLI writes its usage error: every write to standard error meets EPIPE.
        child.stderr.destroy();
        child.on('close', resolve);
      });
      assert.equal(code, 2, 'a usage error, not an unhandled EPIPE');
    });

    it('keeps exit 2 when standard error cannot be written at all (`2>/dev/full`)', async () => {
      const full = fs.openSync('/dev/full', 'w');
      try {
        const code = await new Promise<number | null>((resolve) => {
          const child = spawn(process.execPath, ['--require', 'tsx/cjs', CLI, 'frobnicate'], {
            cwd: ROOT,
            env: { ...process.env, SKILLGATE_STATE_DIR: f.path('state') },
            stdio: ['ignore', 'ignore', full],
          });
          child.on('close', resolve);
        });
        assert.equal(code, 2);
      } finally {
        fs.closeSync(full);
      }
    });
  });
});
