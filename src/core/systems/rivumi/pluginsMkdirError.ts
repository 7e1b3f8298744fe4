import { constants as osConstants } from 'node:os';
import { pythonOsErrorText } from './pythonOsError';

/** Node's words for the errors of `pluginsMkdirRaises`, where Python's are not known (pythonOsError.ts). */
const NODE_MKDIR_WORDS = { EEXIST: 'EEXIST: file already exists', ENOTDIR: 'ENOTDIR: not a directory' } as const;

/**
 * The OSError Rivumi's `mkdir(parents=True, exist_ok=True)` of the plugins directory raises
 * where something other than a directory stands in its way (rivumi.md §5.6 step 4): os.mkdir
 * fails, `is_dir()` is false, so the error propagates: FileExistsError at the plugins path
 * itself, NotADirectoryError at `.rivumi`, each naming the plugins path. Worded, never
 * attempted: the install is refused before it creates anything.
 */
export function pluginsMkdirRaises(pluginsDir: string, code: keyof typeof NODE_MKDIR_WORDS): string {
  const fault = { code, errno: -osConstants.errno[code] };
  return `could not create ${pluginsDir}: ${pythonOsErrorText(fault, NODE_MKDIR_WORDS[code], pluginsDir)}`;
}
