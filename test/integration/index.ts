import * as path from 'node:path';
import Mocha from 'mocha';

export interface SuiteResults {
  passed: number;
  failed: number;
  tests: { title: string; state: 'passed' | 'failed'; error?: string }[];
}

/**
 * Runs the in-host suites with the real `vscode` API. Two hosts call it: the
 * code-server test harness extension (runSuites, results to a file) and
 * @vscode/test-electron (run, which must reject on failure).
 */
export function runSuites(): Promise<SuiteResults> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60000, color: false, reporter: 'spec' });
  mocha.addFile(path.join(__dirname, 'suites.js'));
  // While working on one suite: SKILLGATE_INTEGRATION_GREP='quick fixes' npm run test:integration
  const only = process.env.SKILLGATE_INTEGRATION_GREP;
  if (only) mocha.grep(only);
  const results: SuiteResults = { passed: 0, failed: 0, tests: [] };
  return new Promise((resolve) => {
    const runner = mocha.run(() => resolve(results));
    runner.on('pass', (t) => {
      results.passed++;
      results.tests.push({ title: t.fullTitle(), state: 'passed' });
    });
    runner.on('fail', (t, err: Error) => {
      results.failed++;
      results.tests.push({ title: t.fullTitle(), state: 'failed', error: err.stack ?? String(err) });
    });
  });
}

export async function run(): Promise<void> {
  const r = await runSuites();
  if (r.failed > 0) throw new Error(`${r.failed} in-host test(s) failed`);
}
