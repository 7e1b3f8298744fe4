import { strict as assert } from 'node:assert';
import { logRecheck, logRecheckWindow } from '../../src/extension/flows/recheckLog';
import type { Indexed } from '../../src/extension/flows/snapshotTransfer';
import type { Snapshot } from '../../src/core/index/snapshot';

/**
 * What a re-check says in the log (flows/recheckLog.ts): the e2e layer reads these lines
 * (focusRecheck.e2e.ts), and the Debug level keeps a minute of quiet re-checks out of the
 * channel's default view.
 */
describe('the log of the re-checks', () => {
  const logged = () => {
    const lines: string[] = [];
    const at = (level: string) => (m: string) => void lines.push(`[${level}] ${m}`);
    return { lines, log: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
  };
  const snapshot: Snapshot = { generation: 1, workspaces: [], items: [], diagnostics: [], trustProblem: null };
  const differs: Indexed = { snapshot, watched: { paths: [], trees: [] } };

  it('says a re-check that found nothing new at Info for the first of the window, at Debug after it', () => {
    const { lines, log } = logged();
    logRecheck(log, 'window', true, undefined, 12.4);
    logRecheck(log, 'window', false, undefined, 7.6);
    logRecheck(log, 'steady', false, undefined, 3);
    assert.deepEqual(lines, [
      '[info] re-check: the disk reads as shown, in 12 ms',
      '[debug] re-check: the disk reads as shown, in 8 ms',
      '[debug] re-check: the disk reads as shown, in 3 ms',
    ]);
  });

  it('says a change found in the window at Info, and one found past it, on focus, as a missed watcher event', () => {
    const { lines, log } = logged();
    logRecheck(log, 'window', false, differs, 20);
    logRecheck(log, 'focus', false, differs, 30);
    assert.deepEqual(lines, [
      '[info] re-check: 0 item(s), 0 diagnostic(s) in 20 ms: the disk differs from what is shown',
      "[warn] re-check on window focus: 0 item(s), 0 diagnostic(s) in 30 ms: the disk differs from what is shown, by a change no file watcher had reported (files.watcherExclude, or inotify's watch limit?)",
    ]);
  });

  it('sums up the first minute in one line', () => {
    const { lines, log } = logged();
    logRecheckWindow(log, 9, 0);
    logRecheckWindow(log, 9, 2);
    assert.deepEqual(lines, [
      '[info] re-checks in the minute after the full index: 9, the disk read as shown each time',
      '[info] re-checks in the minute after the full index: 9, 2 found the disk changed',
    ]);
  });
});
