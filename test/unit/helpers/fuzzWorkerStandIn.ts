// A stand-in for the fuzz worker (test/fuzz/worker.ts), forked by the supervisor's unit tests in
// its place: it speaks the worker's protocol and dies where the input's seed says, so what the
// supervisor makes of a worker that dies mid-input is shown without crashing the product.
import type { FuzzInput } from '../../fuzz/input';
import type { FromWorker, ToWorker } from '../../fuzz/protocol';

/** The input and the shrinking candidate it reports: the supervisor only passes them on. */
const standInInput = (index: number, ops: readonly string[]) => ({ index, ops }) as unknown as FuzzInput;

const send = (m: FromWorker) => new Promise<void>((sent) => process.send?.(m, undefined, {}, () => sent()));

/** What an OOM kill or a native crash leaves: no exit of its own, no last message. */
const die = () => process.kill(process.pid, 'SIGKILL');

process.on('message', (m: ToWorker) => {
  if (m.type === 'exit') process.exit(0);
  void (async () => {
    await send({ type: 'generated', index: m.index, input: standInInput(m.index, ['write-skill', 'repoint']) });
    if (m.seed === 'dies-checking') {
      die();
      return;
    }
    await send({
      type: 'checked',
      index: m.index,
      failures: [{ invariant: 'watched-change-seen', signature: 'unseen: write-skill', detail: 'never seen' }],
    });
    await send({ type: 'candidate', index: m.index, input: standInInput(m.index, ['write-skill']) });
    die();
  })();
});

void send({ type: 'ready', scratch: '' });
