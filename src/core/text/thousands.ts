/**
 * 25000 as 25,000, whatever the locale and ICU data of the Node that runs: the counts in
 * messages read the same in the CLI, SARIF and the editor. By hand, since `toLocaleString`
 * is ICU's and slow, and the diagnostics' per-file cap rebuilds its count for each one it
 * leaves out.
 */
export function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
