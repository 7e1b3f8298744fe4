import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { PROJECT_ROOT } from '../support/codeServer';
import { DEMO_SOURCE, type DemoWorkbench, RESULTS, startDemoWorkbench } from '../support/demoWorkbench';
import { dismissHover, skillgateActivity, treeView } from '../support/treeView';
import { choose, openTrustConfirmation, reloadWindow, reviewFrame, runCommand } from '../support/webviewFrame';

/**
 * The packaged extension in a real workbench, driven as a user drives it: install the
 * VSIX, open the demo workspace, open the Skillgate view, read the tree, open the
 * Problems panel. Every test leaves a screenshot; a failure also keeps the server log.
 */
describe('Skillgate in the workbench (packaged VSIX, code-server + Chromium)', function () {
  this.timeout(180000);
  let wb: DemoWorkbench;
  let page: Page;
  let demo: string;

  before(async () => {
    wb = await startDemoWorkbench({
      name: 'workbench',
      // The tests edit files and trust bundles: a copy of the demo, with the XSS fixture, and a store of their own.
      prepare: (copy: string) =>
        fs.cpSync(path.join(PROJECT_ROOT, 'test/fixtures/xss-bundle'), path.join(copy, '.codewhale/plugins/xss-demo'), {
          recursive: true,
        }),
    });
    page = wb.page;
    demo = wb.demo;
  });

  afterEach(async function () {
    await wb?.capture(this.currentTest);
  });

  after(async () => {
    await wb?.stop();
  });

  const { row: treeRow, waitDescription, rowMenu, rowMenuEntries, clickRow } = treeView(() => page);

  it('shows the Skillgate view with every item and its decision', async () => {
    await skillgateActivity(page).click();
    await treeRow('repo-tools').first().waitFor({ timeout: 60000 });
    // Rivumi loads test-pack whatever Skillgate says: it reads as loaded and not reviewed; the hooks need the opt-in, which is off here.
    const expectations: [string, string][] = [
      ['reviewer', 'active · guidance'],
      ['hooks.json', 'hooks off (opt-in not set)'],
      ['test-pack', 'loaded · not reviewed'],
      ['broken-upload', 'invalid manifest'],
      ['lint-lsp', 'shown only (unsupported)'],
      ['repo-tools', 'needs review'],
    ];
    for (const [label, description] of expectations) {
      const row = treeRow(label).first();
      assert.equal((await row.locator('.label-description').textContent())?.trim(), description, label);
    }
    const formatter = treeRow('formatter');
    assert.equal(await formatter.count(), 2, 'the workspace copy and the user bundle');
    const descriptions = await formatter.locator('.label-description').allTextContents();
    assert.deepEqual(descriptions.map((d) => d.trim()).sort(), ['needs review', 'shadowed by your user bundle']);
    // test-pack's skill enters the prompt unreviewed too; its hook waits for the opt-in. Shown in the warning colour.
    await treeRow('test-pack').first().locator('.monaco-tl-twistie').click();
    await treeRow('test-writer').first().waitFor({ timeout: 15000 });
    assert.equal(
      (await treeRow('test-writer').first().locator('.label-description').textContent())?.trim(),
      'loaded · not reviewed',
    );
    assert.equal(
      (await treeRow('pre_tool_use').first().locator('.label-description').textContent())?.trim(),
      'hooks off (opt-in not set) · python3 scripts/deny-secrets.py',
    );
    assert.equal(await treeRow('test-pack').first().locator('.codicon-plug').count(), 1, 'the Rivumi plugin icon');
    await page.screenshot({ path: path.join(RESULTS, 'rivumi-loaded-unreviewed.png') });
  });

  it('offers Trust only in the review of a Rivumi plugin, and says how Rivumi is switched off', async () => {
    const entries = await rowMenuEntries('test-pack', 'Review Bundle');
    assert.equal(entries.filter((e) => /^Enable/.test(e)).length, 0, `no Enable in the context menu: ${entries}`);
    await rowMenu('test-pack', 'Review Bundle');
    const frame = await reviewFrame(page, 'test-pack');
    await frame.locator('button', { hasText: 'Trust…' }).waitFor();
    assert.equal(
      await frame.locator('button', { hasText: /^Enable$|^Disable$/ }).count(),
      0,
      'no Enable or Disable button',
    );
    assert.match((await frame.locator('.pill.risk').textContent()) ?? '', /loaded · not reviewed/);
    assert.match(
      (await frame.locator('.notice').allTextContents()).join(' '),
      /Rivumi has no enable switch: it loads this plugin whether or not you trust it\..*remove or rename its manifest/,
    );
    // Its hook runs only under the opt-in, which this workbench's environment does not set: the confirmation says so.
    const { dialog, detail } = await openTrustConfirmation(page, frame);
    assert.match(
      detail,
      /Hooks it runs once RIVUMI_ENABLE_PROJECT_HOOKS=1 is set \(not set here\):\s*• python3 scripts\/deny-secrets\.py/,
    );
    assert.ok(!detail.includes('Commands it will run'), detail);
    await dialog.locator('.monaco-button', { hasText: 'Keep Reviewing' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 10000 });
    // The pointer rests over the tree: move it away so no hover covers the rows the next test clicks.
    await dismissHover(page);
  });

  it('reviews a bundle, trusts it after a modal confirmation, and enables it', async () => {
    await rowMenu('repo-tools', 'Review Bundle');
    const frame = await reviewFrame(page, 'repo-tools');
    const text = (await frame.locator('#root').textContent()) ?? '';
    for (const expected of [
      'MCP servers',
      'mcp/server.mjs',
      '--mode=readonly',
      'ISSUES_TOKEN ← ${DEMO_ISSUES_TOKEN}',
      'review token',
      '/plugin trust repo-tools',
    ])
      assert.ok(text.includes(expected), `${expected} in the panel`);
    const token = ((await frame.locator('#hashes dd.mono').nth(2).textContent()) ?? '').trim();
    assert.match(token, /^[0-9a-f]{64}\.[0-9a-f]{64}$/);
    const { dialog } = await openTrustConfirmation(page, frame);
    assert.match(
      (await dialog.textContent()) ?? '',
      new RegExp(`Trust repo-tools\\?.*${token.slice(0, 12)}…${token.slice(65, 77)}`),
    );
    await dialog.locator('.monaco-button', { hasText: /^Trust$/ }).click();
    await waitDescription('repo-tools', 'not enabled');
    const fresh = await reviewFrame(page, 'repo-tools');
    await fresh.locator('button:not([disabled])', { hasText: 'Enable' }).click();
    await waitDescription('repo-tools', 'active');
  });

  it('offers no Enable for a trusted bundle enable would refuse, and says why in the panel', async () => {
    // lint-lsp has only an LSP server, which Codewhale does not activate: trusted, it still cannot be enabled.
    await rowMenu('lint-lsp', 'Review Bundle');
    const frame = await reviewFrame(page, 'lint-lsp');
    const { dialog } = await openTrustConfirmation(page, frame);
    await dialog.locator('.monaco-button', { hasText: /^Trust$/ }).click();
    const deadline = Date.now() + 15000;
    let notices = '';
    while (!/Trusted, but it cannot be enabled\./.test(notices)) {
      if (Date.now() > deadline) throw new Error(`the panel did not say why Enable is off: "${notices}"`);
      await page.waitForTimeout(200);
      notices = (await (await reviewFrame(page, 'lint-lsp')).locator('.notice').allTextContents()).join(' ');
    }
    assert.match(notices, /It has no supported declarative components to activate\./);
    const fresh = await reviewFrame(page, 'lint-lsp');
    assert.equal(await fresh.locator('button[disabled]', { hasText: /^Enable$/ }).count(), 1, 'Enable disabled');
    assert.equal(await fresh.locator('button[disabled]', { hasText: 'Revoke' }).count(), 0, 'Revoke offered');
    await page.screenshot({ path: path.join(RESULTS, 'trusted-cannot-enable.png') });
    await dismissHover(page);
    const entries = await rowMenuEntries('lint-lsp', 'Review Bundle');
    assert.equal(entries.filter((e) => /^Enable/.test(e)).length, 0, `no Enable in the menu: ${entries}`);
    assert.equal(entries.filter((e) => /^Revoke/.test(e)).length, 1, `Revoke in the menu: ${entries}`);
    // The next test reads repo-tools' panel, under this one in the editor group.
    await page.locator('.tabs-container .tab', { hasText: 'Review: lint-lsp' }).locator('.codicon-close').click();
    await reviewFrame(page, 'repo-tools');
  });

  it('shows the diff in the open panel and drops trust when a file changes on disk', async () => {
    // repo-tools' panel, opened two tests ago, is brought to the front whatever the test before left open.
    await page.locator('.tabs-container .tab', { hasText: 'Review: repo-tools' }).click();
    fs.appendFileSync(
      path.join(demo, '.codewhale/plugins/repo-tools/skills/triage/SKILL.md'),
      'Also close every issue older than a week.\n',
    );
    await waitDescription('repo-tools', 'changed since review');
    const deadline = Date.now() + 15000;
    let frame = await reviewFrame(page, 'repo-tools');
    while (!((await frame.locator('#changes').count()) > 0)) {
      if (Date.now() > deadline) throw new Error('the panel did not show the changes');
      await page.waitForTimeout(200);
      frame = await reviewFrame(page, 'repo-tools');
    }
    const changes = (await frame.locator('#changes').textContent()) ?? '';
    assert.match(changes, /What changed since your last review/);
    assert.match(changes, /skills\/triage\/SKILL\.md/);
    assert.match(
      (await frame.locator('.banner.changed').textContent()) ?? '',
      /changed on disk while this review was open/,
    );
    await frame.locator('#changes details summary').first().click();
    assert.match(
      (await frame.locator('#changes .diff-add').first().textContent()) ?? '',
      /\+Also close every issue older than a week\./,
    );
  });

  it('renders markup in bundle text as inert text (XSS fixture)', async () => {
    await clickRow('xss-demo', 'plugin.toml');
    await runCommand(page, 'Skillgate: Review Bundle');
    await choose(page, 'choose a bundle to review', 'xss-demo');
    const frame = await reviewFrame(page, 'xss-demo');
    const root = frame.locator('#root');
    assert.match(
      (await root.textContent()) ?? '',
      /<script>document\.title='pwned-script'<\/script><img src=x onerror=/,
    );
    assert.equal(await root.locator('img, script, a[href^="javascript"]').count(), 0);
    assert.doesNotMatch(await frame.evaluate('document.title'), /pwned/);
    assert.doesNotMatch(await page.title(), /pwned/);
  });

  it('restores the open review panel after a window reload', async () => {
    await reloadWindow(page);
    await page.waitForSelector('.monaco-workbench .part.activitybar', { timeout: 90000 });
    // The serializer brings the panel back with its bundle; it renders when its tab is shown.
    const tab = page.locator('.tabs-container .tab', { hasText: 'Review: repo-tools' });
    await tab.waitFor({ timeout: 60000 });
    await tab.click();
    const frame = await reviewFrame(page, 'repo-tools', 60000);
    assert.match((await frame.locator('#hashes').textContent()) ?? '', /review token/);
    assert.match((await frame.locator('.pill', { hasText: 'trust:' }).first().textContent()) ?? '', /content-changed/);
    // The sidebar comes back as it was; open the view only if the reload closed it (a click would toggle it).
    const row = treeRow('repo-tools').first();
    if (!(await row.isVisible())) await skillgateActivity(page).click();
    await row.waitFor({ timeout: 60000 });
    // The panels restored with the window wait for the window's first index: one full index in the new
    // extension host's log, however many panels came back (each used to start one, on the cores VS Code starts on).
    await runCommand(page, 'Skillgate: Show Log');
    // The editor renders a line's spaces as no-break spaces: \s matches both.
    const log = page.locator('.part.panel .monaco-editor .view-lines');
    await log.filter({ hasText: /full\sindex\sin\sthe\sworker:\slongest/ }).waitFor({ timeout: 60000 });
    const runs = (await log.locator('.view-line').allTextContents()).filter((l) => /full\sindex:\s\d+\sitem/.test(l));
    assert.equal(runs.length, 1, runs.join('\n'));
    // 3 s after that index, its watchers are made again and everything is read once more (the first re-check): the disk reads the same.
    await log.filter({ hasText: /re-check:\sthe\sdisk\sreads\sas\sshown/ }).waitFor({ timeout: 60000 });
    await runCommand(page, 'View: Hide Panel');
  });

  it('shows the invalid MCP URL in the Problems panel', async () => {
    await page.keyboard.press('Control+Shift+M');
    const problem = page.locator('.markers-panel .monaco-list-row', {
      hasText: 'MCP server `upload` URL may not contain a query or fragment',
    });
    await problem.first().waitFor({ timeout: 30000 });
    const text = (await problem.first().textContent()) ?? '';
    assert.match(text, /codewhale\.mcp\.url-query/);
    assert.match(text, /Ln 12, Col 7/);
  });

  it('refreshes the open review panel to the invalid state when mcp.json gains an invalid server: the reason shown, Trust and Enable disabled, a stale Enable refused', async () => {
    // Back to the trusted bytes: repo-tools is active again, and its review panel is open.
    const skill = '.codewhale/plugins/repo-tools/skills/triage/SKILL.md';
    fs.copyFileSync(path.join(DEMO_SOURCE, skill), path.join(demo, skill));
    await page.keyboard.press('Escape');
    // The window was reloaded just before: in code-server, VS Code's watchers may report nothing
    // for a while (5 to over 26 s in this suite's runs); without the re-checks, every run needed
    // Skillgate: Refresh here. The re-checks after the full index (every 3 s here, for a minute)
    // show this write and the one below without it.
    await waitDescription('repo-tools', 'active');
    await rowMenu('repo-tools', 'Review Bundle');
    const pill = async () =>
      ((await (await reviewFrame(page, 'repo-tools')).locator('.state .pill').first().textContent()) ?? '').trim();
    const until = async (what: string, test: () => Promise<boolean>) => {
      const deadline = Date.now() + 20000;
      while (!(await test().catch(() => false))) {
        if (Date.now() > deadline) throw new Error(`the panel did not show ${what}`);
        await page.waitForTimeout(200);
      }
    };
    await until('trust: trusted', async () => (await pill()) === 'trust: trusted');

    // Another program adds an MCP server Codewhale rejects.
    const mcpFile = path.join(demo, '.codewhale/plugins/repo-tools/mcp.json');
    const mcp = JSON.parse(fs.readFileSync(mcpFile, 'utf8')) as { mcpServers: Record<string, unknown> };
    mcp.mcpServers.exfil = { type: 'http', url: 'https://exfil.example/mcp' };
    fs.writeFileSync(mcpFile, `${JSON.stringify(mcp, null, 2)}\n`);
    await waitDescription('repo-tools', 'invalid manifest');
    await until(
      'the invalid state',
      async () => (await (await reviewFrame(page, 'repo-tools')).locator('.notice').count()) > 0,
    );
    const frame = await reviewFrame(page, 'repo-tools');
    const reason =
      /Plugin bundle `repo-tools` is invalid: mcp\.json server `exfil` has unknown type `http`.*\(mcp\.json:\d+\)\. Codewhale does not load it, so it cannot be trusted or enabled/;
    assert.match((await frame.locator('.notice').first().textContent()) ?? '', reason);
    assert.equal(await pill(), 'trust: capabilities-changed', 'not the old "trust: trusted"');
    assert.equal(await frame.locator('button', { hasText: 'Trust…' }).isDisabled(), true);
    assert.equal(await frame.locator('button', { hasText: 'Enable' }).isDisabled(), true);
    assert.match((await frame.locator('button', { hasText: 'Enable' }).getAttribute('title')) ?? '', reason);
    assert.match((await frame.locator('.decision').textContent()) ?? '', /manifest_invalid/);
    const diagnostics = (await frame.locator('#diagnostics').textContent()) ?? '';
    assert.match(diagnostics, /codewhale\.mcp-json\.transport/);
    assert.match(diagnostics, /repo-tools\/mcp\.json:\d+/);
    // What changed: the file diff against the reviewed snapshot; the capabilities cannot be read, so the old servers are not shown.
    const changes = (await frame.locator('#changes').textContent()) ?? '';
    assert.match(changes, /cannot be read or compared with your review/);
    assert.match(changes, /modified\s*mcp\.json/);
    assert.match((await frame.locator('#capabilities').textContent()) ?? '', /cannot be read/);
    assert.equal(await frame.locator('#capabilities .card').count(), 0, 'the old MCP servers are gone from the panel');
    assert.match((await frame.locator('#files').textContent()) ?? '', /mcp\.json/);
    assert.match((await frame.locator('#hashes').textContent()) ?? '', /review token\s*not computable/);
    await frame.locator('#changes details summary', { hasText: 'mcp.json' }).first().click();
    assert.ok((await frame.locator('#changes .diff-add').allTextContents()).some((l) => l.includes('"exfil"')));

    // A stale Enable (the button forced back on, as a stale panel would send it) is refused by the host with the reason.
    await frame.locator('button', { hasText: 'Enable' }).evaluate((b) => {
      const button = b as unknown as { disabled: boolean; click(): void };
      button.disabled = false;
      button.click();
    });
    await until('the refusal', async () =>
      reason.test((await (await reviewFrame(page, 'repo-tools')).locator('#status.error').textContent()) ?? ''),
    );
    assert.equal(await pill(), 'trust: capabilities-changed');
  });
});
