// A fuzz worker: generates each input it is given, runs the CLI over it, checks the
// invariants and shrinks new failures. Runs in its own process so the supervisor can
// kill it when an input hangs.
import { installSpy } from './spy';
installSpy();
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkInput, type Failure } from './invariants';
import { generateInput, materialize, type FuzzInput } from './input';
import type { FromWorker, MinimalRepro, ToWorker } from './protocol';
import { EVA_USER_CAP } from './eva';
import { shrink } from './shrink';

/** Inputs are small trees written and removed by the thousand: on a RAM disk when there is one. */
function scratchParent(): string {
  const wanted = process.env.SKILLGATE_FUZZ_TMP ?? '/dev/shm';
  try {
    fs.accessSync(wanted, fs.constants.W_OK);
    return wanted;
  } catch {
    return os.tmpdir();
  }
}

const base = fs.mkdtempSync(path.join(scratchParent(), 'skillgate-fuzz-'));
const shrunk = new Set<string>();
const send = (m: FromWorker) => process.send?.(m);

function fresh(index: number, attempt: number): string {
  const root = path.join(base, `i${index}-${attempt}`);
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root);
  return root;
}

// Removal failed once under load with ENOTEMPTY (something of the last input's run still writing as
// the worker exited): rmSync lists the directory again and retries on it.
function remove(root: string): void {
  fs.rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
}

/** Smaller inputs to try, largest cut first: whole parts, then single ops, files and flags. */
function reductions(input: FuzzInput): FuzzInput[] {
  const out: FuzzInput[] = [];
  if (input.ops.length > 1) out.push({ ...input, ops: [] });
  for (let i = input.ops.length - 1; i >= 0; i--) out.push({ ...input, ops: input.ops.filter((_, j) => j !== i) });
  if (input.rivumi.length > 1) out.push({ ...input, rivumi: [] });
  for (let i = 0; i < input.codewhale.length; i++)
    out.push({ ...input, codewhale: input.codewhale.filter((_, j) => j !== i) });
  for (let i = 0; i < input.home.length; i++) out.push({ ...input, home: input.home.filter((_, j) => j !== i) });
  if (input.rivumiDemo) out.push({ ...input, rivumiDemo: false });
  if (input.evaDemo) out.push({ ...input, evaDemo: false });
  const eva = input.eva ?? [];
  if (eva.length > 1) out.push({ ...input, eva: [] });
  for (let i = 0; i < eva.length; i++) out.push({ ...input, eva: eva.filter((_, j) => j !== i) });
  // Past Eva's cap a folder or two is enough: the cut keeps just past it, then none.
  const users = input.evaUserSkills;
  if (users && users.count > EVA_USER_CAP + 1)
    out.push({ ...input, evaUserSkills: { ...users, count: EVA_USER_CAP + 1 } });
  if (users) out.push({ ...input, evaUserSkills: undefined });
  for (let i = 0; i < input.rivumi.length; i++) out.push({ ...input, rivumi: input.rivumi.filter((_, j) => j !== i) });
  // A shape's fates are of the whole shape: it goes whole, or stays.
  const shapes = input.shapes ?? [];
  for (let i = 0; i < shapes.length; i++) out.push({ ...input, shapes: shapes.filter((_, j) => j !== i) });
  if (input.hooksOptIn) out.push({ ...input, hooksOptIn: false });
  if (input.workspaceTwice) out.push({ ...input, workspaceTwice: false });
  return out;
}

process.on('message', (m: ToWorker) => {
  if (m.type === 'exit') {
    remove(base);
    process.exit(0);
  }
  void (async () => {
    const started = performance.now();
    const root = fresh(m.index, 0);
    const input = generateInput(m.seed, m.index, root);
    send({ type: 'generated', index: m.index, input });
    let failures: Failure[];
    try {
      failures = await checkInput(input, root, { timeLimitMs: m.timeLimitMs });
    } finally {
      remove(root);
    }
    // Before shrinking: should the supervisor kill this worker while it shrinks, the failures are kept.
    send({ type: 'checked', index: m.index, failures });
    const minimal: MinimalRepro[] = [];
    const deadline = performance.now() + m.shrinkMs;
    if (m.shrinkAttempts > 0) {
      for (const f of failures) {
        const key = `${f.invariant}\0${f.signature}`;
        if (shrunk.has(key) || f.invariant === 'bounded-time') continue;
        shrunk.add(key);
        const reduced = await shrink(input, f, {
          attempts: m.shrinkAttempts,
          deadline,
          reductions,
          check: async (candidate, attempt) => {
            send({ type: 'candidate', index: m.index, input: candidate });
            const at = fresh(input.index, attempt);
            try {
              materialize(candidate, at);
              return await checkInput(candidate, at, { timeLimitMs: m.timeLimitMs * 4 });
            } finally {
              remove(at);
            }
          },
        });
        minimal.push({ invariant: f.invariant, signature: f.signature, ...reduced });
      }
    }
    send({ type: 'done', index: m.index, ms: performance.now() - started, failures, minimal });
  })();
});

process.on('exit', () => remove(base));
// Ctrl-C reaches the whole process group (`timeout` and `kill 0` send theirs there too), yet only the
// supervisor decides what a stop does to the input in flight (main.ts): a worker ignores both, and
// exits when told to or when its channel closes, the supervisor gone, so none outlives it.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => undefined);
process.on('disconnect', () => process.exit(0));
send({ type: 'ready', scratch: base });
