/**
 * "3 hours ago", as a person says when something happened; the exact time goes in a
 * tooltip beside it. Rounded down to the largest whole unit; a time in the future (a
 * clock moved back) or unreadable says so rather than guessing.
 */
export function relativeTime(iso: string, now: Date): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return 'at an unknown time';
  const seconds = Math.floor((now.getTime() - then) / 1000);
  if (seconds < -60) return 'in the future (check the clock)';
  if (seconds < 60) return 'just now';
  const units: [number, string][] = [
    [365 * 24 * 3600, 'year'],
    [30 * 24 * 3600, 'month'],
    [7 * 24 * 3600, 'week'],
    [24 * 3600, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    const n = Math.floor(seconds / size);
    if (n >= 1) return `${n} ${name}${n === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}
