import type { Item } from '../../core/model';
import { displayText } from '../../core/text/displayText';
import type { LogPort } from './ports';

/** What a trust-store change answers: done, or refused with the core's reason. */
export type StoreChangeResult = { readonly ok: true } | { readonly ok: false; readonly message: string };

/**
 * A trust-store change (trust, enable, disable, revoke), logged with its time or its
 * refusal, and shown at once (`show`), without waiting for the store watcher.
 */
export async function storeChange<R extends StoreChangeResult>(
  log: LogPort,
  operation: string,
  item: Item,
  change: () => Promise<R>,
  show: () => Promise<unknown>,
): Promise<R> {
  const started = performance.now();
  const r = await change();
  const what = `trust store: ${operation} ${displayText(item.name)}`;
  const ms = Math.round(performance.now() - started);
  if (r.ok) log.info(`${what} in ${ms} ms`);
  else log.warn(`${what} refused after ${ms} ms: ${displayText(r.message)}`);
  await show();
  return r;
}
