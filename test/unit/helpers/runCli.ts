import { run } from '../../../src/cli/main';

export interface CliResult {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** The CLI run in process with this environment and working directory, what it prints collected. */
export async function runCli(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Promise<CliResult> {
  let out = '';
  let err = '';
  const code = await run(args, { out: (t) => (out += t), err: (t) => (err += t), env, cwd });
  return { code, out, err };
}
