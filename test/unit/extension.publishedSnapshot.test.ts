import { strict as assert } from 'node:assert';
import type { Snapshot } from '../../src/core/index/snapshot';
import { loadWithVscode } from './helpers/vscodeStandIn';

type Published = typeof import('../../src/extension/publishedSnapshot');

/**
 * The snapshot the window shows (publishedSnapshot.ts): what shows it says when it is done,
 * a trust store that fails closed is said once, and nothing is shown once the window let go.
 */
describe('the published snapshot', () => {
  const { PublishedSnapshot } = loadWithVscode(() => require('../../src/extension/publishedSnapshot') as Published);
  let errors: string[];
  const log = {
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: (m: string) => void errors.push(m),
  };
  const snapshot = (generation: number, trustProblem: string | null = null): Snapshot => ({
    generation,
    workspaces: ['/ws'],
    items: [],
    diagnostics: [],
    trustProblem,
  });
  beforeEach(() => (errors = []));

  it('is presented only once every listener that asked to be waited for is done', async () => {
    const shown = new PublishedSnapshot(log);
    let done: () => void = () => undefined;
    shown.onDidChange(({ waitUntil }) => waitUntil(new Promise<void>((resolve) => (done = resolve))));
    shown.publish(snapshot(1));
    let presented = false;
    void shown.presented.then(() => (presented = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(presented, false, 'not before the view is done with it');
    done();
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.equal(presented, true);
  });

  it('logs a trust store that fails closed once per problem, escaped', () => {
    const shown = new PublishedSnapshot(log);
    shown.publish(snapshot(1, 'state.json is not JSON\u001b[2J'));
    shown.publish(snapshot(2, 'state.json is not JSON\u001b[2J'));
    shown.publish(snapshot(3));
    shown.publish(snapshot(4, 'EACCES'));
    assert.deepEqual(errors, [
      'trust store unavailable, every bundle fails closed: state.json is not JSON\\u{1b}[2J',
      'trust store unavailable, every bundle fails closed: EACCES',
    ]);
  });

  it('shows nothing more once disposed', () => {
    const shown = new PublishedSnapshot(log);
    const first = snapshot(1);
    shown.publish(first);
    shown.dispose();
    const later = snapshot(2, 'EACCES');
    assert.equal(shown.publish(later), later);
    assert.equal(shown.current, first);
    assert.deepEqual(errors, []);
  });
});
