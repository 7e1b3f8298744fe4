import * as path from 'node:path';
import { currentHost, type HostFacts } from '../host';
import { hashListed } from '../hashing/listedFiles';
import { portableRelative } from '../fs/portablePath';
import { byteOrder } from '../fs/rawNames';
import { systemOf } from '../systems/registry';
import { hasEnableSwitch } from './enableSwitch';
import type { BundleFile, Diagnostic, Item } from '../model';
import type { InvalidBundle } from '../systems/agentSystem';
import type { LifecycleContext } from './lifecycle';

/**
 * Reads an invalid unit from disk, by its agent. `reviewed` are the paths its receipt
 * covers, so that the files the reviewer approved are hashed now even when the loader
 * cannot name them (a Rivumi manifest that no longer parses lists no skill files).
 * Undefined when the unit is gone.
 */
export function readInvalidBundle(
  item: Item,
  reviewed: readonly string[],
  host: HostFacts = currentHost(),
): InvalidBundle | undefined {
  return systemOf(item.system).readInvalid(item, reviewed, host);
}

/**
 * The one sentence that says why a unit cannot be trusted or enabled, used alike by the
 * review, `trust` and `enable`; null when the unit is not invalid. It names the first
 * error and where it is (`file:line`), as the agent reports it, and speaks of enabling only
 * where the agent has an enable switch (trust.md "Status").
 */
export function invalidBundleRefusal(item: Item, diagnostics: readonly Diagnostic[], root: string): string | null {
  if (!item.reasons.includes('manifest_invalid')) return null;
  const system = systemOf(item.system);
  const agent = system.label;
  const what = system.unitLabel(item);
  const error = diagnostics.find((d) => d.severity === 'error');
  const where = error
    ? ` (${portableRelative(root, error.file) || path.basename(error.file)}:${error.range.start.line + 1})`
    : '';
  const why = error ? `: ${error.message}${where}` : '';
  const refused = hasEnableSwitch(item) ? 'trusted or enabled' : 'trusted';
  return `${what} \`${item.name}\` is invalid${why}. ${agent} does not load it, so it cannot be ${refused} until the error is fixed and it is reviewed again.`;
}

/**
 * Why Skillgate's own hash of a unit failed though its agent reads the manifest (a symbolic
 * link, an unreadable file or the size cap among the files it covers: eva.md §6.1), in the
 * words of the diagnostic that says so (`eva.trust.symlink`) or of `check` (the unit's
 * `notCovered`, checkGate.ts). Null when the unit has hashes, or has none because its agent
 * rejects the manifest: then the manifest does not load, and invalidBundleRefusal says why.
 */
export function skillgateHashFailure(item: Item): string | null {
  if (item.contentHash !== null || item.reasons.includes('manifest_invalid')) return null;
  const why = item.detail.notCovered ?? [];
  return why.length > 0 ? why.join('; ') : null;
}

/**
 * The one sentence that says why a unit Skillgate cannot hash cannot be trusted, and what its
 * agent does with it all the same (Eva-CLI registers such a skill: eva.md §6.1), since what
 * failed is Skillgate's hash, not the agent's load; null when skillgateHashFailure is.
 */
export function unhashableRefusal(item: Item): string | null {
  const why = skillgateHashFailure(item);
  if (why === null) return null;
  const system = systemOf(item.system);
  const agent = system.loads(item)
    ? `${system.label} loads it all the same (${item.decision}), whatever Skillgate says.`
    : `${system.label} does not load it now either (${item.decision}; see its reasons).`;
  return `Skillgate cannot hash ${system.unitLabel(item)} \`${item.name}\` (${why}), so it cannot be trusted until that is fixed and it is reviewed again. ${agent}`;
}

/**
 * An invalid unit's files plus the reviewed files it no longer names: what its loader
 * covers is unknown (an invalid hooks file names no scripts), so the files the reviewer
 * approved are shown as they are on disk, never as removed while they are still there.
 */
export function withReviewedFiles(
  files: readonly BundleFile[],
  root: string,
  reviewed: readonly string[],
): BundleFile[] {
  const named = new Set(files.map((f) => f.path));
  const extra = hashListed(
    root,
    reviewed.filter((p) => !named.has(p)),
  );
  return [...files, ...extra].sort((a, b) => byteOrder(a.path, b.path));
}

/** Why trust or enable is refused for a unit that does not load: its first error when it is invalid, else the read failure. */
export function unloadable(item: Item, ctx: LifecycleContext, failure: string): string {
  const disk = readInvalidBundle(item, [], ctx.host);
  return (disk && invalidBundleRefusal(disk.item, disk.diagnostics, disk.root)) ?? failure;
}
