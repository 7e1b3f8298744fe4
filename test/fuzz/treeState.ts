import * as fs from 'node:fs';

/** Root-relative entry → type and permissions, size and mtime, to prove a command wrote nothing where it must not. */
export function treeState(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (abs: Buffer, rel: string) => {
    let names: Buffer[];
    try {
      names = fs.readdirSync(abs, { encoding: 'buffer' });
    } catch {
      return;
    }
    for (const n of names) {
      const a = Buffer.concat([abs, Buffer.from('/'), n]);
      const r = `${rel}/${n.toString('latin1')}`;
      try {
        const st = fs.lstatSync(a, { bigint: true });
        out.set(r, `${st.mode}:${st.size}:${st.mtimeNs}`);
        if (st.isDirectory()) walk(a, r);
      } catch {
        out.set(r, 'gone');
      }
    }
  };
  walk(Buffer.from(root), '');
  return out;
}

/**
 * The root-relative entries that differ between two states, outside the `allowed` prefixes.
 * `dirContents`: a directory's size and mtime are ignored (an entry added or removed in it
 * is an entry of its own), for a command allowed to write a file into a directory, or to
 * list what a file watcher would report.
 */
export function changedKeys(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
  allowed: readonly string[],
  dirContents = false,
): string[] {
  const free = (k: string) => allowed.some((a) => k === a || k.startsWith(`${a}/`));
  const same = (a: string | undefined, b: string | undefined) => {
    if (a === b) return true;
    if (!dirContents || a === undefined || b === undefined) return false;
    const [modeA] = a.split(':');
    const [modeB] = b.split(':');
    return modeA === modeB && (BigInt(modeA ?? '0') & 0o170000n) === 0o040000n;
  };
  const out: string[] = [];
  for (const [k, v] of after) if (!free(k) && !same(before.get(k), v)) out.push(k);
  for (const k of before.keys()) if (!free(k) && !after.has(k)) out.push(k);
  return out;
}

/** `changedKeys` in words, for a failure's detail. */
export function changedEntries(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
  allowed: readonly string[],
  dirContents = false,
): string[] {
  return changedKeys(before, after, allowed, dirContents).map((k) =>
    after.has(k)
      ? `${JSON.stringify(k)} changed (${before.get(k) ?? 'absent'} -> ${after.get(k) ?? ''})`
      : `${JSON.stringify(k)} disappeared`,
  );
}
