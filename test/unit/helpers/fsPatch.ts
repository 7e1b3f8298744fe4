/**
 * Replaces functions of `node:fs` for one test, each built around the original. Called in
 * a `describe`, it puts every original back after each test. The core's `import * as fs`
 * reads the CommonJS module object, so a function replaced on it is the one the code
 * under test calls.
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
    Object.assign(nodeFs, { [name]: around(originals.get(name) as NodeFs[K]) });
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
