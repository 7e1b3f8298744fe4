import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { RESULTS, startDemoWorkbench, trustFromCli, type DemoWorkbench } from '../support/demoWorkbench';
import { skillgateActivity, treeView } from '../support/treeView';
import { choose, openCommandPalette, quickPickTitle, reviewFrame, runCommand } from '../support/webviewFrame';

/** VS Code Restricted Mode, for real: the workspace trust prompt answered "No". */
describe('Skillgate in Restricted Mode (packaged VSIX, code-server + Chromium)', function () {
  this.timeout(180000);
  let wb: DemoWorkbench;
  let page: Page;
  let stateDir: string;
  const repoTools = () => {
    const state = JSON.parse(fs.readFileSync(path.join(stateDir, 'state.json'), 'utf8')) as {
      bundles: Record<string, { name: string; enabled: boolean; trust: unknown }>;
    };
    const entry = Object.values(state.bundles).find((b) => b.name === 'repo-tools');
    assert.ok(entry, 'repo-tools in the store');
    return entry;
  };

  before(async () => {
    wb = await startDemoWorkbench({
      name: 'restricted',
      folder: 'untrusted-repo',
      workspaceTrust: true,
      codewhaleHome: (root) => path.join(root, 'no-home'),
      // Trusted and enabled earlier, from the CLI: what Restricted Mode must still let the user switch off.
      prepare: (demo, state) => trustFromCli(demo, state, 'repo-tools', { enable: true }),
    });
    page = wb.page;
    stateDir = wb.stateDir;
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 60000 });
    await dialog.locator('.monaco-button', { hasText: /No, I don.t trust the authors/ }).click();
    await page.locator('.statusbar, .part.statusbar').first().waitFor();
  });

  afterEach(async function () {
    await wb?.capture(this.currentTest);
  });

  after(async () => {
    await wb?.stop();
  });

  const { row: treeRow, rowMenu, rowMenuEntries, clickRow } = treeView(() => page);

  it('indexes read-only and marks every bundle workspace_untrusted', async () => {
    await skillgateActivity(page).click();
    await treeRow('repo-tools').first().waitFor({ timeout: 60000 });
    assert.equal(
      ((await treeRow('repo-tools').first().locator('.label-description').textContent()) ?? '').trim(),
      'off in Restricted Mode',
    );
    assert.equal(
      ((await treeRow('reviewer').first().locator('.label-description').textContent()) ?? '').trim(),
      'active · guidance',
    );
  });

  it('hides Trust from the menus and the palette, and disables it in the review panel', async () => {
    const entries = await rowMenuEntries('repo-tools', 'Review Bundle');
    assert.equal(entries.filter((e) => e.includes('Trust Bundle')).length, 0, `no Trust in the menu: ${entries}`);
    await rowMenu('repo-tools', 'Review Bundle');
    const frame = await reviewFrame(page, 'repo-tools');
    assert.equal(await frame.locator('button', { hasText: 'Trust…' }).isDisabled(), true);
    assert.equal(await frame.locator('button', { hasText: 'Enable' }).isDisabled(), true);
    await clickRow('repo-tools', 'plugin.json');
    const input = await openCommandPalette(page);
    await input.fill('>Skillgate: Trust');
    await page.waitForTimeout(800);
    assert.equal(
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Skillgate: Trust Bundle' }).count(),
      0,
    );
    await page.keyboard.press('Escape');
  });

  it('performs Disable and Revoke from the panel and the palette, and refuses Trust and Enable with the reason shown', async () => {
    assert.deepEqual([repoTools().enabled, repoTools().trust !== null], [true, true]);
    await rowMenu('repo-tools', 'Review Bundle');
    const frame = await reviewFrame(page, 'repo-tools');
    await frame.locator('.pill', { hasText: 'trust: trusted' }).waitFor({ timeout: 10000 });
    await page.screenshot({ path: path.join(RESULTS, 'e2e-restricted-panel-of-a-trusted-enabled-bundle.png') });
    assert.equal(await frame.locator('button', { hasText: 'Disable' }).isDisabled(), false);
    assert.equal(await frame.locator('button', { hasText: 'Revoke' }).isDisabled(), false);
    assert.equal(await frame.locator('button', { hasText: 'Trust…' }).isDisabled(), true);
    assert.equal(await frame.locator('button', { hasText: 'Enable' }).isDisabled(), true);
    assert.equal(
      ((await frame.locator('.notice').first().textContent()) ?? '').trim(),
      'Restricted Mode: Trust and Enable are unavailable until you trust this workspace. Disable and Revoke stay available: they only reduce what runs.',
    );

    // Disable from the panel: the store changes, the panel says so.
    await frame.locator('button', { hasText: 'Disable' }).click();
    const deadline = Date.now() + 15000;
    while (repoTools().enabled) {
      if (Date.now() > deadline) throw new Error('Disable in the panel did not change the store');
      await page.waitForTimeout(200);
    }
    const after = await reviewFrame(page, 'repo-tools');
    await after.locator('#status', { hasText: 'Disabled repo-tools.' }).waitFor({ timeout: 10000 });

    // A forced Enable (as a stale panel would send it) is refused by the host.
    await after.locator('button', { hasText: 'Enable' }).evaluate((b) => {
      const button = b as unknown as { disabled: boolean; click(): void };
      button.disabled = false;
      button.click();
    });
    await (
      await reviewFrame(page, 'repo-tools')
    )
      .locator('#status.error', { hasText: 'Restricted Mode' })
      .waitFor({ timeout: 10000 });
    assert.equal(repoTools().enabled, false);

    // Revoke from the palette: offered, confirmed, performed.
    await runCommand(page, 'Skillgate: Revoke Trust');
    // The pick stays open when focus goes back to the review panel (bundlePick.ts).
    const pickTitle = quickPickTitle(page, 'choose a bundle to revoke');
    await pickTitle.waitFor({ state: 'visible', timeout: 30000 });
    await (await reviewFrame(page, 'repo-tools')).locator('header h1').click();
    await page.waitForTimeout(500);
    assert.equal(await pickTitle.isVisible(), true, 'the revoke pick closed when the review panel took focus');
    await choose(page, 'choose a bundle to revoke', 'repo-tools');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 10000 });
    await dialog.locator('.monaco-button', { hasText: /^Revoke$/ }).click();
    const revoked = Date.now() + 15000;
    while (repoTools().trust !== null) {
      if (Date.now() > revoked) throw new Error('Revoke from the palette did not change the store');
      await page.waitForTimeout(200);
    }

    // Disable is in the palette; Enable is not (Trust: see the test above).
    const input = await openCommandPalette(page);
    await input.fill('>Skillgate: Disable Bundle');
    await page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'Skillgate: Disable Bundle' })
      .first()
      .waitFor({ timeout: 10000 });
    await input.fill('>Skillgate: Enable Bundle');
    await page.waitForTimeout(800);
    assert.equal(
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Skillgate: Enable Bundle' }).count(),
      0,
    );
    await page.keyboard.press('Escape');
    await reviewFrame(page, 'repo-tools');
  });
});
