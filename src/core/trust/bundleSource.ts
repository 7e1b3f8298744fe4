import * as fs from 'node:fs';
import { currentHost, type HostFacts } from '../host';
import { agentSystems, systemOf } from '../systems/registry';
import type { Item } from '../model';

export type { BundleSource } from '../systems/agentSystem';
import type { SourceRead } from '../systems/agentSystem';

/** A trust unit read from disk now, by its agent (review and trust never rely on an older index). */
export function readBundleSource(item: Item, host: HostFacts = currentHost()): SourceRead {
  if (item.trust === null) return { ok: false, message: notATrustUnit(item) };
  return systemOf(item.system).readSource(item, host);
}

/** Why review, trust, enable and disable refuse an item that is part of a unit or stands alone (a skill, one hook). */
export function notATrustUnit(item: Pick<Item, 'qualifiedName'>): string {
  return `${item.qualifiedName} is not a trust unit; only these are trusted: ${agentSystems()
    .map((s) => s.trustUnitsInWords)
    .join('; ')}`;
}

/** True when `p` exists as a directory (reviewed copies). */
export function isDirectory(p: string): boolean {
  try {
    return fs.lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}
