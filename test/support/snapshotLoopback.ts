import type { Snapshot } from '../../src/core/index/snapshot';
import {
  PART_OBJECTS,
  SnapshotReceiver,
  SnapshotSender,
  type Indexed,
  type SnapshotPart,
  type Watched,
} from '../../src/extension/flows/snapshotTransfer';

/**
 * The index worker's sender and the extension host's receiver, joined as the editor joins
 * them but on one thread: each part goes through the structured clone, as `postMessage`
 * sends it, so the host never shares the worker's objects. For the transfer's tests and
 * the benchmark's editor re-index.
 */
export function snapshotLoopback(
  watched: Watched = { paths: [], trees: [] },
  partObjects = PART_OBJECTS,
): (snapshot: Snapshot) => { parts: SnapshotPart[]; got: Indexed } {
  const sender = new SnapshotSender();
  const receiver = new SnapshotReceiver();
  return (snapshot) => {
    const parts = structuredClone(sender.parts({ snapshot, watched }, partObjects));
    for (const p of parts) receiver.add(p);
    return { parts, got: receiver.finish() };
  };
}
