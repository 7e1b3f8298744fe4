import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { PROJECT_ROOT, installVsix, startCodeServer, type CodeServer } from '../support/codeServer';
import { freshProfile, launchBrowser, openWorkbench } from '../support/workbench';
import { reviewFrame } from '../support/webviewFrame';

const VSIX = path.join(PROJECT_ROOT, 'dist/skillgate.vsix');
const RESULTS = path.join(PROJECT_ROOT, 'test-results');

/** VS Code Restricted Mode, for real: the workspace trust prompt answered "No". */
describe('Skillgate in Restricted Mode (packaged VSIX, code-server + Chromium)', function () {
  this.timeout(180000);
  let server: CodeServer;
  let browser: Browser;
  let page: Page;
  let logFile: string;

  before(async () => {
    if (!fs.existsSync(VSIX)) throw new Error(`${VSIX} is missing; run \`npm run package\` first`);
    const profile = freshProfile('restricted');
    await installVsix(VSIX, profile.extensionsDir, profile.userDataDir);
    const demo = path.join(profile.root, 'untrusted-repo');
    fs.cpSync(path.join(PROJECT_ROOT, 'examples/demo-workspace'), demo, { recursive: true });
    fs.mkdirSync(RESULTS, { recursive: true });
    logFile = path.join(RESULTS, 'e2e-restricted-code-server.log');
    fs.rmSync(logFile, { force: true });
    server = await startCodeServer({ extensionsDir: profile.extensionsDir, userDataDir: profile.userDataDir, logFile, env: { CODEWHALE_HOME: path.join(profile.root, 'no-home'), SKILLGATE_STATE_DIR: path.join(profile.root, 'state') } });
    browser = await launchBrowser();
    page = await openWorkbench(browser, server.folderUrl(demo));
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 60000 });
    await dialog.locator('.monaco-button', { hasText: /No, I don.t trust the authors/ }).click();
    await page.locator('.statusbar, .part.statusbar').first().waitFor();
  });

  afterEach(async function () {
    const name = (this.currentTest?.title ?? 'test').replace(/[^a-z0-9]+/gi, '-').toLowerCase();
    await page?.screenshot({ path: path.join(RESULTS, `e2e-restricted-${name}.png`) });
    if (this.currentTest?.state === 'failed' && fs.existsSync(logFile)) fs.copyFileSync(logFile, path.join(RESULTS, `e2e-restricted-${name}.log`));
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  const treeRow = (label: string) => page.locator('.pane-body .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) });

  it('indexes read-only and marks every bundle workspace_untrusted', async () => {
    await page.locator('.activitybar [aria-label^="Skillgate"]').first().click();
    await treeRow('repo-tools').first().waitFor({ timeout: 60000 });
    assert.equal(((await treeRow('repo-tools').first().locator('.label-description').textContent()) ?? '').trim(), 'disabled · workspace_untrusted');
    assert.equal(((await treeRow('reviewer').first().locator('.label-description').textContent()) ?? '').trim(), 'registered · guidance');
  });

  it('hides Trust from the menus and the palette, and disables it in the review panel', async () => {
    await treeRow('repo-tools').first().click({ button: 'right' });
    const menu = page.locator('.context-view');
    await menu.locator('.action-item', { hasText: 'Review Bundle' }).first().waitFor();
    assert.equal(await menu.locator('.action-item', { hasText: 'Trust Bundle' }).count(), 0);
    await menu.locator('.action-item', { hasText: 'Review Bundle' }).first().hover();
    await page.keyboard.press('Enter');
    const frame = await reviewFrame(page, 'repo-tools');
    assert.equal(await frame.locator('button', { hasText: 'Trust…' }).isDisabled(), true);
    assert.equal(await frame.locator('button', { hasText: 'Enable' }).isDisabled(), true);
    await treeRow('repo-tools').first().click();
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible' });
    await input.fill('>Skillgate: Trust');
    await page.waitForTimeout(800);
    assert.equal(await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Skillgate: Trust Bundle' }).count(), 0);
    await page.keyboard.press('Escape');
  });
});
