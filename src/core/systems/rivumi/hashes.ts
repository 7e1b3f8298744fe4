import { fileRecord, newHash, sha256Hex, u64le } from '../../hashing/framing';
import { MAX_HASHED_BYTES } from '../../hashing/treeRead';
import { joinSet } from '../../hashing/capabilityPairs';
import { rivumiCapabilityHash } from './capabilityHash';
import { readRegularFile, type ReadResult } from '../../fs/safeFs';
import { readBeneath } from '../../fs/openBeneath';
import { pythonOsErrorText } from './pythonOsError';
import { decodeRawName, osBytes } from '../../fs/rawNames';
import { hookArgvCoverage, type ArgvProblem } from './hookArgvFiles';
import { unreadableCovered } from './unreadableCovered';
import { walkInside } from './walkInside';
import { pythonRepr } from './pythonText';
import type { BundleFile } from '../../model';
import type { NotCovered, RivumiBundleHashes, RivumiHook } from './model';
import { portableRelative } from '../../fs/portablePath';

const SLASH = Buffer.from('/');

/** What a Rivumi trust unit's content hash covers besides its manifest. */
export interface RivumiCoverage {
  /** Workspace-relative raw paths. */
  readonly covered: readonly Buffer[];
  readonly notCovered: readonly NotCovered[];
  /** Those of `covered` that are plugin skill files (Rivumi loads them; the others are files hooks run): for the words of a read failure. */
  readonly skillFiles?: readonly Buffer[];
}

/**
 * Skillgate's Rivumi content hash (trust.md "Hashes"): Codewhale's framing with our own
 * domain; covered files framed by their raw workspace-relative path, in byte order.
 * Files are opened by their raw bytes, so a name that is not UTF-8 is the file Rivumi
 * opens, never a U+FFFD look-alike. Each argv element trust cannot cover is hashed as
 * such: a unit that has one can never match a receipt made without it. So is each
 * covered file this read fails on (`unreadable`): it cannot be covered either.
 */
export function rivumiContentHash(
  domain: string,
  root: string,
  manifestBytes: Uint8Array,
  coverage: RivumiCoverage,
): { hash: string; files: BundleFile[]; unreadable: NotCovered[] } {
  const h = newHash();
  h.update(domain);
  h.update(u64le(manifestBytes.length));
  h.update(manifestBytes);
  const byKey = new Map(coverage.covered.map((rel) => [rel.toString('latin1'), rel]));
  const rels = [...byKey.values()].sort(Buffer.compare);
  const skillFiles = new Set((coverage.skillFiles ?? []).map((rel) => rel.toString('latin1')));
  const rootBytes = osBytes(root);
  const files: BundleFile[] = [];
  const unreadable: NotCovered[] = [];
  for (const rel of rels) {
    const abs = Buffer.concat([rootBytes, SLASH, rel]);
    const read = readCovered(rootBytes, rel, skillFiles.has(rel.toString('latin1')));
    if (!read.ok && read.reason === 'io') {
      // Never hashed as absent: run as a user who may read it, Rivumi loads or runs what it holds,
      // and a hash without those bytes would keep a receipt valid while they change (trust.md).
      h.update(Buffer.concat([Buffer.from('unreadable\0'), u64le(rel.length), rel]));
      unreadable.push(unreadableFile(rel, abs, read, skillFiles.has(rel.toString('latin1'))));
      continue;
    }
    if (!read.ok) {
      // Gone, a link, no regular file, too large (what the walk or Rivumi's own checks refuse):
      // hashed as its absence, so that it appearing changes the hash.
      h.update(Buffer.concat([Buffer.from('missing\0'), u64le(rel.length), rel]));
      continue;
    }
    fileRecord(h, rel, read.executable, read.bytes, 'workspace-relative-file');
    files.push(bundleFile(rel, read.bytes, read.executable));
  }
  for (const n of coverage.notCovered)
    h.update(Buffer.concat([Buffer.from('not-covered\0'), u64le(n.marker.length), n.marker]));
  return { hash: h.digest('hex'), files, unreadable };
}

/**
 * A covered file's bytes, read beneath the folder its walk started from, one component at a
 * time and never through a link (openBeneath.ts), as the walk checked them: a directory on
 * the way swapped for a link since is `symlink`, hashed as absent as a linked file is, and no
 * byte from outside is hashed. A hook's argv file was walked from the workspace
 * (walkInside.ts); a plugin skill file from `.rivumi/plugins`, which Rivumi
 * reaches through a linked `.rivumi` (`skillsCoverage`). A skill path no walk checked is
 * read by its path, as before.
 */
function readCovered(root: Buffer, rel: Buffer, skill: boolean): ReadResult {
  if (!skill) return readBeneath(root, rel, MAX_HASHED_BYTES);
  if (rel.subarray(0, PLUGINS_DIR.length).equals(PLUGINS_DIR))
    return readBeneath(
      Buffer.concat([root, SLASH, PLUGINS_DIR.subarray(0, -1)]),
      rel.subarray(PLUGINS_DIR.length),
      MAX_HASHED_BYTES,
    );
  return readRegularFile(Buffer.concat([root, SLASH, rel]), MAX_HASHED_BYTES);
}

/**
 * A covered file Skillgate failed to read, in Python's words (pythonOsError.ts): an open
 * that fails names the file (`[Errno 13] Permission denied: '<path>'`), a read of a file
 * already open does not (`[Errno 5] Input/output error`), as Rivumi's own read raises them
 * (readFailure.ts); worded as an argv element's (unreadableCovered.ts).
 */
