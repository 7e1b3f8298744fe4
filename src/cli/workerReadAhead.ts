import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import {
  FAILED,
  NOT_SLEEPING,
  PACKED_FORMAT,
  POSTED,
  READING,
  STATE_SLOTS,
  TAKEN,
  unpackTreeRead,
  WAKE_AT,
  type PackedTree,
  type TreeReadAhead,
} from '../core/hashing/readAhead';
import type { TreeRead } from '../core/hashing/treeRead';
import type { TreeReaderData } from './treeReader';

/**
 * How long the walk waits for the bundle the reader is reading before it reads it, and
 * everything after, itself: the reader is then stuck (a bundle on a hung mount) or gone.
 */
const PATIENCE_MS = 10_000;

/**
 * The reader's young generation. Everything it allocates dies within a bundle or two
 * (each read leaves in a transferred buffer), yet V8 grows a thread's new space to 8 MiB
 * of pages that stay resident while the index loads; capped, the CLI's peak at 10,000
 * bundles is 3–5 MiB lower (13 MiB while the readers lived on to the compose), in no
 * more time (docs/memory.md, "What the bundle keeps").
 */
const READER_YOUNG_GENERATION_MB = 2;

/**
 * One tree reader thread (treeReader.ts) of the CLI's read-ahead (readAheadPool.ts,
 * docs/read-ahead.md): it reads the bundles announced to it while the walk's thread
 * parses the ones before; `take` receives their reads synchronously, in order.
 */
export class WorkerReadAhead implements TreeReadAhead {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly state = new Int32Array(new SharedArrayBuffer(STATE_SLOTS * 4));
  /** Announced roots by their place in the reader's order; a root announced twice keeps its first place. */
  private readonly order = new Map<string, number>();
  private announced = 0;
  /** Reads received from the port so far. */
  private received = 0;
  /** The walk has passed every announced bundle before this place. */
  private passed = 0;
  private broken = false;
  private disposed = false;
  /** Reads the walk took from the reader. */
  reads = 0;
  /** Settles once the reader's thread has exited (disposed, or failed). */
  readonly exited: Promise<void>;

  constructor(
    script: string,
    private readonly patienceMs = PATIENCE_MS,
  ) {
    Atomics.store(this.state, READING, -1);
    Atomics.store(this.state, WAKE_AT, NOT_SLEEPING);
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const data: TreeReaderData = { port: port2, state: this.state.buffer as SharedArrayBuffer };
    this.worker = new Worker(script, {
      workerData: data,
      transferList: [port2],
      resourceLimits: { maxYoungGenerationSizeMb: READER_YOUNG_GENERATION_MB },
    });
    // The reader never keeps the CLI alive, and its failure is only a reason to read here.
    this.worker.unref();
    this.worker.on('error', () => this.giveUp());
    const worker = this.worker;
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
  }

  announce(roots: readonly string[]): void {
    if (this.broken || roots.length === 0) return;
    // Every root takes the reader's next place, a repeated one too; the walk looks for its first.
    for (const root of roots) {
      const place = this.announced++;
      if (!this.order.has(root)) this.order.set(root, place);
    }
    this.port.postMessage(roots);
  }

  /**
   * Waits only for the bundle the reader is reading now. One it has not reached (it is
   * still reading bundles the walk passed without walking them, a directory without a
   * manifest say) is read here, and the reader skips it: a repository of such directories
   * costs the walk nothing.
   */
  take(root: string): TreeRead | undefined {
    const at = this.order.get(root);
    if (this.broken || at === undefined || at < this.passed) return undefined;
    this.passed = at + 1;
    this.advance(at);
    let spins = 0;
    for (;;) {
      const m = receiveMessageOnPort(this.port);
      if (m) {
        this.received++;
        const packed = m.message as PackedTree;
        if (packed.seq < at) continue; // a bundle the walk passed
        this.advance(at + 1);
        return packed.seq === at && packed.root === root ? this.unpacked(packed) : this.giveUp();
      }
      if (Atomics.load(this.state, FAILED) !== 0) return this.giveUp();
      const posted = Atomics.load(this.state, POSTED);
      // The count goes up after a read is queued on the port: past what we received, one is there
      // (Node queues a message on the receiving port as it is posted); the guard only bounds a surprise.
      if (posted > this.received) {
        if (++spins > 1000) return this.giveUp();
        continue;
      }
      if (Atomics.load(this.state, READING) !== at) {
        // Posted just now, as the reader moved on? Then take it; else read here.
        if (Atomics.load(this.state, POSTED) !== posted) continue;
        this.advance(at + 1);
        return undefined;
      }
      if (Atomics.wait(this.state, POSTED, posted, this.patienceMs) === 'timed-out') return this.giveUp();
    }
  }

  /** How many reads the reader has posted so far (how far ahead it is). */
  get posted(): number {
    return Atomics.load(this.state, POSTED);
  }

  finish(): void {
    this.dispose();
  }

  /** Stops the reader; the reads it still holds are dropped. Once is enough: again, nothing. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.broken = true;
    this.port.close();
    void this.worker.terminate();
  }

  /** A read in another build's form, or one that does not unpack, ends the read-ahead: the walk reads. */
  private unpacked(packed: PackedTree): TreeRead | undefined {
    if (packed.format !== PACKED_FORMAT) return this.giveUp();
    try {
      const read = unpackTreeRead(packed);
      this.reads++;
      return read;
    } catch {
      return this.giveUp();
    }
  }

  /** Tells the reader the walk has passed every bundle before `place`; wakes it only where it asked (WAKE_AT). */
  private advance(place: number): void {
    Atomics.store(this.state, TAKEN, place);
    if (place >= Atomics.load(this.state, WAKE_AT)) Atomics.notify(this.state, TAKEN);
  }

  private giveUp(): undefined {
    this.dispose();
    return undefined;
  }
}
