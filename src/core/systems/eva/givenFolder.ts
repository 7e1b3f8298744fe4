import * as path from 'node:path';
import { respelled } from '../../fs/folderSpellings';
import type { Diagnostic } from '../../model';
import type { EffectivePermission, EvaItem } from './item';
import type { EvaPolicy } from './policy';

/**
 * What Skillgate reports of an Eva project, spelled under the workspace folder as given.
 *
 * Eva canonicalizes its project root (project.ts: its roots, `skill.path` containment and
 * allowed roots are decided after `realpath`), and every decision keeps that root. What
 * Skillgate reports (an item's `workspace`, `path`, location and manifest, a diagnostic's
 * file, the policy file that decided a permission) is spelled under the folder as it was
 * given, as Rivumi's and Codewhale's items are: the index keeps the first spelling of a
 * folder (indexer.ts), the tree groups items by it, and SARIF and `list` name files relative
 * to it. A folder opened through a symbolic link (`--workspace link`, a VS Code folder whose
 * path passes through one) otherwise showed Eva's items under a folder never given, so the
 * tree showed none of the adapters Eva registers. A path outside the folder (a user skill,
 * a `skill.path` Eva allows outside the project) is left as it is. A bundle's identity stays
 * its canonical manifest path (trust.md "Bundle identity"): the item's key is not respelled.
 */
export interface GivenFolder {
  readonly item: (item: EvaItem) => EvaItem;
  readonly diagnostic: (d: Diagnostic) => Diagnostic;
  readonly policy: (policy: EvaPolicy) => EvaPolicy;
}

/** The respelling from the project's canonical `root` to `folder` as given; undefined when they are the same string. */
export function givenFolder(root: string, folder: string): GivenFolder | undefined {
  if (folder === root) return undefined;
  const given = path.resolve(folder);
  // `p` under the folder as given when it lies in the canonical root, else `p` itself.
  const spell = (p: string): string => respelled(p, root, given) ?? p;
  const permission = (p: EffectivePermission): EffectivePermission =>
    p.decidedBy.file === null ? p : { ...p, decidedBy: { ...p.decidedBy, file: spell(p.decidedBy.file) } };
  return {
    item: (item) => ({
      ...item,
      // The folder exactly as given, as Rivumi's and Codewhale's items carry it: the tree and the lock match it as a string.
      workspace: folder,
      path: spell(item.path),
      location: { ...item.location, file: spell(item.location.file) },
      detail: {
        ...item.detail,
        ...(item.detail.manifest === undefined ? {} : { manifest: spell(item.detail.manifest) }),
        eva: {
          ...item.detail.eva,
          effectivePermissions: Object.fromEntries(
            Object.entries(item.detail.eva.effectivePermissions).map(([name, p]) => [name, permission(p)]),
          ),
        },
      },
    }),
    diagnostic: (d) => ({
      ...d,
      file: spell(d.file),
      // The place a fingerprint names (a capped directory) is spelled as its file is, or it would name the canonical root.
      ...(d.place === undefined ? {} : { place: spell(d.place) }),
      ...(d.related ? { related: d.related.map((r) => ({ ...r, file: spell(r.file) })) } : {}),
      ...(d.fix ? { fix: { ...d.fix, edits: d.fix.edits.map((e) => ({ ...e, file: spell(e.file) })) } } : {}),
    }),
    policy: (policy) => (policy.source === null ? policy : { ...policy, source: spell(policy.source) }),
  };
}
