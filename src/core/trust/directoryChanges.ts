import * as fs from 'node:fs';
import { decodeRawName, osPath } from '../fs/rawNames';
import type { BundleFile } from '../model';
import type { FileChange } from './fileChanges';

/**
 * Empty directories added or removed since the review (Codewhale's content hash frames every
 * directory, so one holding no file changes the hash without any file changing). A directory
 * holding anything is said by what it holds; of nested empty ones, the deepest is named. The
 * reviewed side is the reviewed copy, which holds exactly the reviewed directories.
 */
export function directoryChanges(
  files: readonly BundleFile[],
  directories: readonly string[],
  reviewedCopy: string,
): FileChange[] {
  const reviewed = listTree(reviewedCopy);
  if (reviewed === undefined) return [];
  const now = directories.filter((d) => d !== '');
  const nowSet = new Set(now);
  const thenSet = new Set(reviewed.directories);
  const nowHolding = ancestorsOf([...files.map((f) => f.path), ...now]);
  const thenHolding = ancestorsOf([...reviewed.files, ...reviewed.directories]);
  const out: FileChange[] = [];
  for (const d of now)
    if (!thenSet.has(d) && !nowHolding.has(d))
      out.push({ path: `${d}/`, change: 'added', note: 'new empty directory' });
  for (const d of reviewed.directories)
    if (!nowSet.has(d) && !thenHolding.has(d))
      out.push({ path: `${d}/`, change: 'removed', note: 'empty directory removed' });
  return out;
}

/** Every directory that holds one of `paths`, at any depth. */
function ancestorsOf(paths: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const p of paths)
    for (let at = p.lastIndexOf('/'); at > 0; at = p.lastIndexOf('/', at - 1)) {
      const dir = p.slice(0, at);
      if (out.has(dir)) break;
      out.add(dir);
    }
  return out;
}

/**
 * The directories and other entries under `root`, relative, each by its exact name
 * (rawNames.ts); undefined when it cannot be listed. Only ever the reviewed copy, Skillgate's
 * own (see fileChanges.ts `sideTexts`): listed by its path. The bundle's side is the list
 * its hash walked.
 */
function listTree(root: string): { directories: string[]; files: string[] } | undefined {
  const directories: string[] = [];
  const files: string[] = [];
  const rootBytes = Buffer.from(osPath(root));
  const stack: Buffer[] = [Buffer.alloc(0)];
  try {
    for (let rel = stack.pop(); rel !== undefined; rel = stack.pop()) {
      const abs = rel.length ? Buffer.concat([rootBytes, SLASH, rel]) : rootBytes;
      for (const e of fs.readdirSync(abs, { withFileTypes: true, encoding: 'buffer' })) {
        const child = rel.length ? Buffer.concat([rel, SLASH, e.name]) : e.name;
        if (e.isDirectory()) {
          directories.push(decodeRawName(child));
          stack.push(child);
        } else files.push(decodeRawName(child));
      }
    }
  } catch {
    return undefined;
  }
  return { directories, files };
}

const SLASH = Buffer.from('/');
