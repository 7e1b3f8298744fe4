/**
 * How deeply Codewhale's parsers let a manifest nest. serde_json stops at its
 * recursion limit of 128: the 128th array or object open at once fails with
 * "recursion limit exceeded at line L column C". toml_edit's RecursionCheck does the
 * same at 128 levels of inline arrays and tables and 128 dotted-key segments.
 * Skillgate refuses a TOML value tree deeper than 127 levels in all, which no real
 * manifest approaches (the deepest field a schema reads sits about 5 levels down).
 */
export const SERDE_JSON_MAX_DEPTH = 127;
export const TOML_MAX_DEPTH = 127;
