// `npm run fuzz -- [--runs=N] [--seed=S] [--from=I] [--jobs=J] [--time-limit=MS] [--hang=MS] [--shrink=ATTEMPTS] [--json]`
// `npm run fuzz -- --seed=S --replay=I [--keep]`: rebuild input I, check it here, print its failures.
import { installSpy } from './spy';
installSpy();
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { formatReport, inputText, runFuzz } from './supervisor';
import { checkInput } from './invariants';
import { generateInput } from './input';
import { stopRequests } from './stopRequests';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000' },
    seed: { type: 'string', default: 'skillgate' },
    from: { type: 'string', default: '0' },
    jobs: { type: 'string', default: String(os.cpus().length) },
    'time-limit': { type: 'string', default: '10000' },
    hang: { type: 'string', default: '60000' },
    shrink: { type: 'string', default: '120' },
    replay: { type: 'string' },
    keep: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});

async function replay(index: number): Promise<number> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `skillgate-fuzz-replay-${index}-`));
  const input = generateInput(values.seed, index, root);
  console.log(`input ${index} of seed ${JSON.stringify(values.seed)} at ${root}:\n${inputText(input)}`);
  const failures = await checkInput(input, root, { timeLimitMs: Number(values['time-limit']) });
  for (const f of failures) console.log(`FAIL ${f.invariant} [${f.signature}]\n  ${f.detail}`);
  if (!failures.length) console.log('every invariant holds');
  if (!values.keep) fs.rmSync(root, { recursive: true, force: true });
  else console.log(`the tree is kept at ${root} (the trust store would be ${path.join(root, 'state')})`);
  return failures.length ? 1 : 0;
}

async function main(): Promise<number> {
  if (values.replay !== undefined) return replay(Number(values.replay));
  let last = 0;
  // Ctrl-C or SIGTERM: finish the inputs in flight, then print the report of what ran; a second one:
  // abandon them, and print it at once. The workers ignore both, though the terminal sends them Ctrl-C too.
  const { stop, abandon } = stopRequests();
  const report = await runFuzz({
    seed: values.seed,
    runs: Number(values.runs),
    from: Number(values.from),
    jobs: Number(values.jobs),
    timeLimitMs: Number(values['time-limit']),
    hangMs: Number(values.hang),
    shrinkAttempts: Number(values.shrink),
    stop,
    abandon,
    onProgress: (done, failing, ms) => {
      if (values.json || ms - last < 10000) return;
      last = ms;
      process.stderr.write(`fuzz: ${done} inputs, ${failing} failing, ${(done / (ms / 1000)).toFixed(1)} inputs/s\n`);
    },
  });
  if (values.json)
    console.log(JSON.stringify({ ...report, inputsPerSecond: report.inputs / (report.elapsedMs / 1000) }, null, 2));
  else console.log(formatReport(report));
  return report.groups.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(2);
  },
);
