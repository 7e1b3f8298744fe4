import type { ReasonCode } from '../model';

const lists = new Map<ReasonCode, readonly ReasonCode[]>();

/**
 * The reasons `[code]`, one frozen list per code shared by every item that gives it. A
 * bundle's parts are most of a snapshot's items (57,000 at 10,000 bundles) and give one
 * of a handful of reasons; a list of their own cost each of them 56 bytes (docs/memory.md).
 */
export function onlyReason(code: ReasonCode): readonly ReasonCode[] {
  let list = lists.get(code);
  if (!list) {
    list = Object.freeze([code]);
    lists.set(code, list);
  }
  return list;
}
