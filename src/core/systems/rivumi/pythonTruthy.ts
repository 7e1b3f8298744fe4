/**
 * Python's truth value of a JSON value, as Rivumi's `data.get("name") or stem` tests it
 * (rivumi.md §5.6 step 2): null, false, 0, "", [] and {} are false; NaN is true, unlike
 * in JavaScript.
 */
export function pythonTruthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return false;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return value !== '';
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}
