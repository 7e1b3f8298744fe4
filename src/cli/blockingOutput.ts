import * as fs from 'node:fs';

/** The one system call the output makes, injected so tests can play a slow, full or closed pipe. */
export type WriteCall = (bytes: Buffer, offset: number, length: number) => number;

/**
 * The CLI's standard output (and, writing to fd 2, its standard error), each text
 * written before `write` returns. Node's `process.stdout` queues in memory whatever a
 * pipe cannot take at once: `list --json`
 * of 10,000 bundles (about 40 MB of JSON) read through a pipe held most of the report in
 * that queue, about 70 MiB of peak RSS above the same run written to a file. Here a full
 * pipe is waited for, one piece of the report at a time, encoded into one reused buffer.
 *
 * A reader that goes away (`skillgate list | head`) ends the output quietly: what is left
 * is dropped and the command finishes with its own exit code, where `process.stdout`
 * threw an unhandled EPIPE with a stack trace. Any other failure to write is thrown.
 */
export class BlockingOutput {
  private buffer = Buffer.allocUnsafe(0);
  private gone = false;

  constructor(
    private readonly writeCall: WriteCall = (bytes, offset, length) => fs.writeSync(1, bytes, offset, length),
    private readonly pause: () => void = pauseBriefly,
  ) {}

  /** Whether the reader went away (everything written since was dropped). */
  get readerGone(): boolean {
    return this.gone;
  }

  write(text: string): void {
    if (this.gone || text.length === 0) return;
    const size = Buffer.byteLength(text, 'utf8');
    if (this.buffer.length < size) this.buffer = Buffer.allocUnsafe(size);
    this.buffer.write(text, 0, size, 'utf8');
    for (let done = 0; done < size;) {
      try {
        done += this.writeCall(this.buffer, done, size - done);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        // A descriptor someone else made non-blocking: its pipe is full, so wait for the reader.
        if (code === 'EAGAIN') this.pause();
        else if (code === 'EPIPE') {
          this.gone = true;
          return;
        } else throw e;
      }
    }
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** A quarter of a millisecond: a full pipe of 64 KiB that a reader drains at once waits little. */
function pauseBriefly(): void {
  Atomics.wait(sleeper, 0, 0, 0.25);
}
