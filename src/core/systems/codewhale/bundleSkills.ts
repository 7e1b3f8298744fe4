import * as path from 'node:path';
import { isSafeCommandName, normalizeSkillName, parseCodewhaleSkill } from './skillFile';
import { skillNameFix } from './skillNameFix';
import type { BundleSkill } from './codewhaleBundle';
import type { HashedFile } from '../../hashing/bundleContent';
import { decodeUtf8 } from '../../fs/safeFs';
import { byteOrder, hasEscapedByte, osBytes } from '../../fs/rawNames';
import type { Findings } from '../../diagnostics/findings';
import { reportHidden } from '../../diagnostics/hiddenCharacterFinding';
import { LineMap } from '../../text/lineMap';
import { asciiLower, rustTrim } from '../../text/rustText';
import { detached } from '../../text/detached';

const MAX_SKILL_BYTES = 1048576;
const MAX_SKILL_DEPTH = 9;

/**
 * SKILL.md candidates from the hashed file set, claiming directories (codewhale.md §5.1-§5.3),
 * each named under `root`: the bundle directory as it was reached.
 */
export function discoverSkills(
  root: string,
  pluginName: string,
  skillRoots: readonly string[],
  files: readonly HashedFile[],
  directories: readonly string[],
  contents: ReadonlyMap<string, Buffer>,
  findings: Findings,
): BundleSkill[] {
  const out: BundleSkill[] = [];
  // Every declared root is read, even one that resolves to a root already read: upstream
  // loops over the resolved roots without merging them (codewhale.md §5.1 "for each declared
  // skills root"; §4.5 `skills` and `./skills` "both count"), so each skill is found twice and
  // its name is a fatal duplicate (§5.3).
  for (const skillRoot of skillRoots) {
    const claimed: string[] = [];
    for (const { f, inner } of skillCandidates(skillRoot, files, directories)) {
      const dir = inner.slice(0, -1).join('/');
      if (claimed.some((c) => dir === c || dir.startsWith(c + '/'))) continue;
      claimed.push(dir);
      const skill = readSkill(f, path.join(root, f.path), contents, findings);
      if (skill) out.push(skill);
    }
  }
  // By name, then path, in byte order as upstream sorts (not UTF-16 order).
  out.sort((a, b) => byteOrder(a.name, b.name) || byteOrder(a.rel, b.rel));
  for (let i = 1; i < out.length; i++) {
    const prev = out[i - 1] as BundleSkill;
    const cur = out[i] as BundleSkill;
    if (prev.name === cur.name)
      findings.inFile(
        'codewhale.skill.duplicate-name',
        `plugin \`${pluginName}\` declares duplicate skill name \`${cur.name}\``,
        cur.file,
      );
  }
  return out;
}

/** A hashed file, or a directory, named SKILL.md. */
interface SkillCandidate {
  readonly path: string;
  readonly rawPath?: Buffer;
  readonly isDirectory?: true;
}

/**
 * The candidates under one skills root (§5.1), in the order they claim directories: fewest
 * path components first, then by path bytes. `inner` is the path below the skills root.
 */
function skillCandidates(
  skillRoot: string,
  files: readonly HashedFile[],
  directories: readonly string[],
): { f: SkillCandidate; inner: string[] }[] {
  const prefix = skillRoot === '' ? '' : skillRoot + '/';
  // A directory named SKILL.md is a candidate too: upstream reads `<dir>/SKILL.md`, fails on
  // the directory yet sees it exists, and claims `<dir>` with a read warning (§5.1).
  const entries: SkillCandidate[] = [
    ...files,
    ...directories.filter((d) => d.endsWith('/SKILL.md')).map((d) => ({ path: d, isDirectory: true as const })),
  ];
  return entries
    .filter((f) => f.path.startsWith(prefix))
    .map((f) => ({ f, inner: f.path.slice(prefix.length).split('/') }))
    .filter(
      ({ inner }) =>
        inner[inner.length - 1] === 'SKILL.md' &&
        inner.length >= 2 &&
        inner.length - 1 <= MAX_SKILL_DEPTH &&
        // Hidden as upstream hides: a name that is UTF-8 and starts with `.` (`to_str()` fails on
        // any other, which is then searched: `.\xff/SKILL.md` is a skill Codewhale loads).
        inner.slice(0, -1).every((c) => !c.startsWith('.') || hasEscapedByte(c)),
    )
    .sort(
      (a, b) =>
        a.inner.length - b.inner.length ||
        Buffer.compare(a.f.rawPath ?? osBytes(a.f.path), b.f.rawPath ?? osBytes(b.f.path)),
    );
}

/**
 * A candidate that claimed its directory, read from the walk's bytes and parsed (§5.2), at
 * `abs`: the skill, or undefined when a finding says why there is none.
 */
function readSkill(
  f: SkillCandidate,
  abs: string,
  contents: ReadonlyMap<string, Buffer>,
  findings: Findings,
): BundleSkill | undefined {
  if (f.isDirectory) {
    findings.inFile('codewhale.skill-invalid', `Failed to read ${f.path}: Is a directory (os error 21)`, abs);
    return undefined;
  }
  const file = f as HashedFile;
  if (file.size > MAX_SKILL_BYTES) {
    findings.inFile('codewhale.skill.fatal', 'plugin Skill exceeds the one-megabyte parse limit', abs);
    return undefined;
  }
  const bytes = contents.get(f.path);
  const text = bytes ? decodeUtf8(bytes) : undefined;
  if (text === undefined) {
    findings.inFile('codewhale.skill.fatal', 'plugin Skill must be valid UTF-8', abs);
    return undefined;
  }
  const parsed = parseCodewhaleSkill(text);
  if (!parsed.ok && parsed.panics) {
    // Upstream does not warn and skip here: it panics, so nothing of the bundle loads.
    findings.inFile('codewhale.skill.fatal', `${parsed.reason} (${f.path})`, abs);
    return undefined;
  }
  if (!parsed.ok) {
    findings.inFile('codewhale.skill-invalid', `${parsed.reason} (${f.path})`, abs);
    return undefined;
  }
  let name = parsed.name;
  const normalized = normalizeSkillName(name);
  if (normalized !== name || !isSafeCommandName(name)) {
    const fix = skillNameFix(text, parsed, normalized, abs);
    if (fix) findings.addText(abs, { text });
    findings.inFile(
      'codewhale.skill-invalid',
      `Skill name \`${name}\` in ${f.path} is not a safe command name; using \`${normalized}\` instead.`,
      abs,
      new LineMap(text).lineRange(lineOf(text, 'name')),
      fix ? { fix } : undefined,
    );
    name = normalized;
  }
  reportHidden(text, abs, findings);
  // The index keeps these for the whole session: copies, so the SKILL.md text they were cut
  // from can go, and the path flat rather than the tree of pieces `path.join` leaves.
  return {
    name: detached(name),
    description: detached(parsed.description),
    file: detached(abs),
    rel: f.path,
  };
}

function lineOf(text: string, key: string): number {
  const lines = text.split(/\r\n|\r|\n/);
  // Keys as the front-matter parser reads them: Rust's trim, ASCII lowercase (codewhale.md §5.2).
  const i = lines.findIndex((l) => asciiLower(rustTrim(l)).startsWith(`${key}:`));
  return i < 0 ? 0 : i;
}
