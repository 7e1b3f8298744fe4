import { strict as assert } from 'node:assert';
import {
  CPU_PARTS,
  CpuSampler,
  cpuOver,
  processKind,
  statCpuMs,
  type CpuSample,
  type ProcReader,
  type ProcessCpu,
} from '../../bench/machineCpu';

// Command lines as /proc showed them during an editor benchmark run (code-server 4.100.3, Debian's Chromium).
const CS = '/home/dev/skillgate/.vscode-test/code-server/node_modules/code-server';
const CMDLINES: [string, ReturnType<typeof processKind>][] = [
  [
    `/usr/bin/node --dns-result-order=ipv4first ${CS}/lib/vscode/out/bootstrap-fork --type=extensionHost --transformURIs`,
    'extension host',
  ],
  [`/usr/bin/node ${CS}/lib/vscode/out/bootstrap-fork --type=fileWatcher`, 'file watcher'],
  ['/usr/lib/chromium/chromium --type=renderer --crashpad-handler-pid=0 --lang=en-US', 'renderer'],
  ['/usr/lib/chromium/chromium --type=gpu-process --headless', 'chromium'],
  ['/usr/lib/chromium/chromium --show-component-extension-options --headless', 'chromium'],
  [`/usr/bin/node ${CS}/out/node/entry`, 'server'],
  [`/usr/bin/node ${CS}/lib/vscode/out/bootstrap-fork --type=ptyHost`, 'server'],
  ['/usr/bin/python3 /tmp/something.py', 'other'],
];

function sample(at: number, processes: [number, ProcessCpu][]): CpuSample {
  return { at, processes: new Map(processes) };
}

describe('bench: where the machine’s cores went (bench/machineCpu.ts)', () => {
  it('tells each process of an editor run by its command line, and this benchmark by its pid', () => {
    for (const [cmdline, kind] of CMDLINES) assert.equal(processKind(cmdline, 4242, 1), kind, cmdline);
    assert.equal(processKind('/usr/bin/node bench/editorBench.ts', 77, 77), 'bench');
  });

  it('reads user plus system time from a stat line whose command name holds spaces and parentheses', () => {
    // Fields after the name: state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime …
    const line = '1234 (a) b (c) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 37 0 0 20 0 1 0 5 0\n';
    assert.equal(statCpuMs(line), 2870);
    assert.equal(statCpuMs('garbage'), undefined);
  });

  it('counts each part between the samples around the span, the extension host by thread', () => {
    const host = (main: number, worker: number, pool: number): ProcessCpu => ({
      kind: 'extension host',
      ms: main + worker + pool,
      threads: new Map([
        [10, main],
        [11, worker],
        [12, pool],
      ]),
    });
    const samples = [
      sample(900, [[10, host(100, 0, 50)]]),
      sample(1000, [
        [10, host(120, 0, 60)],
        [20, { kind: 'renderer', ms: 500 }],
        [30, { kind: 'file watcher', ms: 40 }],
      ]),
      sample(1100, [[10, host(150, 80, 90)]]),
      sample(1300, [
        [10, host(200, 400, 160)],
        [20, { kind: 'renderer', ms: 650 }],
        [30, { kind: 'file watcher', ms: 40 }],
        // started within the span: counted from zero
        [40, { kind: 'server', ms: 30 }],
      ]),
      sample(1400, [[10, host(900, 900, 900)]]),
    ];
    const span = cpuOver(samples, 1050, 1250, 2);
    assert.ok(span);
    assert.equal(span.spanMs, 300);
    assert.equal(span.availableMs, 600);
    assert.deepEqual(span.parts, {
      'extension host: main thread': 80,
      'extension host: busiest other thread': 400,
      'extension host: other threads': 100,
      'workbench renderer': 150,
      'chromium, other processes': 0,
      'file watcher': 0,
      'code-server, other processes': 30,
      'this benchmark': 0,
      'anything else': 0,
    });
    assert.deepEqual(Object.keys(span.parts), CPU_PARTS);
    // Samples that do not reach both ends cover no span.
    assert.equal(cpuOver(samples, 800, 1250, 2), undefined);
    assert.equal(cpuOver(samples, 1050, 1500, 2), undefined);
  });

  it('tells the extension host by its own command line once code-server’s fork of it has exec’d, however it looked before', () => {
    // What /proc shows of a fork of code-server: its parent's command line, then an empty one mid-exec, then its own.
    const cmdlines = [`/usr/bin/node ${CS}/out/node/entry`, '', CMDLINES[0]![0]];
    let seen = 0;
    let ticks = 0;
    const cmdlineReads: number[] = [];
    const proc: ProcReader = {
      pids: () => [50, 60],
      stat: (pid, tid) => `${tid ?? pid} (node) S 1 1 1 0 -1 0 0 0 0 0 ${(ticks += 1)} 0 0 0\n`,
      cmdline: (pid) => {
        cmdlineReads.push(pid);
        return pid === 60 ? CMDLINES[2]![0] : cmdlines[Math.min(seen, cmdlines.length - 1)]!;
      },
      threads: (pid) => [pid],
    };
    const sampler = new CpuSampler(proc, 1);
    for (const at of [100, 200, 300, 400]) {
      sampler.sample(at);
      seen += 1;
    }
    assert.deepEqual(
      sampler.samples.map((s) => s.processes.get(50)?.kind),
      ['server', 'other', 'extension host', 'extension host'],
    );
    // A kind the process's own command line names is final: neither the host nor the renderer is read again.
    assert.deepEqual(
      cmdlineReads.filter((pid) => pid === 50),
      [50, 50, 50],
    );
    assert.deepEqual(
      cmdlineReads.filter((pid) => pid === 60),
      [60],
    );
    const span = cpuOver(sampler.samples, 300, 400, 2);
    assert.ok(span && span.parts['extension host: main thread'] > 0, JSON.stringify(span));
    assert.equal(span.parts['anything else'] + span.parts['code-server, other processes'], 0);
  });

  it('samples this machine’s /proc: a busy loop here shows as this benchmark’s time', function () {
    if (process.platform !== 'linux') this.skip();
    const sampler = new CpuSampler();
    const cpuMs = () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    };
    const before = cpuMs();
    sampler.start();
    // Busy until this process has run 300 ms of CPU, however loaded the machine is.
    while (cpuMs() - before < 300);
    sampler.stop();
    const ran = cpuMs() - before;
    const first = sampler.samples[0];
    const last = sampler.samples.at(-1);
    assert.ok(first && last && sampler.samples.length >= 2);
    const span = cpuOver(sampler.samples, first.at, last.at, 2);
    assert.ok(span);
    // /proc counts in 10 ms ticks, read at each end.
    const sampled = span.parts['this benchmark'];
    assert.ok(Math.abs(sampled - ran) <= 40, `sampled ${sampled} ms, process.cpuUsage ${ran} ms`);
  });
});
