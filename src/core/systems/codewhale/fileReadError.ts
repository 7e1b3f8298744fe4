import type { ReadResult } from '../../fs/safeFs';
import { rustFaultText } from '../../fs/rustIoErrorText';

/**
 * A manifest or `mcp.json` that failed to open or to read, in Codewhale's words: upstream
 * opens it without following links, then reads it (manifest.rs `read_manifest_bytes`,
 * `read_sibling_mcp_json`), and says which of the two failed, with Rust's io error
 * (`Permission denied (os error 13)` for a file of another owner at mode 600).
 */
export function fileReadErrorText(label: string, read: Extract<ReadResult, { ok: false }>): string {
  const why = rustFaultText(read.fault, read.error ?? 'unknown error');
  return read.during === 'read'
    ? `failed to read ${label}: ${why}`
    : `failed to open ${label} without following links: ${why}`;
}
