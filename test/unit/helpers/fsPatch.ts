/**
 * Replaces functions of `node:fs` for one test, each built around the original. Called in
 * a `describe`, it puts every original back after each test. The core's `import * as fs`
 * reads the CommonJS module object, so a function replaced on it is the one the code
 * under test calls. A replacement sees each path as `logicalPath` spells it, so a fault
 * injected at a path meets the content walk, which names entries against the directories
 * it holds; the original is still handed the path the code under test gave.
 */
export function fsPatcher() {
  const nodeFs = require('node:fs') as typeof import('node:fs');
  type NodeFs = typeof nodeFs;
  const originals = new Map<keyof NodeFs, unknown>();
  afterEach(() => {
    for (const [name, original] of originals) Object.assign(nodeFs, { [name]: original });
    originals.clear();
  });
  const replace = <K extends keyof NodeFs>(name: K, around: (original: NodeFs[K]) => unknown): void => {
    if (!originals.has(name)) originals.set(name, nodeFs[name]);
    const original = originals.get(name) as (...a: unknown[]) => unknown;
    // The call being made, while the replacement runs: its path as shown, and as given.
    let current: { shown: unknown; given: unknown } | undefined;
    // With the original's own properties too (`realpathSync.native`).
    const passOn = Object.assign(
      (p: unknown, ...rest: unknown[]) =>
        original(current !== undefined && p === current.shown ? current.given : p, ...rest),
      original,
    );
    const replaced = around(passOn as NodeFs[K]) as (...a: unknown[]) => unknown;
    const installed = (p: unknown, ...rest: unknown[]) => {
      const shown = logicalPath(p);
      if (shown === p) return replaced(p, ...rest);
      const outer = current;
      current = { shown, given: p };
      try {
        return replaced(shown, ...rest);
      } finally {
        current = outer;
      }
    };
    // With the replacement's own properties (`realpathSync.native`).
    Object.assign(nodeFs, { [name]: Object.assign(installed, replaced) });
  };
  return {
    replace,
    /**
     * Records the path of each call of `name` that `keep` takes (every call without it),
     * then makes the call: the list fills as the code under test runs.
     */
    calls(name: keyof NodeFs, keep: (p: string) => boolean = () => true): string[] {
      const seen: string[] = [];
      replace(name, (original) => (p: unknown, ...rest: unknown[]) => {
        if (keep(String(p))) seen.push(String(p));
        return (original as (...a: unknown[]) => unknown)(p, ...rest);
      });
      return seen;
    },
  };
}

/** The original, taken before any test replaces it. */
const readlink = (require('node:fs') as typeof import('node:fs')).readlinkSync;
/** `/proc/<this process>/fd/<fd>`, as heldDirectory.ts spells it (or `/proc/self/fd/<fd>`). */
const HELD = new RegExp(`^/proc/(?:self|${process.pid})/fd/(\\d+)(?=/|$)`);

/**
 * A path as a test names it. The content walk names a bundle's entries against a directory
 * it holds (src/core/fs/heldDirectory.ts): `/proc/<pid>/fd/<fd>/<name>` is the held
 * directory's path, as `/proc` reads it now, then `/<name>`. Any other value is itself.
 */
export function logicalPath(p: unknown): unknown {
  const text = typeof p === 'string' ? p : Buffer.isBuffer(p) ? p.toString('latin1') : undefined;
  const held = text === undefined ? null : HELD.exec(text);
  if (!held) return p;
  try {
    const dir = `/proc/self/fd/${held[1]}`;
    if (typeof p === 'string') return readlink(dir, 'utf8') + p.slice(held[0].length);
    return Buffer.concat([readlink(dir, 'buffer'), (p as Buffer).subarray(held[0].length)]);
  } catch {
    return p;
  }
}
