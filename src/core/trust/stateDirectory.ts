import * as path from 'node:path';
import { userHome } from '../fs/userHome';

/**
 * Where the trust store lives (trust.md): `--state-dir`, else `$SKILLGATE_STATE_DIR`,
 * else the platform's per-user state directory. Never a workspace: the editor only
 * passes a directory from user or machine settings.
 */
export function defaultStateDirectory(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.SKILLGATE_STATE_DIR) return path.resolve(env.SKILLGATE_STATE_DIR);
  // Never an empty or relative `HOME`: the store would then lie in the working directory, the repository.
  const home = userHome();
  if (home === undefined)
    throw new Error(
      'no home directory can be resolved for the trust store; set SKILLGATE_STATE_DIR or pass --state-dir',
    );
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'skillgate');
  if (platform === 'win32') return path.join(env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'), 'skillgate');
  return path.join(
    env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : path.join(home, '.local', 'state'),
    'skillgate',
  );
}
