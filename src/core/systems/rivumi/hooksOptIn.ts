/** Rivumi runs project and plugin hooks only when `RIVUMI_ENABLE_PROJECT_HOOKS` is exactly `1` (rivumi.md). */
export function rivumiHooksOptIn(value: string | undefined): boolean {
  return value === '1';
}
