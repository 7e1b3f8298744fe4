import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { type DemoWorkbench, RESULTS, startDemoWorkbench } from '../support/demoWorkbench';
import { skillgateActivity } from '../support/treeView';
import { choose, openTrustConfirmation, reviewFrame, runCommand } from '../support/webviewFrame';

/**
 * The review panel and the trust confirmation in words (issue 14 #9-#14), in a real
 * workbench: what changed as before → after, the hooks table, skill bodies, what is
 * active, the confirmation's detail and its safe Enter, and "Enable again" after a
 * re-trust. Screenshots of the panel in light, dark and high contrast go to test-results/.
 */
describe('the review panel in words (packaged VSIX, code-server + Chromium)', function () {
  this.timeout(180000);
  let wb: DemoWorkbench;
  let page: Page;
  let demo: string;

  before(async () => {
    wb = await startDemoWorkbench({ name: 'review' });
    page = wb.page;
    demo = wb.demo;
    await skillgateActivity(page).click();
    await page.locator('.pane-body .monaco-list-row', { hasText: 'repo-tools' }).first().waitFor({ timeout: 60000 });
  });

  afterEach(async function () {
    await wb?.capture(this.currentTest);
  });

  after(async () => {
    await wb?.stop();
  });

  /** Opens a bundle's review from the palette, as a user does, and returns its frame. */
  const openReview = async (name: string): Promise<Frame> => {
    await runCommand(page, 'Skillgate: Review Bundle');
    await choose(page, 'choose a bundle to review', name);
    return reviewFrame(page, name);
  };
  /** Waits until the (re-rendered) panel satisfies `test`; the frame is looked up again each time. */
  const until = async (heading: string, what: string, test: (f: Frame) => Promise<boolean>): Promise<Frame> => {
    const deadline = Date.now() + 20000;
    for (;;) {
      const frame = await reviewFrame(page, heading);
      if (await test(frame).catch(() => false)) return frame;
      if (Date.now() > deadline) throw new Error(`the ${heading} panel did not show ${what}`);
      await page.waitForTimeout(200);
    }
  };
  /** The drift notification would cover the panel in a screenshot. */
  const clearNotifications = async () => {
    await runCommand(page, 'Notifications: Clear All Notifications');
    await page
      .locator('.notifications-toasts .notification-toast')
      .first()
      .waitFor({ state: 'detached', timeout: 5000 })
      .catch(() => undefined);
  };
  const text = async (f: Frame, selector: string) =>
    ((await f.locator(selector).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
  const trustPill = (f: Frame) => text(f, '.state .pill');

  it('shows the hooks as a table with column headers, the files each hook runs with their coverage, and when Rivumi runs them', async () => {
    const frame = await openReview('hooks.json');
    const headers = (await frame.locator('#capabilities table.hooks th').allTextContents()).map((h) => h.trim());
    assert.deepEqual(headers, ['event', 'command', 'timeout', 'tools', 'working directory']);
    const rows = await frame.locator('#capabilities table.hooks tbody tr:not(.hook-files)').allTextContents();
    assert.ok(
      rows.some((r) => /pre_tool_use\s*python3 scripts\/deny-secrets\.py\s*2s\s*read_file\s*workspace folder/.test(r)),
      rows.join(' | '),
    );
    const covered = await frame.locator('#capabilities .hook-file-list li.covered').allTextContents();
    assert.ok(
      covered.some((c) => /scripts\/deny-secrets\.py covered: its bytes are part of the review token/.test(c)),
      covered.join(' | '),
    );
    assert.match(
      await text(frame, '#capabilities .hooks-when'),
      /^Rivumi runs these whenever RIVUMI_ENABLE_PROJECT_HOOKS=1 is set in its environment/,
    );
  });

  it('says under a hook whose label passes 512 characters that Rivumi runs it and then denies, and wraps its long arguments in the page', async () => {
    const hooksFile = path.join(demo, '.rivumi/hooks.json');
    const before = fs.readFileSync(hooksFile, 'utf8');
    try {
      const hooks = JSON.parse(before) as { pre_compact: { command: string[] }[] };
      hooks.pre_compact.push({ command: ['echo', 'x'.repeat(200), 'y'.repeat(200), 'z'.repeat(150)] });
      fs.writeFileSync(hooksFile, JSON.stringify(hooks, null, 2));
      await openReview('hooks.json');
      const frame = await until(
        'hooks.json',
        'the long hook',
        async (f) => (await f.locator('.hook-after').count()) === 1,
      );
      assert.equal(
        await text(frame, '.hook-after'),
        'Runs, then fails closed (deny) on every event it matches: its label is longer than 512 characters.',
      );
      // One word of 200 characters wraps in its cell: the page never scrolls sideways.
      const overflow = await frame.evaluate<number>(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      );
      assert.ok(overflow <= 0, `the page is ${overflow}px wider than the panel`);
      await page.screenshot({ path: path.join(RESULTS, 'review-long-hook.png') });
    } finally {
      fs.writeFileSync(hooksFile, before);
    }
  });

  it('shows no "configured on" pill on a rejected bundle: its servers say they will not start', async () => {
    const frame = await openReview('broken-upload');
    assert.match(await text(frame, '.decision'), /rejected|Rejected/);
    assert.equal(await frame.locator('#capabilities .pill.on').count(), 0);
    const states = await frame.locator('#capabilities .card-title .pill.muted').allTextContents();
    assert.ok(
      states.length > 0 &&
        states.every((s) => /^not started: the agent does not load this bundle \(it is rejected\)$/.test(s.trim())),
      states.join(' | '),
    );
  });

  it('copies the review token it shows, also of a bundle that cannot be trusted, and says so only when it did', async () => {
    // The workbench writes the clipboard (vscode.env.clipboard), so the page's origin may read it back.
    await page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
    const clipboard = () => page.evaluate<string>('navigator.clipboard.readText()');
    for (const name of ['broken-upload', 'repo-tools']) {
      const frame = await openReview(name);
      const shown = (await frame.locator('#hashes dd.mono').nth(2).textContent())?.trim() ?? '';
      assert.match(shown, /^[0-9a-f]{64}\.[0-9a-f]{64}$/, `${name}: the token the panel shows`);
      await page.evaluate<void>(`navigator.clipboard.writeText('before ${name}')`);
      await frame.locator('button', { hasText: 'Copy review token' }).click();
      await until(name, '"Review token copied."', async (f) => (await text(f, '#status')) === 'Review token copied.');
      const deadline = Date.now() + 5000;
      while ((await clipboard()) !== shown && Date.now() < deadline) await page.waitForTimeout(100);
      assert.equal(await clipboard(), shown, `${name}: the clipboard holds the token shown`);
    }
  });

  it("says per component whether it will be active, and shows a skill's and a command's text when expanded", async () => {
    const frame = await openReview('repo-tools');
    const components = (await frame.locator('#capabilities li.component').allTextContents()).map((c) =>
      c.replace(/\s+/g, ' ').trim(),
    );
    assert.ok(components.length >= 2, components.join(' | '));
    for (const c of components)
      assert.match(c, /^(skills|commands) from \S+ — not active: the bundle is not trusted and enabled$/);
    assert.ok(!components.some((c) => /^skills skills/.test(c)), 'not "skills skills"');
    const skillBody = frame.locator('#capabilities li.skill details.body');
    assert.equal(await skillBody.locator('pre').isVisible(), false, 'collapsed at first');
    await skillBody.locator('summary').first().click();
    assert.match(
      (await skillBody.locator('pre').first().textContent()) ?? '',
      /Read the issue, find the owning component/,
    );
    const commandBody = frame.locator('#capabilities li.command details.body');
    await commandBody.locator('summary').first().click();
    assert.ok(((await commandBody.locator('pre').first().textContent()) ?? '').length > 0);
  });

  it('lists what will run in the trust confirmation, says what trust does, and cancels on Enter', async () => {
    let frame = await reviewFrame(page, 'repo-tools');
    const { dialog, detail } = await openTrustConfirmation(page, frame);
    assert.match(
      detail,
      /You are trusting exactly the codewhale bundle you reviewed \(review token [0-9a-f]{12}…[0-9a-f]{12}\)\./,
    );
    assert.match(detail, /Commands it will run:\s*• node mcp\/server\.mjs --mode=readonly {2}\(MCP server issues\)/);
    assert.match(detail, /Trusting starts nothing: it stays disabled until you enable it\./);
    // The focused button is the one Enter presses: the harmless one, not Trust.
    assert.equal((await page.evaluate<string>('document.activeElement?.textContent ?? ""')).trim(), 'Keep Reviewing');
    await page.screenshot({ path: path.join(RESULTS, 'trust-confirmation-after.png') });
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached', timeout: 10000 });
    frame = await reviewFrame(page, 'repo-tools');
    assert.equal(await trustPill(frame), 'trust: not-reviewed', 'Enter did not trust');
    // Trust for real, then enable: the next test changes what it runs.
    await frame.locator('button', { hasText: 'Trust…' }).click();
    await dialog.waitFor({ timeout: 10000 });
    await dialog.locator('.monaco-button', { hasText: /^Trust$/ }).click();
    frame = await until('repo-tools', 'trust: trusted', async (f) => (await trustPill(f)) === 'trust: trusted');
    await frame.locator('button:not([disabled])', { hasText: 'Enable' }).click();
    await until('repo-tools', 'enabled', async (f) => (await text(f, '.state .pill.on')) === 'enabled');
  });

  it('shows what changed as a person writes it: the arguments before → after, the review time in words', async () => {
    const mcpFile = path.join(demo, '.codewhale/plugins/repo-tools/mcp.json');
    fs.writeFileSync(mcpFile, fs.readFileSync(mcpFile, 'utf8').replace('"--mode=readonly"', '"--mode=write"'));
    const frame = await until(
      'repo-tools',
      'the changes',
      async (f) => (await f.locator('#changes .argv-change').count()) > 0,
    );
    const change = await text(frame, '#changes ul.changes li');
    assert.match(
      change,
      /^changed arguments of MCP server `issues`: \["mcp\/server\.mjs", "--mode=readonly"\] → \["mcp\/server\.mjs", "--mode=write"\]/,
    );
    assert.doesNotMatch(change, /args\.--mode=write/);
    assert.equal(await text(frame, '#changes .argv-line.before .argv-label'), 'before');
    assert.deepEqual(await frame.locator('#changes .argv-line.before .argtoken').allTextContents(), [
      'mcp/server.mjs',
      '--mode=readonly',
    ]);
    assert.equal(await text(frame, '#changes .argv-line.after .argv-label'), 'after');
    assert.deepEqual(await frame.locator('#changes .argv-line.after .argtoken').allTextContents(), [
      'mcp/server.mjs',
      '--mode=write',
    ]);
    const when = frame.locator('#changes h2 .reviewed-at');
    assert.match(((await when.textContent()) ?? '').trim(), /^\(reviewed (just now|\d+ minutes? ago)\)$/);
    assert.match((await when.getAttribute('title')) ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
    assert.match(
      await text(frame, '.banner.changed'),
      /If you trusted it before the change, that trust covered only the earlier version and no longer applies\./,
    );
    assert.doesNotMatch(await text(frame, '.banner.changed'), /if at all/);
    // Enabled, but not active until re-trusted: no green pill in the header or on the server.
    assert.equal(await frame.locator('.pill.on').count(), 0);
    assert.equal(await text(frame, '.state .pill.muted'), 'enabled, but not active');
    assert.equal(
      await text(frame, '#capabilities .card-title .pill.muted'),
      'not started: the bundle changed since your review',
    );
    await clearNotifications();
    await page.screenshot({ path: path.join(RESULTS, 'review-after-light.png') });
  });

  it('follows the dark and high-contrast themes', async () => {
    for (const [theme, bodyClass, shot] of [
      ['Dark Modern', 'vscode-dark', 'review-after-dark.png'],
      ['Dark High Contrast', 'vscode-high-contrast', 'review-after-hc.png'],
      ['Light Modern', 'vscode-light', undefined],
    ] as const) {
      // As a user switches: the theme picker.
      await page.keyboard.press('Control+K');
      await page.keyboard.press('Control+T');
      await page.locator('.quick-input-widget .quick-input-box input').fill(theme);
      await page
        .locator('.quick-input-list .monaco-list-row', { hasText: new RegExp(`^${theme}`) })
        .first()
        .waitFor();
      await page.keyboard.press('Enter');
      await until('repo-tools', theme, async (f) =>
        (await f.evaluate<string>('document.body.className')).split(/\s+/).includes(bodyClass),
      );
      await page.waitForTimeout(500);
      if (shot) await page.screenshot({ path: path.join(RESULTS, shot) });
    }
  });

  it('offers "Enable again" after re-trusting a bundle that was enabled before the change, and enables it in one step', async () => {
    let frame = await reviewFrame(page, 'repo-tools');
    assert.match(await trustPill(frame), /^trust: (content|capabilities)-changed$/);
    await frame.locator('button', { hasText: 'Trust…' }).click();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 10000 });
    await dialog.locator('.monaco-button', { hasText: /^Trust$/ }).click();
    const toast = page.locator('.notifications-toasts .notification-toast', {
      hasText: 'It was enabled before this change',
    });
    await toast.waitFor({ timeout: 15000 });
    assert.match(
      (await toast.textContent()) ?? '',
      /Trusted repo-tools\. It was enabled before this change; trusting turned it off, as every re-review does\. Enable it again\?/,
    );
    await toast.locator('.monaco-button', { hasText: 'Enable again' }).click();
    frame = await until(
      'repo-tools',
      'enabled again',
      async (f) => (await trustPill(f)) === 'trust: trusted' && (await text(f, '.state .pill.on')) === 'enabled',
    );
    assert.match(await text(frame, '#capabilities .card-title'), /configured on/);
  });
});
