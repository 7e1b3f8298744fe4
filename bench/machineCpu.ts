import * as fs from 'node:fs';

/**
 * Where the machine's cores went during an editor run (Linux), for `npm run bench:editor`:
 * the editor's first tree takes longer than the CLI's whole run mostly because the index
 * shares two cores with VS Code's own start (docs/editor-performance.md). The sampler
 * reads every process's CPU time from /proc every SAMPLE_MS while the workbench runs, the
 * extension host's by thread; `cpuOver` then tells how much each part of the machine ran
 * between two moments the extension reported (activation, the first complete tree).
 */

/** How often /proc is read: about 2 % of a core in this process, and a span's ends within this much of the moments asked. */
export const SAMPLE_MS = 100;
/** The unit of /proc/<pid>/stat's times: USER_HZ, 100 on every Linux this runs on (`getconf CLK_TCK`). */
const TICKS_PER_SECOND = 100;

/** What a process is, from its command line. */
export type ProcessKind = 'extension host' | 'renderer' | 'chromium' | 'file watcher' | 'server' | 'bench' | 'other';

/** The parts of the machine a span is told in, in the order they are listed; the extension host split by thread. */
export const CPU_PARTS = [
  'extension host: main thread',
  'extension host: busiest other thread',
  'extension host: other threads',
  'workbench renderer',
  'chromium, other processes',
  'file watcher',
  'code-server, other processes',
  'this benchmark',
  'anything else',
] as const;

export type CpuPart = (typeof CPU_PARTS)[number];

export interface ProcessCpu {
  readonly kind: ProcessKind;
  /** User and system time since the process started, in ms. */
  readonly ms: number;
  /** The extension host's threads: thread id → ms. */
  readonly threads?: ReadonlyMap<number, number>;
}

export interface CpuSample {
  /** Wall clock, ms since the epoch (the extension reports its moments on the same clock). */
  readonly at: number;
  readonly processes: ReadonlyMap<number, ProcessCpu>;
}

export interface CpuSpan {
  /** The span the samples actually cover (their nearest ends around the moments asked), in ms. */
  readonly spanMs: number;
  /** What the machine's cores could have run in it: spanMs × their number. */
  readonly availableMs: number;
  readonly parts: Readonly<Record<CpuPart, number>>;
}

/** What a process is, by its command line (arguments joined by spaces). */
export function processKind(cmdline: string, pid: number, benchPid = process.pid): ProcessKind {
  if (pid === benchPid) return 'bench';
  if (cmdline.includes('--type=extensionHost')) return 'extension host';
  if (cmdline.includes('--type=fileWatcher')) return 'file watcher';
  if (/chrom(e|ium)/.test(cmdline)) return cmdline.includes('--type=renderer') ? 'renderer' : 'chromium';
  if (cmdline.includes('code-server')) return 'server';
  return 'other';
}

/** User plus system time of a /proc `stat` line, in ms; undefined for a line it cannot read. */
export function statCpuMs(stat: string): number | undefined {
  // The command name in parentheses may hold spaces and parentheses: the fields follow the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? ((utime + stime) * 1000) / TICKS_PER_SECOND : undefined;
}

/** The reads of /proc the sampler makes; a test hands it a machine of its own. */
export interface ProcReader {
  pids(): number[];
  /** The process's (or, with `tid`, one of its threads') `stat` line. */
  stat(pid: number, tid?: number): string;
  /** The command line, arguments joined by spaces; empty while the process execs or after it ends. */
  cmdline(pid: number): string;
  threads(pid: number): number[];
}

const linuxProc: ProcReader = {
  pids: () => fs.readdirSync('/proc').map(Number).filter(Number.isInteger),
  stat: (pid, tid) =>
    fs.readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'latin1'),
  cmdline: (pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim(),
  threads: (pid) => fs.readdirSync(`/proc/${pid}/task`).map(Number),
};

