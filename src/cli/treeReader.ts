import { workerData, type MessagePort } from 'node:worker_threads';
import { readBundleTree } from '../core/hashing/treeRead';
import {
  FAILED,
  LEAD,
  LEAD_BYTES,
  NOT_SLEEPING,
  packTreeRead,
  POSTED,
  READING,
  RESUME_LEAD,
  TAKEN,
  WAKE_AT,
} from '../core/hashing/readAhead';

/**
 * The CLI's tree reader (dist/treeReader.js, docs/read-ahead.md): reads the bundles the
 * index announces, in order, on a thread of its own, a bounded way ahead of the walk
 * (LEAD, LEAD_BYTES), and posts each read to the walk's port. It bundles the read's few
 * modules itself instead of loading dist/core.js, which it does not need. It decides
 * nothing: the walk takes a read or reads the bundle itself.
 */
export interface TreeReaderData {
  readonly port: MessagePort;
  readonly state: SharedArrayBuffer;
}

const { port, state: shared } = workerData as TreeReaderData;
const state = new Int32Array(shared);
/** The place of the next root announced. */
let next = 0;
/** Bytes of each read posted, by place; `waiting` sums those the walk has not passed. */
const sizes: number[] = [];
let waiting = 0;
let counted = 0;

port.on('message', (roots: readonly string[]) => {
  try {
    for (const root of roots) {
      const place = next++;
      if (passed(place)) continue;
      waitForTheWalk(place);
      Atomics.store(state, READING, place);
      if (passed(place)) continue;
      const { tree, transfer } = packTreeRead(place, root, readBundleTree(root));
      sizes[place] = tree.framed.byteLength;
      if (place >= counted) waiting += tree.framed.byteLength;
      port.postMessage(tree, transfer);
      Atomics.add(state, POSTED, 1);
      Atomics.notify(state, POSTED);
    }
  } catch {
    // The walk reads everything not yet posted itself.
    Atomics.store(state, FAILED, 1);
    Atomics.notify(state, POSTED);
    port.close();
  }
});

/** Whether the walk has passed this place: it read the bundle itself, or will never walk it. */
function passed(place: number): boolean {
  return place < Atomics.load(state, TAKEN);
}

/**
 * Blocks while LEAD reads or LEAD_BYTES wait for the walk. Held back by the count, it
 * sleeps until the walk is RESUME_LEAD behind; by the bytes, until the walk passes one
 * more. WAKE_AT tells the walk when to wake us: it stores TAKEN, then reads WAKE_AT, and
 * we store WAKE_AT, then read TAKEN (both sequentially consistent), so either we see its
 * place and do not sleep, or it sees ours and wakes us.
 */
function waitForTheWalk(place: number): void {
  for (;;) {
    const taken = Atomics.load(state, TAKEN);
    for (; counted < taken; counted++) waiting -= sizes[counted] ?? 0;
    const ahead = place - taken;
    if (ahead <= 0 || (ahead < LEAD && waiting < LEAD_BYTES)) {
      Atomics.store(state, WAKE_AT, NOT_SLEEPING);
      return;
    }
    const wakeAt = Math.max(taken + 1, ahead >= LEAD ? place - RESUME_LEAD : 0);
    Atomics.store(state, WAKE_AT, wakeAt);
    if (Atomics.load(state, TAKEN) !== taken) continue;
    Atomics.wait(state, TAKEN, taken);
  }
}
