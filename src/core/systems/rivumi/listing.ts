import * as path from 'node:path';
import { listDirectory } from '../../fs/safeFs';
import type { Findings } from '../../diagnostics/findings';
import { decodeRawName } from '../../fs/rawNames';
import { portableRelative } from '../../fs/portablePath';
import { deniedByPermissions } from '../../fs/permissionDenied';
import { pythonOsErrorText } from './pythonOsError';
import { codePointCompare } from './hookFiles';

/**
 * How Rivumi lists `.rivumi/skills/*.md` and `.rivumi/plugins/*.json` (rivumi.md §2
 * "Listing", "Order"): `sorted(dir.glob(pattern))`, Python's pathlib. What the glob
 * matches decides which files Rivumi sees at all, and the order decides what its caps cut
 * (§3.2, §5.4), so both follow Python per platform.
 */

/**
 * Whether `Path.glob('*' + suffix)` lists the name. On POSIX the pattern is matched
 * case-sensitively ("`A.MD` is not listed"). On Windows pathlib compiles it with
 * `re.IGNORECASE` (`_WindowsFlavour.compile_pattern` in 3.11, `_compile_pattern` from
 * 3.12), where a letter matches what lowercases to it and also the extra cases sre adds
 * (`sre_compile._equivalences`): of the letters of `.md` and `.json`, only `s` has one,
 * U+017F LATIN SMALL LETTER LONG S, so `x.jſon` is a manifest Rivumi loads (checked
 * against Python over every code point). JavaScript's `toLowerCase()` maps the rest alike.
 */
export function globMatches(name: string, suffix: string, platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== 'win32') return name.endsWith(suffix);
  return name
    .toLowerCase()
    .replace(/\u017f/g, 's')
    .endsWith(suffix);
}

/**
 * The order of `sorted()` over the listed `Path`s. Paths compare by their case-normalized
 * parts (pathlib: `_cparts` in 3.11, `_parts_normcase` from 3.12): on POSIX the names as
 * they are, so Unicode code points ("case-sensitive on POSIX", `.h.md` < `B.md` < `a.md`);
 * on Windows each part lowercased (`PureWindowsPath` uses `str.lower()`, which
 * JavaScript's locale-free `toLowerCase()` matches), so `a.md` < `B.md` < `c.md`. Within
 * one folder only the names differ. Two names equal but for case (possible only in a
 * case-sensitive Windows folder) keep glob's order in Python's stable sort; Skillgate
 * cannot know it, so it fixes one: code-point order.
 */
export function listingOrder(platform: NodeJS.Platform = process.platform): (a: string, b: string) => number {
  if (platform !== 'win32') return codePointCompare;
  return (a, b) => codePointCompare(a.toLowerCase(), b.toLowerCase()) || codePointCompare(a, b);
}

/** `*.md` / `*.json`, one level, dot-files included, in Rivumi's order (rivumi.md §2, listing.ts). */
export function listMatching(dir: string, suffix: string, findings: Findings): string[] {
  const listing = listDirectory(dir);
  if (!listing.ok) {
    // Python's glob swallows the listing's OSError: Rivumi loads nothing from the directory, without a
    // word. [Skillgate] Said when it is for want of permission: a user who may read it loads what is there.
    if (deniedByPermissions(listing.fault))
      findings.inFile(
        'rivumi.path-unreadable',
        `${portableRelative(path.dirname(path.dirname(dir)), dir)} cannot be listed (${pythonOsErrorText(listing.fault, listing.error, dir)}): Rivumi's glob skips it without a word, so run as this user it loads nothing from it; run as a user who may read it, Rivumi loads what is there, which Skillgate cannot show`,
        dir,
      );
    return [];
  }
  // Names decode as Python's os.listdir does (surrogateescape: byte 0xFF is U+DCFF), so the
  // sort below is Rivumi's order; the decoding is exact, and every access re-encodes it.
  return listing.names
    .map((n) => decodeRawName(n))
    .filter((n) => globMatches(n, suffix))
    .sort(listingOrder());
}
