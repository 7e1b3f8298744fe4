/**
 * The CPU time `work` costs this process, in milliseconds.
 *
 * The hostile-input tests bound how much work a parser may do on a crafted input (a
 * super-linear parser takes minutes, not seconds). Wall-clock bounds also count the time
 * spent waiting for a core, and failed on a loaded two-core machine; CPU time counts only
 * the work (all threads of the process, user and system: reading a file counts too).
 */
export function cpuTime<T>(work: () => T): { readonly result: T; readonly ms: number } {
  const started = process.cpuUsage();
  const result = work();
  const spent = process.cpuUsage(started);
  return { result, ms: (spent.user + spent.system) / 1000 };
}
