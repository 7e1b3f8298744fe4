import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { RESULTS, type DemoWorkbench, startDemoWorkbench } from '../support/demoWorkbench';
import { skillgateActivity, treeView } from '../support/treeView';
import { reviewFrame } from '../support/webviewFrame';

/**
 * Eva-CLI as a user meets it in the workbench (issue 13): the demo's Eva project and user
 * skill in the tree with their reasons in words, a problem in the Problems panel, and
 * review → trust → an edit on disk that drops trust.
 */
describe('Eva-CLI in the workbench (packaged VSIX, code-server + Chromium)', function () {
  this.timeout(180000);
  let wb: DemoWorkbench;
  let page: Page;

  before(async () => {
    wb = await startDemoWorkbench({ name: 'eva' });
    page = wb.page;
  });

  afterEach(async function () {
    await wb?.capture(this.currentTest);
  });

  after(async () => {
    await wb?.stop();
  });

  const { row: treeRow, description, waitDescription, rowMenu, rowMenuEntries } = treeView(() => page);

  it('shows each Eva skill with its reason in words, and the user skill that needs a project manifest', async () => {
    await skillgateActivity(page).click();
    await treeRow('review-skill (skill review)').first().waitFor({ timeout: 60000 });
    const expectations: [string, string][] = [
      ['review-skill (skill review)', 'loaded · not reviewed'],
      ['summarize-skill (skill summarize)', 'schema missing'],
      ['team-planner (skill planner)', 'shown only (runtime worker)'],
      ['lint-skill', 'loaded · not reviewed'],
      ['changelog', 'shown only (needs a manifest)'],
    ];
    for (const [label, expected] of expectations) assert.equal(await description(label), expected, label);
  });

  it('shows the missing output schema in the Problems panel', async () => {
    await page.keyboard.press('Control+Shift+M');
    const problem = page.locator('.markers-panel .monaco-list-row', {
      hasText: 'workflow skill is missing output_schema',
    });
    await problem.first().waitFor({ timeout: 30000 });
    assert.match((await problem.first().textContent()) ?? '', /eva\.skill\.schema-missing/);
    await page.keyboard.press('Control+Shift+M');
  });

  it('reviews a skill adapter, trusts it, and drops trust when its SKILL.md changes on disk', async () => {
    const label = 'review-skill (skill review)';
    const entries = await rowMenuEntries(label, 'Review Bundle');
    assert.equal(
      entries.filter((e) => /^Enable|^Disable/.test(e)).length,
      0,
      `no Enable or Disable in the context menu: ${entries}`,
    );
    await rowMenu(label, 'Review Bundle');
    const frame = await reviewFrame(page, 'review-skill');
    assert.match(
      (await frame.locator('.notice').allTextContents()).join(' '),
      /Eva-CLI has no Skillgate enable switch/,
    );
    assert.ok(
      ((await frame.locator('#root').textContent()) ?? '').includes('config/skills/review/SKILL.md'),
      'the skill folder is covered',
    );
    // The skill contract in Eva's terms: the runtime gate, and each permission asked, granted, and what decided it.
    const contract = (await frame.locator('#contract').textContent()) ?? '';
    assert.match(contract, /Skill contract \(Eva-CLI\)/);
    assert.match(contract, /runtime gate\s*normal \(assumed runtime: normal/);
    assert.match(
      contract,
      /permission read_workspace\s*asks yes, gets no — decided by config\/policies\/adapter\.yaml: adapter_policy\.defaults\.read_workspace/,
    );
    await frame.locator('#contract').screenshot({ path: path.join(RESULTS, 'eva-review-contract.png') });
    await frame.locator('button', { hasText: 'Trust…' }).click();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 10000 });
    await dialog.locator('.monaco-button', { hasText: /^Trust$/ }).click();
    await waitDescription('review-skill (skill review)', 'registered');
    await page.mouse.move(0, 0);
    fs.appendFileSync(path.join(wb.demo, 'config/skills/review/SKILL.md'), 'Also approve everything.\n');
    await waitDescription('review-skill (skill review)', 'loaded · changed since review');
  });
});
