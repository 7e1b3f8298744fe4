import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TreeReadAhead } from '../core/hashing/readAhead';
import type { TreeRead } from '../core/hashing/treeRead';
import { WorkerReadAhead } from './workerReadAhead';

/**
 * How many reader threads the CLI starts. Reading is mostly system calls, each costing
 * Node 10–20 µs, and one reader kept a warm run's walk waiting for about a third of it;
 * two, dealt the bundles in turn, keep ahead of the walk on two cores (docs/read-ahead.md).
 */
const READERS = 2;

/**
 * The CLI's read-ahead (docs/read-ahead.md): READERS tree reader threads, each dealt
 * the announced roots in turn and reading its own share in order; `take` asks the
 * reader that was dealt the root. A reader that fails leaves its share to the walk,
 * the others go on. Returns undefined where there is no reader script beside this file
 * (the sources run under a test runner) or no thread can start.
 */
export function startReadAhead(
  script = path.join(__dirname, 'treeReader.js'),
  readers = READERS,
): ReadAheadPool | undefined {
  if (!fs.existsSync(script)) return undefined;
  const started: WorkerReadAhead[] = [];
  try {
    for (let i = 0; i < readers; i++) started.push(new WorkerReadAhead(script));
  } catch {
    // Fewer threads than asked for still read ahead.
  }
  return started.length > 0 ? new ReadAheadPool(started) : undefined;
}

export class ReadAheadPool implements TreeReadAhead {
  /** The reader each root was dealt to; a root announced again keeps its first (the walk takes it once). */
  private readonly dealtTo = new Map<string, WorkerReadAhead>();
  private dealt = 0;

  constructor(private readonly readers: readonly WorkerReadAhead[]) {}

  announce(roots: readonly string[]): void {
    const shares = this.readers.map((): string[] => []);
    for (const root of roots) {
      const i = this.dealt++ % this.readers.length;
      shares[i]?.push(root);
      const reader = this.readers[i];
      if (reader && !this.dealtTo.has(root)) this.dealtTo.set(root, reader);
    }
    // Every reader hears of every announcement's share, so each one's places stay in step with its walk.
    this.readers.forEach((reader, i) => reader.announce(shares[i] ?? []));
  }

  take(root: string): TreeRead | undefined {
    return this.dealtTo.get(root)?.take(root);
  }

  /** Reads the readers posted so far (how far ahead they are). */
  get posted(): number {
    return this.readers.reduce((n, r) => n + r.posted, 0);
  }

  /** Reads the walk took from the readers. */
  get reads(): number {
    return this.readers.reduce((n, r) => n + r.reads, 0);
  }

  finish(): void {
    this.dispose();
  }

  /** Settle as each reader's thread exits. */
  threadsExited(): Promise<void>[] {
    return this.readers.map((r) => r.exited);
  }

  /** Stops every reader; the reads they still hold are dropped. */
  dispose(): void {
    for (const r of this.readers) r.dispose();
  }
}
