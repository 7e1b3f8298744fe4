import type { fsPatcher } from './fsPatch';

/**
 * From here to the end of the test, as on a system without Linux's /proc (macOS, Windows):
 * the thread's CPU time, which flows/hostPerf.ts reads from `/proc/self/task/<pid>/schedstat`,
 * cannot be read. Every other file reads as before.
 */
export function threadCpuUnreadable(fs: ReturnType<typeof fsPatcher>): void {
  fs.replace('readFileSync', (original) => (p: unknown, ...rest: unknown[]) => {
    if (String(p).endsWith('/schedstat'))
      throw Object.assign(new Error(`ENOENT: no such file or directory, open '${String(p)}'`), { code: 'ENOENT' });
    return (original as (...a: unknown[]) => unknown)(p, ...rest);
  });
}
