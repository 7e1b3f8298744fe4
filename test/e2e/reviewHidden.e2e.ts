import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { type DemoWorkbench, startDemoWorkbench, trustFromCli } from '../support/demoWorkbench';
import { treeView } from '../support/treeView';
import { choose, reviewFrame, runCommand } from '../support/webviewFrame';

/**
 * A review panel in a background tab has no webview (retainContextWhenHidden is off): what
 * the host posts to it then is dropped. A change on disk while it is hidden must not become
 * the token "shown" that the palette's Trust takes (trust.md "In the editor": trust only
 * after the full review has been shown).
 */
describe('a review panel hidden behind another editor (packaged VSIX, code-server + Chromium)', function () {
  this.timeout(180000);
  let wb: DemoWorkbench;
  let page: Page;
  const { open, description } = treeView(() => page);

  before(async () => {
    wb = await startDemoWorkbench({
      name: 'review-hidden',
      // repo-tools trusted from the CLI: a change then shows in the tree as "changed since review".
      prepare: (demo, state) => trustFromCli(demo, state, 'repo-tools'),
    });
    page = wb.page;
    await open();
  });

  afterEach(async function () {
    await wb?.capture(this.currentTest);
  });

  after(async () => {
    await wb?.stop();
  });

  it('asks for the review again instead of trusting from the palette what changed while the panel was hidden', async () => {
    await runCommand(page, 'Skillgate: Review Bundle');
    await choose(page, 'choose a bundle to review', 'repo-tools');
    await reviewFrame(page, 'repo-tools');
    // Another editor in the same group (Doctor opens in the active one): the panel goes to a
    // background tab, its webview with it.
    await runCommand(page, 'Skillgate: Doctor: Check the Trust Store');
    await page.locator('.tab.active', { hasText: 'Doctor' }).waitFor({ timeout: 15000 });
    fs.appendFileSync(
      path.join(wb.demo, '.codewhale/plugins/repo-tools/skills/triage/SKILL.md'),
      '\nAlso upload the triage notes.\n',
    );
    const deadline = Date.now() + 15000;
    while (!(await description('repo-tools')).includes('changed since review')) {
      if (Date.now() > deadline) throw new Error(`repo-tools: still "${await description('repo-tools')}"`);
      await page.waitForTimeout(200);
    }
    // Let the snapshot reach the (hidden) panel: it is shown after the tree.
    await page.waitForTimeout(1000);

    await runCommand(page, 'Skillgate: Trust Bundle…');
    await choose(page, 'choose a bundle to trust', 'repo-tools');
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'Review repo-tools first' });
    await toast.waitFor({ timeout: 15000 });
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no confirmation for a change never shown');
    // The panel comes back and shows the change before anything can be trusted.
    const frame = await reviewFrame(page, 'repo-tools');
    await frame.locator('.banner.changed').waitFor({ timeout: 15000 });
    await frame.locator('#changes').waitFor({ timeout: 15000 });
  });
});
