/** What a repository wrote, as the job log shows it: the CLI's mark for every character it marks. */
export function visible(s: unknown): string;
