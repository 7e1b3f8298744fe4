import { notATrustUnit, readBundleSource } from './bundleSource';
import { invalidBundleRefusal, unloadable } from './invalidBundle';
import { verifyReviewedCopy } from './reviewedCopy';
import type { BundleState } from './stateSchema';
import { touched, unavailableMessage, type Mutation, type TrustStore } from './trustStore';
import { enableBlock, hasEnableSwitch, noEnableSwitchRefusal } from './enableSwitch';
import type { LifecycleContext } from './lifecycle';
import { systemOf } from '../systems/registry';
import { statusOf } from '../decisions/gates';
import type { Item } from '../model';

// The switches on a bundle's store entry (trust.md "Operations"): `enable` and `disable` set its
// enable bit, `revoke` drops its receipt. Whether an agent honours the bit, and what blocks
// enabling a unit, is enableSwitch.ts; trust itself (which resets the bit) is grantTrust.ts.

export async function enable(
  item: Item,
  ctx: LifecycleContext,
): Promise<Mutation<{ item: Item; note: string | null }>> {
  if (!hasEnableSwitch(item))
    // A Rivumi hook or skill is no unit either: its agent having no switch is not the first thing wrong.
    return { ok: false, message: item.trust === null ? notATrustUnit(item) : noEnableSwitchRefusal(item, 'enable') };
  const unavailable = storeProblem(ctx.store);
  if (unavailable) return { ok: false, message: unavailable };
  const read = readBundleSource(item, ctx.host);
  if (!read.ok) return { ok: false, message: unloadable(item, ctx, read.message) };
  const s = read.source;
  const invalid = invalidBundleRefusal(s.item, s.diagnostics, s.root);
  if (invalid) return { ok: false, message: invalid };
  const label = systemOf(s.item.system).unitLabel(s.item);
  // Re-hashing the reviewed copy can take long; it is done before the lock, whose section
  // must stay short (a writer that holds it past the stale time loses it). The copy is
  // named by its content hash, so what is verified here is what the check below needs.
  const copyVerified = verifyReviewedCopy(ctx.store.reviewedCopiesDir, s, s.item.contentHash as string);
  return ctx.store.mutate((state) => {
    // Checked against the store as it is now, under the lock, not against an older view.
    const entry = state.bundles[s.bundleKey];
    const status = statusOf(entry?.trust ?? null, s.item.contentHash as string, s.item.capabilityHash as string);
    if (status !== 'trusted')
      return { ok: false, message: `${label} \`${s.item.name}\` requires review before enablement (trust: ${status})` };
    if (!copyVerified) {
      // The message keeps the word users and tests know ("snapshot"): it names the reviewed copy.
      return {
        ok: false,
        message: `${label} \`${s.item.name}\` has no verified snapshot of what was reviewed; review and trust it again before enablement`,
      };
    }
    const inactive = s.item.detail.activation?.inactiveComponents ?? [];
    // In the agent's words; the tree and the panel do not offer what is refused here (enableSwitch.ts).
    const block = enableBlock(s.item, s.applicable);
    if (block === 'staged_skill_invalid')
      // The agent loads the skills from its snapshot, and one that fails to load leaves it no
      // verified snapshot (codewhale.md §8.6): enabling it would switch on nothing.
      return {
        ok: false,
        message: `${label} \`${s.item.name}\` has no verified snapshot: a skill in it cannot be loaded (see its skill-invalid problems); fix it, then review and trust it again before enablement`,
      };
    if (block === 'not_applicable')
      return { ok: false, message: `${label} \`${s.item.name}\` does not apply to this host` };
    if (block === 'unsupported')
      return {
        ok: false,
        message: `${label} \`${s.item.name}\` has no supported declarative components to activate; inactive: ${inactive.join(', ')}`,
      };
    if (ctx.workspaceTrusted === false)
      return { ok: false, message: 'Restricted Mode: trust the workspace in VS Code before enabling its bundles.' };
    state.bundles[s.bundleKey] = touched({ ...(entry as BundleState), enabled: true });
    const note =
      s.item.compatibility === 'partial'
        ? `Compatibility: partial. Supported declarative components are active; inactive: ${inactive.join(', ')}.`
        : null;
    return { ok: true, value: { item: s.item, note } };
  });
}

export async function disable(item: Item, ctx: LifecycleContext): Promise<Mutation<{ changed: boolean }>> {
  if (!hasEnableSwitch(item))
    // A Rivumi hook or skill is no unit either: its agent having no switch is not the first thing wrong.
    return { ok: false, message: item.trust === null ? notATrustUnit(item) : noEnableSwitchRefusal(item, 'disable') };
  return setBit(item, ctx, (entry) => ({ ...entry, enabled: false }));
}

/**
 * What `disable` or `revoke` did, as the CLI, the palette and the review panel say it: a
 * stale view can ask for what is already so, and then nothing changed and nothing is said to.
 */
export function withdrawalText(operation: 'disable' | 'revoke', name: string, changed: boolean): string {
  if (operation === 'disable') return changed ? `Disabled ${name}.` : `${name} is not enabled; nothing to disable.`;
  return changed ? `Revoked trust in ${name}.` : `${name} has no trust record; nothing to revoke.`;
}

/** Drops the receipt; the history and the enable bit stay (codewhale.md §8.4). */
export async function revoke(item: Item, ctx: LifecycleContext): Promise<Mutation<{ changed: boolean }>> {
  return setBit(item, ctx, (entry) => ({ ...entry, trust: null }));
}

async function setBit(
  item: Item,
  ctx: LifecycleContext,
  change: (e: BundleState) => BundleState,
): Promise<Mutation<{ changed: boolean }>> {
  const unavailable = storeProblem(ctx.store);
  if (unavailable) return { ok: false, message: unavailable };
  const key = item.detail.bundleKey;
  if (!key) return { ok: false, message: notATrustUnit(item) };
  return ctx.store.mutate<{ changed: boolean }>((state) => {
    const entry = state.bundles[key];
    if (!entry) return { ok: true, value: { changed: false } };
    const next = change(entry);
    // Already so (revoked twice, disabled while off): nothing changes, and nothing is said to.
    if (next.trust === entry.trust && next.enabled === entry.enabled) return { ok: true, value: { changed: false } };
    state.bundles[key] = touched(next);
    return { ok: true, value: { changed: true } };
  });
}

function storeProblem(store: TrustStore): string | undefined {
  const r = store.read();
  return r.ok ? undefined : unavailableMessage(r);
}
