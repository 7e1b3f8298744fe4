import * as fs from 'node:fs';
import * as path from 'node:path';

/** What `[when]` asks of the host (codewhale.md §4.9); injected so tests can pose as any host. */
export interface HostFacts {
  /** Codewhale's OS name: linux, macos, windows, freebsd, … */
  readonly os: string;
  hasBinary(name: string): boolean;
  /**
   * A new reading of the disk begins: what was learnt of PATH before is forgotten. Within one
   * reading, the bundles that name the same binary ask PATH once.
   */
  newReading?(): void;
}

const OS_OF_PLATFORM: Record<string, string> = { darwin: 'macos', win32: 'windows' };

export function currentHost(env: NodeJS.ProcessEnv = process.env): HostFacts {
  // An empty entry is kept, as Rust's `split_paths` keeps it: Codewhale joins the name to it and
  // finds a file in its working directory (one unset or empty PATH is one such entry). Relative
  // entries resolve against this process's working directory, the agent's when both start in the workspace.
  const dirs = (env.PATH ?? '').split(path.delimiter);
  // Answers of this reading only: Codewhale probes PATH at every discovery, and one host serves
  // an editor session's every re-read, so an answer kept longer would keep a bundle applicable
  // (shown active) after its binary was removed, or inapplicable after it was installed.
  let found = new Map<string, boolean>();
  return {
    os: OS_OF_PLATFORM[process.platform] ?? process.platform,
    hasBinary(name: string): boolean {
      let on = found.get(name);
      if (on === undefined) {
        const names = process.platform === 'win32' ? [name, `${name}.exe`] : [name];
        on = dirs.some((d) => names.some((n) => isFile(path.join(d, n))));
        found.set(name, on);
      }
      return on;
    },
    newReading() {
      found = new Map();
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