function unreadableFile(
  rel: Buffer,
  abs: Buffer,
  read: Extract<ReadResult, { ok: false }>,
  skill: boolean,
): NotCovered {
  const words = pythonOsErrorText(
    read.fault,
    read.error ?? 'read error',
    read.during === 'read' ? undefined : decodeRawName(abs),
  );
  return {
    message: `${unreadableCovered(skill ? 'plugin skill file' : 'hook script', rel, words, read.fault)}: it cannot be covered by trust`,
    // Tagged so that it never hashes like an argv element or a skill reached through a link.
    marker: Buffer.concat([Buffer.from('\0unreadable\0'), rel]),
  };
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

/** A plugin skill file trust cannot cover: its index in the manifest's `skills`, its error, and its bytes as hashed. */
export interface SkillProblem {
  readonly index: number;
  readonly message: string;
  readonly marker: Buffer;
}

/** What a plugin's skill references cover (trust.md "Trust units"), and those trust cannot cover. */
export interface SkillsCoverage {
  /** Workspace-relative raw paths. */
  readonly covered: readonly Buffer[];
  readonly problems: readonly SkillProblem[];
}

const PLUGINS_DIR = Buffer.from('.rivumi/plugins/');

/**
 * A plugin's skill files, each walked from `.rivumi/plugins` one component at a time as a
 * hook's argv files are (trust.md "Hashing": a symlink anywhere in a bundle is an error,
 * never followed). A linked directory on the way cannot be covered: Rivumi follows it and
 * checks containment against the whole repository only (rivumi.md §5.3), so the skill it
 * loads is wherever the link points, which trust cannot pin. The last component is the
 * read's: a skill file that is itself a link is one Rivumi refuses to load
 * (rivumi.skill.file), hashed as absent as a file that is gone is; one that is there and
 * cannot be read cannot be covered (rivumiContentHash). Above the walk,
 * `.rivumi/plugins` is a real directory or no plugin loads, and a linked `.rivumi` is
 * Rivumi's documented exception (rivumi.root-symlink).
 */
export function skillsCoverage(
  workspace: string,
  skills: readonly { readonly abs: string; readonly index: number }[],
): SkillsCoverage {
  const covered: Buffer[] = [];
  const problems: SkillProblem[] = [];
  const pluginsDir = Buffer.concat([osBytes(workspace), SLASH, PLUGINS_DIR.subarray(0, -1)]);
  for (const { abs, index } of skills) {
    const rel = osBytes(portableRelative(workspace, abs));
    // Stage 1 keeps a skill path manifest-relative, so it lies lexically under `.rivumi/plugins/`.
    const under = rel.subarray(0, PLUGINS_DIR.length).equals(PLUGINS_DIR);
    const walk = under ? walkInside(pluginsDir, rel.subarray(PLUGINS_DIR.length)) : undefined;
    if (walk?.kind === 'symlink' && !walk.at.equals(walk.rel)) {
      problems.push({
        index,
        message: `plugin skill file ${pythonRepr(decodeRawName(rel))} is reached through the symbolic link ${pythonRepr(decodeRawName(Buffer.concat([PLUGINS_DIR, walk.at])))} (Rivumi follows it, and trust cannot pin where it points): it cannot be covered by trust`,
        // Tagged so that it never hashes like an argv element of the same bytes.
        marker: Buffer.concat([Buffer.from('\0skill\0'), rel]),
      });
    } else covered.push(rel);
  }
  return { covered, problems };
}

function finish(
  content: { hash: string; files: BundleFile[]; unreadable: readonly NotCovered[] },
  coverage: RivumiCoverage,
  watch: readonly string[],
  caps: Record<string, string>,
  manifestRel: string,
  manifestBytes: Uint8Array,
  manifestExecutable: boolean,
): RivumiBundleHashes {
  // The manifest's bit as read: the content hash leaves it out, but the reviewed copy is checked
  // against this record, and a fixed `false` refused every trust of an executable manifest.
  const manifest = bundleFile(osBytes(manifestRel), manifestBytes, manifestExecutable);
  return {
    contentHash: content.hash,
    capabilityHash: rivumiCapabilityHash(new Map(Object.entries(caps))),
    capabilities: caps,
    files: [manifest, ...content.files.filter((f) => f.path !== manifest.path)],
    covered: coverage.covered,
    // A covered file this read failed on blocks trust as an argv element trust cannot cover does.
    notCovered: [...coverage.notCovered, ...content.unreadable],
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
  manifestExecutable: boolean,
  skills: SkillsCoverage,
  skillCount: number,
  hooks: readonly RivumiHook[],
  argv: HooksCoverage,
): RivumiBundleHashes {
  const coverage = {
    covered: [...skills.covered, ...argv.covered],
    notCovered: [...skills.problems.map((p) => ({ message: p.message, marker: p.marker })), ...notCoveredOf(argv)],
    skillFiles: skills.covered,
  };
  return finish(
    rivumiContentHash(RIVUMI_PLUGIN_DOMAIN, workspace, manifestBytes, coverage),
    coverage,
    argv.watch,
    capabilities(skillCount, hooks),
    manifestRel,
    manifestBytes,
    manifestExecutable,
  );
}

/**
 * The hooks file plus every regular workspace file a hook's argv names: the script a
 * hook runs is part of what was approved (trust.md).
 */
export function rivumiHooksHashes(
  workspace: string,
  hooksBytes: Uint8Array,
  hooksExecutable: boolean,
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
    hooksExecutable,
  );
}

function notCoveredOf(argv: HooksCoverage): NotCovered[] {
  return argv.problems.map((p) => ({ message: p.message, marker: p.marker }));
}
