/**
 * A string written as a quick fix writes it into a TOML or a JSON file: a JSON string, which
 * is a TOML basic string too, except that TOML also refuses DEL (U+007F) unescaped (TOML
 * 1.0 "Basic strings"), which JSON leaves as it is.
 */
export function quotedString(value: string): string {
  return JSON.stringify(value).replace(/\x7f/g, '\\u007f');
}
