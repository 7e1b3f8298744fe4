import { indexRunLine } from './indexRunLog';
import type { LogPort } from './ports';
import type { RecheckPhase } from './recheckSchedule';
import type { Indexed } from './snapshotTransfer';

/**
 * What a re-check found (skillgateService.ts `recheck`): nothing new at Debug, but for the
 * full index's first re-check (its watchers made again: the one that matters after a window
 * reload); a change in the window at Info, and past it, one no watcher reported, as a warning.
 */
export function logRecheck(
  log: LogPort,
  phase: RecheckPhase,
  first: boolean,
  indexed: Indexed | undefined,
  ms: number,
): void {
  const what = phase === 'focus' ? 're-check on window focus' : 're-check';
  if (!indexed) {
    // Every few seconds in the first minute, then once a minute for as long as the window
    // is open: the rest at the log's debug level only (the first minute's add up to one line, `logRecheckWindow`).
    const line = `${what}: the disk reads as shown, in ${Math.round(ms)} ms`;
    if (first) log.info(line);
    else log.debug(line);
  } else if (phase === 'window') {
    log.info(`${indexRunLine(what, indexed.snapshot, ms)}: the disk differs from what is shown`);
  } else {
    // Past the window, a watcher that works reports a change within a second or so: this one was missed.
    log.warn(
      `${indexRunLine(what, indexed.snapshot, ms)}: the disk differs from what is shown, by a change no file watcher had reported (files.watcherExclude, or inotify's watch limit?)`,
    );
  }
}

/** The first minute's re-checks, in one line (`RecheckPorts.windowEnded`, flows/rechecks.ts). */
export function logRecheckWindow(log: LogPort, runs: number, differed: number): void {
  const found = differed === 0 ? 'the disk read as shown each time' : `${differed} found the disk changed`;
  log.info(`re-checks in the minute after the full index: ${runs}, ${found}`);
}
