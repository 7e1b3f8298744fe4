// Runs the in-host integration suites (test/integration) inside a real VS Code:
//  - with VSCODE_EXECUTABLE set: under @vscode/test-electron with that executable;
//  - otherwise: under code-server, through the test-harness extension, with Chromium
//    connected (the extension host starts only when a browser connects).
// Prints each test and a closing "N passed, N failed" line; exits 1 on any failure.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { PROJECT_ROOT, startCodeServer } from '../test/support/codeServer';
import { freshProfile, launchBrowser, openWorkbench, placeDevelopmentBuild } from '../test/support/workbench';

const FIXTURE_SOURCE = path.join(PROJECT_ROOT, 'test/fixtures/integration-workspace');
const ENTRY = path.join(PROJECT_ROOT, 'out/integration/index.js');

interface Results {
  passed: number;
  failed: number;
  tests: { title: string; state: string; error?: string }[];
}

/** The suites edit files and trust bundles: they get a fresh copy of the fixture and their own trust store. */
function freshFixture(root: string): { workspace: string; stateDir: string } {
  const workspace = path.join(root, 'integration-workspace');
  fs.cpSync(FIXTURE_SOURCE, workspace, { recursive: true });
  return { workspace, stateDir: path.join(root, 'state') };
}

async function underElectron(executable: string): Promise<number> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-electron-'));
  const { workspace, stateDir } = freshFixture(root);
  process.env.SKILLGATE_STATE_DIR = stateDir;
  process.env.CODEWHALE_HOME = path.join(root, 'no-codewhale-home');
  try {
    await runTests({
      vscodeExecutablePath: executable,
      extensionDevelopmentPath: PROJECT_ROOT,
      extensionTestsPath: ENTRY,
      launchArgs: [workspace, '--disable-workspace-trust'],
      extensionTestsEnv: { SKILLGATE_STATE_DIR: stateDir, CODEWHALE_HOME: path.join(root, 'no-codewhale-home') },
    });
    return 0;
  } catch (e) {
    console.error(String(e));
    return 1;
  }
}

async function underCodeServer(): Promise<number> {
  const profile = freshProfile('integration');
  placeDevelopmentBuild(profile.extensionsDir);
  fs.cpSync(
    path.join(PROJECT_ROOT, 'test/harness'),
    path.join(profile.extensionsDir, 'skillgate.integration-harness-0.0.1'),
    { recursive: true },
  );
  const resultsFile = path.join(profile.root, 'results.json');
  const { workspace, stateDir } = freshFixture(profile.root);
  const logFile = path.join(PROJECT_ROOT, 'test-results', 'integration-code-server.log');
  fs.rmSync(logFile, { force: true });
  const server = await startCodeServer({
    extensionsDir: profile.extensionsDir,
    userDataDir: profile.userDataDir,
    logFile,
    disableWorkspaceTrust: true,
    env: {
      SKILLGATE_TEST_RESULTS: resultsFile,
      SKILLGATE_TEST_ENTRY: ENTRY,
      CODEWHALE_HOME: path.join(profile.root, 'no-codewhale-home'),
      SKILLGATE_STATE_DIR: stateDir,
    },
  });
  const browser = await launchBrowser();
  try {
    const page = await openWorkbench(browser, server.folderUrl(workspace));
    // recheck.test.ts alone waits past the minute of re-checks after a full index, then for a steady one.
    const deadline = Date.now() + 360_000;
    while (!fs.existsSync(resultsFile)) {
      if (Date.now() > deadline) {
        fs.mkdirSync(path.join(PROJECT_ROOT, 'test-results'), { recursive: true });
        await page.screenshot({ path: path.join(PROJECT_ROOT, 'test-results', 'integration-timeout.png') });
        throw new Error(`the in-host suites wrote no results within 360 s; see ${logFile}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  const results = JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as Results;
  for (const t of results.tests) {
    console.log(`  ${t.state === 'passed' ? '✔' : '✖'} ${t.title}`);
    if (t.error)
      console.log(
        t.error
          .split('\n')
          .map((l) => `      ${l}`)
          .join('\n'),
      );
  }
  console.log(`integration: ${results.passed} passed, ${results.failed} failed`);
  if (results.passed + results.failed === 0) {
    console.error('integration: no test ran');
    return 1;
  }
  fs.rmSync(profile.root, { recursive: true, force: true });
  return results.failed === 0 ? 0 : 1;
}

const executable = process.env.VSCODE_EXECUTABLE;
(executable ? underElectron(executable) : underCodeServer())
  .then((code) => process.exit(code))
  .catch((e) => {
    console.error(`integration: ${(e as Error).message}`);
    process.exit(1);
  });
