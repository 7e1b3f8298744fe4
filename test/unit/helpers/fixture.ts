import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Indexer, type IndexOptions } from '../../../src/core/index/indexer';
import type { Snapshot } from '../../../src/core/index/snapshot';
import type { HostFacts } from '../../../src/core/host';
import type { Item } from '../../../src/core/model';

/** Small real files on disk, made per test and removed after. */
export class Fixture {
  readonly root: string;

  /** `base`: where to make it; tests that create thousands of files pass a memory file system when there is one. */
  constructor(base = os.tmpdir()) {
    this.root = fs.realpathSync(fs.mkdtempSync(path.join(base, 'skillgate-test-')));
  }

  path(...parts: string[]): string {
    return path.join(this.root, ...parts);
  }

  write(rel: string, content: string | Buffer, mode?: number): string {
    const p = this.path(rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
    if (mode !== undefined) fs.chmodSync(p, mode);
    return p;
  }

  mkdir(rel: string): string {
    const p = this.path(rel);
    fs.mkdirSync(p, { recursive: true });
    return p;
  }

  symlink(target: string, rel: string): string {
    const p = this.path(rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.symlinkSync(target, p);
    return p;
  }

  remove(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

export const LINUX_HOST: HostFacts = { os: 'linux', hasBinary: () => true };

export function index(workspaces: string[], options: Partial<IndexOptions> = {}): Snapshot {
  return new Indexer({ workspaces, codewhaleHome: null, host: LINUX_HOST, ...options }).indexAll();
}

export function top(snapshot: Snapshot): Item[] {
  return snapshot.items.filter((i) => i.parent === null);
}

export function byName(snapshot: Snapshot, qualifiedName: string): Item {
  const found = snapshot.items.filter((i) => i.qualifiedName === qualifiedName);
  if (found.length !== 1)
    throw new Error(
      `expected one item named ${qualifiedName}, found ${found.length}: ${snapshot.items.map((i) => i.qualifiedName).join(', ')}`,
    );
  return found[0] as Item;
}

export function codes(snapshot: Snapshot): string[] {
  return snapshot.diagnostics.map((d) => d.code);
}

export function messages(snapshot: Snapshot): string[] {
  return snapshot.diagnostics.map((d) => d.message);
}

/** Bundle W(extra) of codewhale.md §10: example-plugin with one skill. */
export function writeW(f: Fixture, extra = '', dir = 'ws/.codewhale/plugins/example-plugin'): string {
  f.write(
    `${dir}/plugin.toml`,
    `schema_version = 1\n[plugin]\nname = "example-plugin"\nversion = "1.2.3"\n[skills]\npath = "skills"\n${extra}`,
  );
  f.write(`${dir}/skills/example/SKILL.md`, '---\nname: example\ndescription: example\n---\nbody\n');
  return f.path(dir);
}

/** Bundle D(extra): user bundle `demo`. */
export function writeD(f: Fixture, extra = '', dir = 'home/plugins/demo'): string {
  f.write(`${dir}/plugin.toml`, `schema_version = 1\n[plugin]\nname = "demo"\nversion = "1.0.0"\n${extra}`);
  return f.path(dir);
}
