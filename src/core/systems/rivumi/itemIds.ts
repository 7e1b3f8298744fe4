import { canonicalPath } from '../../fs/safeFs';
import { sha256Hex } from '../../hashing/framing';

/**
 * The prefix of every Rivumi item id of one workspace: `rivumi:` and a tag of the folder's
 * real path, as Codewhale's and Eva's ids are made, so the same folder opened through a
 * symbolic link or directly has the same ids (trust keys already use real paths).
 */
export function rivumiIdPrefix(workspace: string): string {
  return `rivumi:${sha256Hex(canonicalPath(workspace) ?? workspace).slice(0, 12)}:`;
}