/**
 * Kinds a process can still leave. A forked child shows its parent's command line until
 * it execs, and an empty one while it does: the extension host, forked by code-server,
 * may first be seen as the server or as nothing known. Only a kind its own command line
 * names (`--type=…`, Chromium) is kept; these are read again at every sample.
 */
const PROVISIONAL_KINDS: ReadonlySet<ProcessKind> = new Set(['server', 'other']);

/** Reads /proc every SAMPLE_MS from `start()` to `stop()`; elsewhere than Linux it reads nothing. */
export class CpuSampler {
  readonly samples: CpuSample[] = [];
  private readonly kinds = new Map<number, ProcessKind>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly proc: ProcReader = linuxProc,
    private readonly benchPid = process.pid,
  ) {}

  start(): void {
    if (process.platform !== 'linux' || this.timer) return;
    this.sample();
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
  }

  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.sample();
  }

  /** One reading of every process (start and stop take one each; a test calls it itself). */
  sample(at = Date.now()): void {
    const processes = new Map<number, ProcessCpu>();
    for (const pid of this.proc.pids()) {
      // A process may end between the listing and the read: it is left out of this sample.
      try {
        const ms = statCpuMs(this.proc.stat(pid));
        if (ms === undefined) continue;
        const kind = this.kindOf(pid);
        processes.set(pid, kind === 'extension host' ? { kind, ms, threads: this.threadsOf(pid) } : { kind, ms });
      } catch {
        continue;
      }
    }
    this.samples.push({ at, processes });
  }

  private kindOf(pid: number): ProcessKind {
    let kind = this.kinds.get(pid);
    if (kind === undefined || PROVISIONAL_KINDS.has(kind)) {
      kind = processKind(this.proc.cmdline(pid), pid, this.benchPid);
      this.kinds.set(pid, kind);
    }
    return kind;
  }

  private threadsOf(pid: number): Map<number, number> {
    const threads = new Map<number, number>();
    for (const tid of this.proc.threads(pid)) {
      try {
        const ms = statCpuMs(this.proc.stat(pid, tid));
        if (ms !== undefined) threads.set(tid, ms);
      } catch {
        // the thread ended
      }
    }
    return threads;
  }
}

/**
 * Each part's CPU time between the last sample at or before `from` and the first at or
 * after `to` (both epoch ms). A process that started in between counts from zero; one
 * that ended in between is missing from the later sample, and its time with it. The
 * extension host's busiest other thread over the span is told apart: in a worker run,
 * the index worker. Undefined when the samples do not cover the span.
 */
export function cpuOver(samples: readonly CpuSample[], from: number, to: number, cores: number): CpuSpan | undefined {
  const before = [...samples].reverse().find((s) => s.at <= from);
  const after = samples.find((s) => s.at >= to);
  if (!before || !after) return undefined;
  const parts = Object.fromEntries(CPU_PARTS.map((p) => [p, 0])) as Record<CpuPart, number>;
  for (const [pid, now] of after.processes) {
    const then = before.processes.get(pid);
    const ms = now.ms - (then?.ms ?? 0);
    if (now.kind === 'extension host') {
      const threadMs = [...(now.threads ?? [])].map(([tid, t]) => ({
        tid,
        ms: t - (then?.threads?.get(tid) ?? 0),
      }));
      const main = threadMs.find((t) => t.tid === pid)?.ms ?? 0;
      const busiest = Math.max(0, ...threadMs.filter((t) => t.tid !== pid).map((t) => t.ms));
      parts['extension host: main thread'] += main;
      parts['extension host: busiest other thread'] += busiest;
      parts['extension host: other threads'] += Math.max(0, ms - main - busiest);
    } else {
      parts[PART_OF[now.kind]] += ms;
    }
  }
  const spanMs = after.at - before.at;
  return { spanMs, availableMs: spanMs * cores, parts };
}

const PART_OF: Record<Exclude<ProcessKind, 'extension host'>, CpuPart> = {
  renderer: 'workbench renderer',
  chromium: 'chromium, other processes',
  'file watcher': 'file watcher',
  server: 'code-server, other processes',
  bench: 'this benchmark',
  other: 'anything else',
};
