import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { PROJECT_ROOT, installVsix, startCodeServer, type CodeServer } from '../support/codeServer';
import { freshProfile, launchBrowser, openWorkbench } from '../support/workbench';
import { runCommand } from '../support/webviewFrame';

const VSIX = path.join(PROJECT_ROOT, 'dist/skillgate.vsix');
const DEMO_SOURCE = path.join(PROJECT_ROOT, 'examples/demo-workspace');
const DEMO_HOME = path.join(PROJECT_ROOT, 'examples/demo-home');
const RESULTS = path.join(PROJECT_ROOT, 'test-results');

/**
 * What a first-time user reaches for besides the tree: the walkthrough, and the Explain
 * Decision report, which must be a read-only preview and leave no unsaved buffer behind.
 */
describe('Skillgate guidance in the workbench (packaged VSIX, code-server + Chromium)', function () {
  this.timeout(180000);
  let server: CodeServer;
  let browser: Browser;
  let page: Page;

  before(async () => {
    if (!fs.existsSync(VSIX)) throw new Error(`${VSIX} is missing; run \`npm run package\` first`);
    const profile = freshProfile('e2e-guidance');
    await installVsix(VSIX, profile.extensionsDir, profile.userDataDir);
    const demo = path.join(profile.root, 'demo-workspace');
    fs.cpSync(DEMO_SOURCE, demo, { recursive: true });
    fs.mkdirSync(RESULTS, { recursive: true });
    server = await startCodeServer({ extensionsDir: profile.extensionsDir, userDataDir: profile.userDataDir, logFile: path.join(RESULTS, 'e2e-guidance-code-server.log'), disableWorkspaceTrust: true, env: { CODEWHALE_HOME: DEMO_HOME, SKILLGATE_STATE_DIR: path.join(profile.root, 'state') } });
    browser = await launchBrowser();
    page = await openWorkbench(browser, server.folderUrl(demo));
    await page.locator('.activitybar [aria-label^="Skillgate"]').first().click();
    await page.locator('.pane-body .monaco-list-row .label-name', { hasText: /^repo-tools$/ }).first().waitFor({ timeout: 60000 });
  });

  afterEach(async function () {
    const name = (this.currentTest?.title ?? 'test').replace(/[^a-z0-9]+/gi, '-').toLowerCase();
    await page?.screenshot({ path: path.join(RESULTS, `e2e-guidance-${name}.png`) });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  const tabs = () => page.locator('.tabs-container .tab');

  it('explains a decision in a read-only preview, with no Untitled buffer and no unsaved changes', async () => {
    await runCommand(page, 'Skillgate: Explain Decision');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.fill('repo-tools');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'repo-tools' }).first().waitFor();
    await page.keyboard.press('Enter');
    const preview = tabs().filter({ hasText: 'Explain repo-tools' });
    await preview.first().waitFor({ timeout: 30000 });
    // The rendered report, decision first, inside the Markdown preview's webview.
    const frame = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
    await frame.locator('h1', { hasText: 'repo-tools' }).first().waitFor({ timeout: 30000 });
    assert.ok(/not_reviewed/.test((await frame.locator('body').textContent()) ?? ''), 'the preview shows the reason code');
    const titles = (await tabs().allTextContents()).map((t) => t.trim());
    assert.ok(!titles.some((t) => /Untitled/.test(t)), `no Untitled tab: ${titles.join(' | ')}`);
    assert.equal(await page.locator('.tabs-container .tab.dirty').count(), 0, 'no tab has unsaved changes');
  });

  it('offers a walkthrough from review to trust to CI', async () => {
    await runCommand(page, 'Welcome: Open Walkthrough...');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get started with Skillgate' }).first().click({ timeout: 15000 });
    for (const step of ['See what your agents would load', 'Review a bundle', 'Trust, then enable', 'Gate it in CI']) {
      await page.locator('.getting-started-step', { hasText: step }).first().waitFor({ timeout: 30000 });
    }
  });
});
