import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileRecord, newHash, sha256Hex, u64le } from '../hashing/framing';
import { joinSet, rivumiCapabilityHash } from '../hashing/capabilityHash';
import { isInside, readRegularFile } from '../fs/safeFs';
import type { BundleFile } from '../model';
import type { RivumiBundleHashes, RivumiHook } from './model';

const MAX_COVERED_FILE_BYTES = 67108864;

/**
 * Skillgate's Rivumi hashes (trust.md "Hashes"): Codewhale's framing with our own
 * domains. Covered files are framed by workspace-relative path, in byte order.
 */
function contentHash(domain: string, workspace: string, manifestBytes: Uint8Array, covered: readonly string[]): { hash: string; files: BundleFile[] } {
  const h = newHash();
  h.update(domain);
  h.update(u64le(manifestBytes.length));
  h.update(manifestBytes);
  const rels = [...new Set(covered.map((abs) => path.relative(workspace, abs).split(path.sep).join('/')))].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const files: BundleFile[] = [];
  for (const rel of rels) {
    const abs = path.join(workspace, rel);
    const read = readRegularFile(abs, MAX_COVERED_FILE_BYTES);
    if (!read.ok) {
      // A missing or unreadable file is hashed as its absence, so that it appearing changes the hash.
      h.update(`missing\0${rel}\0`);
      continue;
    }
    fileRecord(h, rel, read.executable, read.bytes, 'workspace-relative-file');
    files.push({ path: rel, size: read.bytes.length, sha256: sha256Hex(read.bytes), executable: read.executable });
  }
  return { hash: h.digest('hex'), files };
}

function capabilities(skills: number, hooks: readonly RivumiHook[]): Record<string, string> {
  return {
    'hook-commands': joinSet(hooks.map((x) => x.argv[0] ?? '')),
    'hook-events': joinSet(hooks.map((x) => x.event)),
    hooks: String(hooks.length),
    skills: String(skills),
    tools: joinSet(hooks.flatMap((x) => x.tools)),
  };
}

function finish(content: { hash: string; files: BundleFile[] }, caps: Record<string, string>, manifestRel: string, manifestBytes: Uint8Array, manifestExec: boolean): RivumiBundleHashes {
  const files = [{ path: manifestRel, size: manifestBytes.length, sha256: sha256Hex(manifestBytes), executable: manifestExec }, ...content.files.filter((f) => f.path !== manifestRel)];
  return { contentHash: content.hash, capabilityHash: rivumiCapabilityHash(new Map(Object.entries(caps))), capabilities: caps, files };
}

export function rivumiPluginHashes(workspace: string, manifestRel: string, manifestBytes: Uint8Array, skillFiles: readonly string[], skillCount: number, hooks: readonly RivumiHook[]): RivumiBundleHashes {
  const content = contentHash('skillgate-rivumi-plugin-content-v1\0', workspace, manifestBytes, skillFiles);
  return finish(content, capabilities(skillCount, hooks), manifestRel, manifestBytes, false);
}

/**
 * The hooks file plus every regular workspace file a hook's argv names by relative
 * path: the script a hook runs is part of what was approved (trust.md).
 */
export function rivumiHooksHashes(workspace: string, hooksBytes: Uint8Array, hooks: readonly RivumiHook[]): RivumiBundleHashes {
  const scripts = new Set<string>();
  for (const hook of hooks) for (const arg of hook.argv) {
    const abs = scriptPath(workspace, arg);
    if (abs) scripts.add(abs);
  }
  const content = contentHash('skillgate-rivumi-hooks-content-v1\0', workspace, hooksBytes, [...scripts]);
  return finish(content, capabilities(0, hooks), '.rivumi/hooks.json', hooksBytes, false);
}

/** An argv entry that names a regular file inside the workspace, reached without a symbolic link. */
export function scriptPath(workspace: string, arg: string): string | undefined {
  if (arg === '' || arg.startsWith('-') || path.isAbsolute(arg) || arg.includes('\0')) return undefined;
  const abs = path.resolve(workspace, arg);
  if (!isInside(workspace, abs) || abs === workspace) return undefined;
  let cur = workspace;
  for (const part of path.relative(workspace, abs).split(path.sep)) {
    cur = path.join(cur, part);
    try {
      const st = fs.lstatSync(cur);
      if (st.isSymbolicLink()) return undefined;
      if (cur === abs) return st.isFile() ? abs : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
