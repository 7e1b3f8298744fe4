import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { type DemoWorkbench, startDemoWorkbench } from '../support/demoWorkbench';
import { skillgateActivity } from '../support/treeView';
import { choose, runCommand } from '../support/webviewFrame';

/**
 * What a first-time user reaches for besides the tree: the walkthrough, and the Explain
 * Decision report, which must be a read-only preview and leave no unsaved buffer behind.
 */
describe('Skillgate guidance in the workbench (packaged VSIX, code-server + Chromium)', function () {
  this.timeout(180000);
  let wb: DemoWorkbench;
  let page: Page;

  before(async () => {
    wb = await startDemoWorkbench({ name: 'guidance' });
    page = wb.page;
    await skillgateActivity(page).click();
    await page
      .locator('.pane-body .monaco-list-row .label-name', { hasText: /^repo-tools$/ })
      .first()
      .waitFor({ timeout: 60000 });
  });

  afterEach(async function () {
    await wb?.capture(this.currentTest);
  });

  after(async () => {
    await wb?.stop();
  });

  const tabs = () => page.locator('.tabs-container .tab');

  it('explains a decision in a read-only preview, with no Untitled buffer and no unsaved changes', async () => {
    await runCommand(page, 'Skillgate: Explain Decision');
    await choose(page, 'choose a bundle to explain', 'repo-tools');
    const preview = tabs().filter({ hasText: 'Explain repo-tools' });
    await preview.first().waitFor({ timeout: 30000 });
    // The rendered report, decision first, inside the Markdown preview's webview.
    const frame = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
    await frame.locator('h1', { hasText: 'repo-tools' }).first().waitFor({ timeout: 30000 });
    assert.ok(
      /not_reviewed/.test((await frame.locator('body').textContent()) ?? ''),
      'the preview shows the reason code',
    );
    const titles = (await tabs().allTextContents()).map((t) => t.trim());
    assert.ok(!titles.some((t) => /Untitled/.test(t)), `no Untitled tab: ${titles.join(' | ')}`);
    assert.equal(await page.locator('.tabs-container .tab.dirty').count(), 0, 'no tab has unsaved changes');
  });

  it('offers a walkthrough from review to trust to CI', async () => {
    await runCommand(page, 'Welcome: Open Walkthrough...');
    await page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'Get started with Skillgate' })
      .first()
      .click({ timeout: 15000 });
    for (const step of ['See what your agents would load', 'Review a bundle', 'Trust, then enable', 'Gate it in CI']) {
      await page.locator('.getting-started-step', { hasText: step }).first().waitFor({ timeout: 30000 });
    }
  });
});
