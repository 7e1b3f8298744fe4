/** The largest manifest (or `mcp.json`) Codewhale reads, in bytes (codewhale.md §4.1: at most 1 MiB). */
export const MAX_MANIFEST_BYTES = 1048576;
