import { fileRecord, newHash, sha256Hex, u64le } from '../../hashing/framing';
import { joinSet } from '../../hashing/capabilityPairs';
import { rivumiCapabilityHash } from './capabilityHash';
import { readRegularFile } from '../../fs/safeFs';
import { decodeRawName, osBytes } from '../../fs/rawNames';
import { hookArgvCoverage, type ArgvProblem } from './hookArgvFiles';
import type { BundleFile } from '../../model';
import type { NotCovered, RivumiBundleHashes, RivumiHook } from './model';
import { portableRelative } from '../../fs/portablePath';

const MAX_COVERED_FILE_BYTES = 67108864;
const SLASH = Buffer.from('/');

/** What a Rivumi trust unit's content hash covers besides its manifest. */
export interface RivumiCoverage {
  /** Workspace-relative raw paths. */
  readonly covered: readonly Buffer[];
  readonly notCovered: readonly NotCovered[];
}

/**
 * Skillgate's Rivumi content hash (trust.md "Hashes"): Codewhale's framing with our own
 * domain; covered files framed by their raw workspace-relative path, in byte order.
 * Files are opened by their raw bytes, so a name that is not UTF-8 is the file Rivumi
 * opens, never a U+FFFD look-alike. Each argv element trust cannot cover is hashed as
 * such: a unit that has one can never match a receipt made without it.
 */
export function rivumiContentHash(
  domain: string,
  root: string,
  manifestBytes: Uint8Array,
  coverage: RivumiCoverage,
): { hash: string; files: BundleFile[] } {
  const h = newHash();
  h.update(domain);
  h.update(u64le(manifestBytes.length));
  h.update(manifestBytes);
  const byKey = new Map(coverage.covered.map((rel) => [rel.toString('latin1'), rel]));
  const rels = [...byKey.values()].sort(Buffer.compare);
  const rootBytes = osBytes(root);
  const files: BundleFile[] = [];
  for (const rel of rels) {
    const read = readRegularFile(Buffer.concat([rootBytes, SLASH, rel]), MAX_COVERED_FILE_BYTES);
    if (!read.ok) {
      // A missing or unreadable file is hashed as its absence, so that it appearing changes the hash.
      h.update(Buffer.concat([Buffer.from('missing\0'), u64le(rel.length), rel]));
      continue;
    }
    fileRecord(h, rel, read.executable, read.bytes, 'workspace-relative-file');
    files.push(bundleFile(rel, read.bytes, read.executable));
  }
  for (const n of coverage.notCovered)
    h.update(Buffer.concat([Buffer.from('not-covered\0'), u64le(n.marker.length), n.marker]));
  return { hash: h.digest('hex'), files };
}

function bundleFile(rel: Buffer, bytes: Uint8Array, executable: boolean): BundleFile {
  const display = decodeRawName(rel);
  const utf8 = Buffer.from(display, 'utf8').equals(rel);
  return {
    path: display,
    size: bytes.length,
    sha256: sha256Hex(bytes),
    executable,
    ...(utf8 ? {} : { rawPath: Buffer.from(rel) }),
  };
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

/** What the hooks of one trust unit name through their argv, with the problems at each element. */
export interface HooksCoverage {
  readonly covered: readonly Buffer[];
  readonly problems: readonly (ArgvProblem & { readonly hook: RivumiHook })[];
  readonly watch: readonly string[];
}

/** The files every hook's argv names, and what it names that cannot be covered (trust.md "Hook argv files, exactly"). */
export function hooksCoverage(workspace: string, hooks: readonly RivumiHook[]): HooksCoverage {
  const covered: Buffer[] = [];
  const problems: (ArgvProblem & { hook: RivumiHook })[] = [];
  const watch: string[] = [];
  for (const hook of hooks) {
    const c = hookArgvCoverage(workspace, hook.argv);
    // One push per entry, as wherever the repository chooses a list's length: a spread of some
    // 100,000 into one call overflows the stack (hooks.json's 64 KiB keeps argv below that today).
    for (const f of c.files) covered.push(f);
    for (const w of c.watch) watch.push(w);
    for (const p of c.problems) problems.push({ hook, ...p });
  }
  return { covered, problems, watch };
}

function finish(
  content: { hash: string; files: BundleFile[] },
  coverage: RivumiCoverage,
  watch: readonly string[],
  caps: Record<string, string>,
  manifestRel: string,
  manifestBytes: Uint8Array,
): RivumiBundleHashes {
  const manifest = bundleFile(osBytes(manifestRel), manifestBytes, false);
  return {
    contentHash: content.hash,
    capabilityHash: rivumiCapabilityHash(new Map(Object.entries(caps))),
    capabilities: caps,
    files: [manifest, ...content.files.filter((f) => f.path !== manifest.path)],
    covered: coverage.covered,
    notCovered: coverage.notCovered,
    watch,
  };
}

export const RIVUMI_PLUGIN_DOMAIN = 'skillgate-rivumi-plugin-content-v1\0';
export const RIVUMI_HOOKS_DOMAIN = 'skillgate-rivumi-hooks-content-v1\0';

/**
 * A plugin's unit: its manifest, every skill file it references, and every file its
 * hooks' argv names (trust.md "Trust units": Rivumi merges plugin hooks into its runner).
 */
export function rivumiPluginHashes(
  workspace: string,
  manifestRel: string,
  manifestBytes: Uint8Array,
  skillFiles: readonly string[],
  skillCount: number,
  hooks: readonly RivumiHook[],
  argv: HooksCoverage,
): RivumiBundleHashes {
  const coverage = {
    covered: [...skillFiles.map((abs) => osBytes(portableRelative(workspace, abs))), ...argv.covered],
    notCovered: notCoveredOf(argv),
  };
  return finish(
    rivumiContentHash(RIVUMI_PLUGIN_DOMAIN, workspace, manifestBytes, coverage),
    coverage,
    argv.watch,
    capabilities(skillCount, hooks),
    manifestRel,
    manifestBytes,
  );
}

/**
 * The hooks file plus every regular workspace file a hook's argv names: the script a
 * hook runs is part of what was approved (trust.md).
 */
export function rivumiHooksHashes(
  workspace: string,
  hooksBytes: Uint8Array,
  hooks: readonly RivumiHook[],
  argv: HooksCoverage,
): RivumiBundleHashes {
  const coverage = { covered: argv.covered, notCovered: notCoveredOf(argv) };
  return finish(
    rivumiContentHash(RIVUMI_HOOKS_DOMAIN, workspace, hooksBytes, coverage),
    coverage,
    argv.watch,
    capabilities(0, hooks),
    '.rivumi/hooks.json',
    hooksBytes,
  );
}

function notCoveredOf(argv: HooksCoverage): NotCovered[] {
  return argv.problems.map((p) => ({ message: p.message, marker: p.marker }));
}
