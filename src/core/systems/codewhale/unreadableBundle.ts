import * as path from 'node:path';
import { statEntry } from '../../fs/safeFs';
import { deniedByPermissions } from '../../fs/permissionDenied';
import { Findings } from '../../diagnostics/findings';
import { MANIFEST_ORDER } from './bundleManifest';
import { rustFaultText } from '../../fs/rustIoErrorText';
import type { Diagnostic } from '../../model';

/**
 * A bundle directory in which no manifest was found because this user may not look: the
 * finding that says so, or undefined when the lookup was answered (codewhale.md §2.3 step 4,
 * §2.4). Asked only of a directory whose job found no manifest, so a readable bundle costs
 * nothing more.
 *
 * Upstream looks each label up with `Path::is_file` (agent_plugin.rs `resolve_manifest_path`,
 * called by discovery.rs `scan_root`), which is false when the lookup fails for any reason: a
 * bundle directory this user may not search (owned by another user at mode 700) has no
 * manifest for Codewhale run as this user, which skips it without a word. Run as a user who may
 * read it (root, a container, `sudo`), it loads that bundle. Left silent, the bundle vanished
 * from `list`, `validate` and the lock. [Skillgate] An error, at the directory that refused.
 */
export function unreadableBundle(dir: string): Diagnostic | undefined {
  for (const label of MANIFEST_ORDER) {
    const manifest = path.join(dir, label);
    const entry = statEntry(manifest);
    // A manifest is there after all (the directory changed since its job): that job's reading stands.
    if (entry.type === 'file') return undefined;
    if (entry.error === undefined || !deniedByPermissions(entry.fault)) continue;
    // The bundle directory itself, or for the last label `.claude-plugin`, which the earlier lookups reached.
    const denied = path.dirname(manifest);
    const findings = new Findings();
    return findings.inFile(
      'codewhale.bundle-unreadable',
      `${denied === dir ? `Plugin bundle directory ${dir}` : denied} cannot be inspected: ${rustFaultText(entry.fault, entry.error)}. Codewhale finds no manifest there and skips the bundle without a word, so run as this user it does not load it; run as a user who may read it, it loads the bundle, which Skillgate cannot show`,
      denied,
    );
  }
  return undefined;
}
