import type { IoFault } from '../../fs/safeFs';
import type { Findings } from '../../diagnostics/findings';
import { FILE_START, type Diagnostic, type Range } from '../../model';
import { pythonOsErrorText } from './pythonOsError';

/**
 * The PermissionError that fails one of Rivumi's loads when it runs as this user
 * (`rivumi.path-unreadable`). Python's pathlib raises it where Rivumi asks whether a path
 * exists or opens it (skills.py, plugins.py, hooks.py); it is no SkillError, PluginError or
 * HookError, so the load that met it fails. The skill, plugin and hook readers all say it
 * with these same words.
 */

/**
 * `.rivumi/skills`, `.rivumi/plugins` or `.rivumi/hooks.json` whose existence this user may not
 * even ask (`.rivumi` at mode 000), or a hooks.json it may not open. Rivumi's `exists()`
 * (skills.py `_load_skills_directory`, plugins.py `load_project_plugins`, hooks.py
 * `load_project_hook_config`) raises PermissionError there on Python 3.11 to 3.13, as does
 * hooks.py's `path.open("rb")`; neither is a SkillError or HookError: the load that asked fails,
 * in Python's words. A user who may read it loads what is there, which Skillgate cannot show:
 * an error either way.
 */
export function uninspectable(
  p: string,
  kind: RivumiLoad,
  failed: { readonly fault?: IoFault; readonly error?: string },
  findings: Findings,
): Diagnostic {
  return deniedToRivumi(pythonOsErrorText(failed.fault, failed.error ?? 'permission denied', p), kind, p, findings);
}

/** The load that an OSError fails; a plugin manifest's fails both the skill and the hook load. */
export type RivumiLoad = 'skill' | 'plugin' | 'hook';

/**
 * A PermissionError (`[Errno 13] Permission denied: '<path>'`, `pythonText`) that fails a load
 * of Rivumi run as this user, said at `file`: run as one who may read the path, Rivumi loads
 * what it holds instead, which Skillgate, run as this user, cannot read either.
 */
export function deniedToRivumi(
  pythonText: string,
  kind: RivumiLoad,
  file: string,
  findings: Findings,
  range: Range = FILE_START,
): Diagnostic {
  return findings.inFile(
    'rivumi.path-unreadable',
    `${pythonText} (Rivumi's ${kind} load fails on it as this user; run as a user who may read it, Rivumi loads what is there, which Skillgate cannot show)`,
    file,
    range,
  );
}
