import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { PROJECT_ROOT, installVsix, startCodeServer, type CodeServer } from '../support/codeServer';
import { freshProfile, launchBrowser, openWorkbench } from '../support/workbench';

const VSIX = path.join(PROJECT_ROOT, 'dist/skillgate.vsix');
const DEMO = path.join(PROJECT_ROOT, 'examples/demo-workspace');
const DEMO_HOME = path.join(PROJECT_ROOT, 'examples/demo-home');
const RESULTS = path.join(PROJECT_ROOT, 'test-results');

/**
 * The packaged extension in a real workbench, driven as a user drives it: install the
 * VSIX, open the demo workspace, open the Skillgate view, read the tree, open the
 * Problems panel. Every test leaves a screenshot; a failure also keeps the server log.
 */
describe('Skillgate in the workbench (packaged VSIX, code-server + Chromium)', function () {
  this.timeout(180000);
  let server: CodeServer;
  let browser: Browser;
  let page: Page;
  let logFile: string;

  before(async () => {
    if (!fs.existsSync(VSIX)) throw new Error(`${VSIX} is missing; run \`npm run package\` first`);
    const profile = freshProfile('e2e');
    await installVsix(VSIX, profile.extensionsDir, profile.userDataDir);
    fs.mkdirSync(RESULTS, { recursive: true });
    logFile = path.join(RESULTS, 'e2e-code-server.log');
    fs.rmSync(logFile, { force: true });
    server = await startCodeServer({ extensionsDir: profile.extensionsDir, userDataDir: profile.userDataDir, logFile, disableWorkspaceTrust: true, env: { CODEWHALE_HOME: DEMO_HOME } });
    browser = await launchBrowser();
    page = await openWorkbench(browser, server.folderUrl(DEMO));
  });

  afterEach(async function () {
    const name = (this.currentTest?.title ?? 'test').replace(/[^a-z0-9]+/gi, '-').toLowerCase();
    await page?.screenshot({ path: path.join(RESULTS, `e2e-${name}.png`) });
    if (this.currentTest?.state === 'failed' && fs.existsSync(logFile)) fs.copyFileSync(logFile, path.join(RESULTS, `e2e-${name}.log`));
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  const treeRow = (label: string) => page.locator('.pane-body .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) });

  it('shows the Skillgate view with every item and its decision', async () => {
    await page.locator('.activitybar [aria-label^="Skillgate"]').first().click();
    await treeRow('repo-tools').first().waitFor({ timeout: 60000 });
    const expectations: [string, string][] = [
      ['reviewer', 'registered · guidance'],
      ['hooks.json', 'disabled · not_reviewed'],
      ['broken-upload', 'rejected · manifest_invalid'],
      ['lint-lsp', 'display_only · unsupported_components'],
      ['repo-tools', 'disabled · not_reviewed'],
    ];
    for (const [label, description] of expectations) {
      const row = treeRow(label).first();
      assert.equal((await row.locator('.label-description').textContent())?.trim(), description, label);
    }
    const formatter = treeRow('formatter');
    assert.equal(await formatter.count(), 2, 'the workspace copy and the user bundle');
    const descriptions = await formatter.locator('.label-description').allTextContents();
    assert.deepEqual(descriptions.map((d) => d.trim()).sort(), ['disabled · not_reviewed', 'shadowed · name_conflict']);
  });

  it('shows the invalid MCP URL in the Problems panel', async () => {
    await page.keyboard.press('Control+Shift+M');
    const problem = page.locator('.markers-panel .monaco-list-row', { hasText: 'MCP server `upload` URL may not contain a query or fragment' });
    await problem.first().waitFor({ timeout: 30000 });
    const text = (await problem.first().textContent()) ?? '';
    assert.match(text, /codewhale\.mcp\.url-query/);
    assert.match(text, /Ln 12, Col 7/);
  });
});
