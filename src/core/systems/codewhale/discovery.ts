import * as path from 'node:path';
import {
  canonicalize,
  canonicalPath,
  listDirectory,
  listTypedDirectory,
  lstatEntry,
  type ListedType,
} from '../../fs/safeFs';
import { deniedByPermissions } from '../../fs/permissionDenied';
import { rustFaultText } from '../../fs/rustIoErrorText';
import { decodeRawName } from '../../fs/rawNames';
import { joinAsSpelled } from '../../fs/spelledPath';
import { Findings } from '../../diagnostics/findings';
import type { Diagnostic, Scope } from '../../model';

/** Internal publication directories Codewhale hides (codewhale.md §2.3 step 1). */
const HIDDEN_CANDIDATE = /^(?:\.staging-[0-9a-f]{32}|\.plugin-backup-[A-Za-z0-9]{16})$/;

export interface RootScan {
  readonly scope: Scope;
  /** `<workspace>/.codewhale/plugins` or `<home>/plugins`. */
  readonly root: string;
  readonly canonicalRoot: string | undefined;
  /** Bundle directories, in byte order of their names (exact: a name that is not UTF-8 is escaped, rawNames.ts). */
  readonly candidates: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Lists one discovery root (codewhale.md §2.2, §2.3). A root that is missing yields
 * nothing; a root that is a link or not a directory ends the scan with an error.
 */
export function scanRoot(root: string, scope: Scope): RootScan {
  const findings = new Findings();
  const done = (candidates: string[] = [], canonicalRoot?: string): RootScan => ({
    scope,
    root,
    canonicalRoot,
    candidates,
    diagnostics: findings.diagnostics,
  });
  const entry = lstatEntry(root);
  // Upstream returns silently when lstat fails for any reason (`let Ok(metadata) = symlink_metadata(root) else
  // { return }`): a home that is a file (ENOTDIR) or out of reach names no root, not a root that is no directory.
  // [Skillgate] A root this user may not reach (EACCES, EPERM: `.codewhale` at mode 000) is said, though: Codewhale
  // run as this user loads nothing from it, but run as one who may read it, it loads whatever bundles are there,
  // and Skillgate cannot show them. Left silent, `list` showed nothing and `check` passed.
  if (entry.error !== undefined && deniedByPermissions(entry.fault)) {
    findings.inFile(
      'codewhale.root-unreadable',
      `Plugin discovery root ${root} cannot be inspected: ${rustFaultText(entry.fault, entry.error)}. Codewhale skips it without a word, so run as this user it loads no bundle from it; run as a user who may read it, it loads the bundles there, which Skillgate cannot show`,
      root,
    );
    return done();
  }
  if (entry.type === 'missing' || entry.error !== undefined) return done();
  if (entry.type === 'symlink') {
    findings.inFile(
      'codewhale.root-symlink',
      `Plugin discovery root may not be a symbolic link or reparse point: ${root}`,
      root,
    );
    return done();
  }
  if (entry.type !== 'directory') {
    findings.inFile('codewhale.root-not-directory', `Plugin discovery root is not a directory: ${root}`, root);
    return done();
  }
  const canonical = canonicalize(root);
  if (!canonical.ok) {
    // `{error}` is Rust's io::Error Display, as upstream prints it (discovery.rs `scan_root`, `root.canonicalize()`).
    findings.inFile(
      'codewhale.root-canonicalize-failed',
      `Failed to canonicalize plugin root ${root}: ${rustFaultText(canonical.fault, canonical.error)}`,
      root,
    );
    return done();
  }
  // The listing's own entry types spare an lstat per child; without them, an lstat each as upstream does.
  let listing: { name: Buffer; type?: ListedType }[] | undefined = listTypedDirectory(root);
  if (!listing) {
    const names = listDirectory(root);
    if (!names.ok) {
      // `{error}` is Rust's io::Error Display (`Permission denied (os error 13)`), as upstream prints it.
      findings.inFile(
        'codewhale.root-read-failed',
        `Failed to read plugin root ${root}: ${rustFaultText(names.fault, names.error)}`,
        root,
      );
      return done();
    }
    listing = names.names.map((name) => ({ name }));
  }
  const candidates: string[] = [];
  for (const entry of listing.sort((a, b) => Buffer.compare(a.name, b.name))) {
    // Codewhale lists names as OS bytes: a name that is not UTF-8 is still a candidate,
    // and its path string keeps those bytes exactly (rawNames.ts), never U+FFFD.
    const name = decodeRawName(entry.name);
    if (HIDDEN_CANDIDATE.test(name)) continue;
    const dir = path.join(root, name);
    const type = entry.type ?? lstatEntry(dir).type;
    if (type === 'symlink') {
      findings.inFile(
        'codewhale.bundle-symlink',
        `Plugin bundle directory may not be a symbolic link or reparse point: ${dir}`,
        dir,
      );
      continue;
    }
    if (type !== 'directory') continue;
    candidates.push(dir);
  }
  return done(candidates, canonical.path);
}

export function workspacePluginRoot(workspace: string): string {
  return path.join(workspace, '.codewhale', 'plugins');
}

/**
 * The real directory a workspace's `.codewhale` leads to when it is a symbolic link, which
 * Codewhale follows (scan_root lstats only `plugins`); undefined when it is none, or dangles.
 * The editor's watchers do not follow a link inside a folder (VS Code since 1.61), so an
 * edit behind it reaches no `<folder>/.codewhale/**` watcher: that directory is watched itself.
 */
export function linkedCodewhaleDirectory(root: string): string | undefined {
  const dir = path.dirname(root);
  return lstatEntry(dir).type === 'symlink' ? canonicalPath(dir) : undefined;
}

/** `codewhale_home.join("plugins")`, appended: a home that reaches nothing (`missing/../cw`) must not be folded onto another folder. */
export function userPluginRoot(codewhaleHome: string): string {
  return joinAsSpelled(codewhaleHome, 'plugins');
}
