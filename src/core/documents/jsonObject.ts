/**
 * An object as JSON or TOML parses it, keyed by names: not null and not an array (both
 * are `typeof 'object'` too). The one test for "a table / an object here" wherever a
 * parsed value is checked by hand.
 */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
