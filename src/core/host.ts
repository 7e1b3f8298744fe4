import * as fs from 'node:fs';
import * as path from 'node:path';

/** What `[when]` asks of the host (codewhale.md §4.9); injected so tests can pose as any host. */
export interface HostFacts {
  /** Codewhale's OS name: linux, macos, windows, freebsd, … */
  readonly os: string;
  hasBinary(name: string): boolean;
}

const OS_OF_PLATFORM: Record<string, string> = { darwin: 'macos', win32: 'windows' };

export function currentHost(env: NodeJS.ProcessEnv = process.env): HostFacts {
  const dirs = (env.PATH ?? '').split(path.delimiter).filter((d) => d !== '');
  const cache = new Map<string, boolean>();
  return {
    os: OS_OF_PLATFORM[process.platform] ?? process.platform,
    hasBinary(name: string): boolean {
      let found = cache.get(name);
      if (found === undefined) {
        const names = process.platform === 'win32' ? [name, `${name}.exe`] : [name];
        found = dirs.some((d) => names.some((n) => isFile(path.join(d, n))));
        cache.set(name, found);
      }
      return found;
    },
  };
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}
