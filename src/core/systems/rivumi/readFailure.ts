import { lstatEntry, type ReadResult } from '../../fs/safeFs';
import { deniedByPermissions } from '../../fs/permissionDenied';
import { pathlibRaises, pythonOsErrorText } from './pythonOsError';

/**
 * Why Rivumi would not read a file that Skillgate failed to read: one of Rivumi's own
 * refusals (a link, not a regular file, too large), or the OSError it raises, in Python's
 * words, with whether it is for want of permission (which depends on the user: one who may
 * read the file loads what it holds).
 */
export type RivumiReadFailure =
  | { readonly kind: 'symlink' | 'not-file' | 'missing' | 'too-large' }
  | { readonly kind: 'os-error'; readonly denied: boolean; readonly text: string };

/**
 * Rivumi checks a skill file or a plugin manifest with `path.is_symlink()`, `path.is_file()`
 * and `path.stat().st_size` before `path.read_text()` (skills.py `_load_skill_file`,
 * plugins.py `load_project_plugins`; `hooks.json` without the size, read up to one byte past
 * it, hooks.py `load_project_hook_config`). Skillgate opens first (safeFs
 * `readRegularFile`), so an open that fails is asked again in Rivumi's order: a link, a
 * non-file or a file over `sizeLimit` is refused by those checks before anything is opened,
 * whoever runs it; a path this user may not even inspect raises at `is_symlink()`; else
 * the open raises. None of these OSErrors is a SkillError, PluginError or HookError: each
 * fails the load that met it. A read that fails once the file is open raises too, without
 * a file name.
 */
export function rivumiReadFailure(
  file: string,
  read: Extract<ReadResult, { ok: false }>,
  sizeLimit?: number,
): RivumiReadFailure {
  if (read.reason !== 'io') return { kind: read.reason };
  const raised = (fault: typeof read.fault, nodeWords: string, filename?: string): RivumiReadFailure => ({
    kind: 'os-error',
    denied: deniedByPermissions(fault),
    text: pythonOsErrorText(fault, nodeWords, filename),
  });
  if (read.during === 'read') return raised(read.fault, read.error ?? 'read error');
  const entry = lstatEntry(file);
  if (entry.fault)
    return pathlibRaises(entry.fault) ? raised(entry.fault, entry.error ?? 'lstat error', file) : { kind: 'not-file' };
  if (entry.type === 'symlink') return { kind: 'symlink' };
  if (entry.type !== 'file') return { kind: 'not-file' };
  if (sizeLimit !== undefined && entry.size > sizeLimit) return { kind: 'too-large' };
  return raised(read.fault, read.error ?? 'open error', file);
}
