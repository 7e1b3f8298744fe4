import { strict as assert } from 'node:assert';
import { storeChange } from '../../src/extension/flows/storeChange';
import type { Item } from '../../src/core/model';

/**
 * A trust-store change from the editor (flows/storeChange.ts): the log says what changed and
 * in how long, or why it was refused, with the bundle's name and the reason escaped (both are
 * repository text); the caller's promise settles once the change is shown, not when the
 * store's watcher reports it (which may stay silent).
 */
describe('a trust-store change from the editor', () => {
  const logged = () => {
    const lines: string[] = [];
    const at = (level: string) => (m: string) => void lines.push(`[${level}] ${m}`);
    return { lines, log: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
  };
  const named = (name: string) => ({ name }) as Item;
  const shownAtOnce = async () => undefined;

  it('logs a change with its time at Info, and a refusal with its reason as a warning, repository text escaped', async () => {
    const { lines, log } = logged();
    const done = await storeChange(
      log,
      'trust',
      named('evil\u001b[2J'),
      async () => ({ ok: true }) as const,
      shownAtOnce,
    );
    const refused = await storeChange(
      log,
      'enable',
      named('pk'),
      async () => ({ ok: false, message: 'its files changed\u202e' }) as const,
      shownAtOnce,
    );
    assert.deepEqual([done.ok, refused.ok], [true, false], 'the core answer is handed back as it came');
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.match(lines[0] as string, /^\[info\] trust store: trust evil\\u\{1b\}\[2J in \d+ ms$/);
    assert.match(
      lines[1] as string,
      /^\[warn\] trust store: enable pk refused after \d+ ms: its files changed\\u\{202e\}$/,
    );
  });

  it('logs the time the change took: no less than its wait, no more than the whole call', async () => {
    const { lines, log } = logged();
    const before = performance.now();
    await storeChange(
      log,
      'trust',
      named('pk'),
      () => new Promise<{ ok: true }>((resolve) => setTimeout(() => resolve({ ok: true }), 30)),
      shownAtOnce,
    );
    const whole = performance.now() - before;
    const ms = Number(/ in (\d+) ms$/.exec(lines[0] as string)?.[1]);
    assert.ok(ms >= 29 && ms <= Math.ceil(whole), `logged ${ms} ms for a call of ${whole} ms: ${lines[0]}`);
  });

  it('settles only once the change is shown, and shows it after the store changed', async () => {
    const { log } = logged();
    const order: string[] = [];
    let showDone = () => {};
    const changing = storeChange(
      log,
      'revoke',
      named('pk'),
      async () => {
        order.push('change');
        return { ok: true } as const;
      },
      () => (order.push('show'), new Promise<void>((resolve) => (showDone = resolve))),
    );
    let settled = false;
    void changing.then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(order, ['change', 'show']);
    assert.equal(settled, false, 'settled before the change was shown');
    showDone();
    await changing;
    assert.equal(settled, true);
  });
});
