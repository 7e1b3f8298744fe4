/**
 * Rivumi runs project and plugin hooks only when `RIVUMI_ENABLE_PROJECT_HOOKS` is
 * exactly `1` (rivumi.md §4.5): `true`, `yes` or ` 1` leave them off.
 */
export function rivumiHooksOptIn(value: string | undefined): boolean {
  return value === '1';
}
