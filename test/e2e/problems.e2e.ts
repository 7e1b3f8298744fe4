import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { PROJECT_ROOT } from '../support/codeServer';
import { VSIX as DEFAULT_VSIX, startDemoWorkbench, type DemoWorkbench } from '../support/demoWorkbench';
import { skillgateActivity, treeView } from '../support/treeView';
import { acceptRow, runCommand } from '../support/webviewFrame';

const VSIX = process.env.SKILLGATE_E2E_VSIX ?? DEFAULT_VSIX;
/** `SKILLGATE_E2E_SHOTS=before|after` also saves the documentation screenshots to docs/images/. */
const SHOTS = process.env.SKILLGATE_E2E_SHOTS;

const WEATHER = `schema_version = 1

[plugin]
name = "weather"
version = "1.0.0"
description = "Forecasts from the weather service."

[capabilities]
network_hosts = ["old.weather.example"]

[mcp_servers.forecast]
url = "https://api.weather.example/mcp"
`;

const LINKED = 'schema_version = 1\n[plugin]\nname = "linked"\nversion = "1.0.0"\n';

/** 2,000 OS selectors Codewhale does not know, each repeated: 4,000 problems in one file. */
const MANY_OS = `schema_version = 1\n[plugin]\nname = "many-os"\nversion = "1.0.0"\n[when]\nos = [${Array(2000).fill('"x"').join(', ')}]\n`;

/**
 * Issue 14 items 5-8 as a user meets them (packaged VSIX, code-server + Chromium, no
 * network): a rejected bundle's tooltip, a network_hosts mismatch that names its hosts,
 * its quick fix, and the demo's `$schema` URLs served offline.
 */
describe('Problems, quick fixes, tooltips and schemas in the workbench (packaged VSIX)', function () {
  this.timeout(180000);
  let wb: DemoWorkbench;
  let page: Page;
  let demo: string;
  /** The profile's user settings, where Serve Agent Plugins Schemas Offline writes its entries. */
  let userSettings: string;

  before(async () => {
    wb = await startDemoWorkbench({
      name: 'problems',
      vsix: VSIX,
      // VS Code for the Web (code-server) saves a file a second after each edit by default; the
      // desktop does not. The quick fix test types a line that must stay unsaved until it is
      // reverted: saved by then (a loaded machine, a slow menu), the revert found the typed line on disk.
      settings: { 'files.autoSave': 'off' },
      prepare: (copy: string, _stateDir: string, root: string) => {
        userSettings = path.join(root, 'data', 'User', 'settings.json');
        fs.mkdirSync(path.join(copy, '.codewhale/plugins/weather'), { recursive: true });
        fs.writeFileSync(path.join(copy, '.codewhale/plugins/weather/plugin.toml'), WEATHER);
        // A bundle with a link to a file outside it, where Codewhale's diagnostic sits.
        const linked = path.join(copy, '.codewhale/plugins/linked');
        fs.mkdirSync(linked);
        fs.writeFileSync(path.join(linked, 'plugin.toml'), LINKED);
        fs.mkdirSync(path.join(copy, '.codewhale/plugins/many-os'));
        fs.writeFileSync(path.join(copy, '.codewhale/plugins/many-os/plugin.toml'), MANY_OS);
        fs.writeFileSync(path.join(root, 'secret.txt'), 'text behind the link\n');
        fs.symlinkSync(path.join(root, 'secret.txt'), path.join(linked, 'notes.md'));
      },
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

  const shot = async (name: string) => {
    if (SHOTS) await page.screenshot({ path: path.join(PROJECT_ROOT, 'docs/images', `${name}-${SHOTS}.png`) });
  };
  const { row: treeRow } = treeView(() => page);
  const problemRow = (text: string) => page.locator('.markers-panel .monaco-list-row', { hasText: text });
  /** Opens the Problems panel (the shortcut toggles it) and shows only the markers that mention `filter`. */
  const showProblems = async (filter: string) => {
    if (!(await page.locator('.markers-panel').first().isVisible())) await page.keyboard.press('Control+Shift+M');
    const input = page.locator('.viewpane-filter input, .markers-panel-action-filter input').first();
    await input.waitFor({ timeout: 10000 });
    await input.fill(filter);
  };
  const hover = () => page.locator('.monaco-hover:visible, .workbench-hover:visible').last();
  /** Waits until `file` on disk holds `text`; past `ms`, fails with `failure` of what it holds. */
  const untilFileHolds = async (file: string, text: string, ms: number, failure: (held: string) => string) => {
    const deadline = Date.now() + ms;
    for (let held = fs.readFileSync(file, 'utf8'); !held.includes(text); held = fs.readFileSync(file, 'utf8')) {
      if (Date.now() > deadline) throw new Error(failure(held));
      await page.waitForTimeout(200);
    }
  };

  it("shows a rejected bundle's diagnostics in its tooltip, with a Show in Problems link that opens the panel", async () => {
    await skillgateActivity(page).click();
    const row = treeRow('broken-upload').first();
    await row.waitFor({ timeout: 60000 });
    // The tooltip closed before it was read once, the pointer still on the row: it leaves and comes back, up to three times.
    let text = '';
    for (let attempt = 1; !text; attempt++) {
      await page.mouse.move(900, 120);
      await row.hover();
      text = await hover()
        .waitFor({ timeout: 15000 })
        .then(() => page.waitForTimeout(1500))
        .then(() => shot('tooltip'))
        .then(() => hover().textContent({ timeout: 3000 }))
        .then((t) => t ?? '')
        .catch((e: unknown) => {
          if (attempt >= 3) throw e;
          return '';
        });
    }
    assert.match(text, /MCP server `upload` URL may not contain a query or fragment \(plugin\.toml:12\)/);
    assert.match(text, /\.codewhale\/plugins\/broken-upload/);
    assert.doesNotMatch(
      text,
      new RegExp(demo.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
      'the path is workspace-relative',
    );
    await hover().locator('a', { hasText: 'Show in Problems' }).click();
    await problemRow('URL may not contain a query').first().waitFor({ timeout: 15000 });
  });

  it('names the missing and the extra host of a network_hosts mismatch in the Problems panel', async () => {
    await page.keyboard.press('Escape');
    await page.mouse.move(900, 120);
    await showProblems('network_hosts');
    await problemRow('capabilities.network_hosts must exactly match').first().waitFor({ timeout: 30000 });
    await page.waitForTimeout(500);
    await shot('problems');
    await problemRow('Missing host `api.weather.example`').first().waitFor({ timeout: 10000 });
    await problemRow('Extra host `old.weather.example`').first().waitFor({ timeout: 10000 });
  });

  it("applies the network_hosts quick fix from the light bulb menu, which also offers the documentation and the bundle's review", async () => {
    await problemRow('capabilities.network_hosts must exactly match').first().click();
    const hosts = page.locator('.monaco-editor .view-line', { hasText: 'old.weather.example' }).first();
    await hosts.waitFor({ timeout: 15000 });
    // The editor's light bulb menu: Ctrl+. with the cursor on the marker asks the providers
    // afresh each time it opens. (The Problems panel's Ctrl+. runs the marker's fixes from a
    // context menu after reopening the editor; that path failed now and then in CI with the
    // fix listed and clicked but never applied, and could not be reproduced here.)
    const entry = (text: string) => page.locator('.action-widget .monaco-list-row', { hasText: text }).first();
    const docs = entry('Show the documentation for codewhale.capabilities.network-hosts-mismatch');
    const openMenu = async () => {
      const menuDeadline = Date.now() + 20000;
      for (;;) {
        await hosts.locator('span', { hasText: 'old.weather.example' }).last().click();
        await page.keyboard.press('Control+.');
        // The actions are computed asynchronously: ask again until the menu lists them.
        if (
          await docs.waitFor({ timeout: 3000 }).then(
            () => true,
            () => false,
          )
        )
          return;
        if (Date.now() > menuDeadline) throw new Error('no quick fix menu for the mismatch');
        await page.keyboard.press('Escape');
      }
    };
    const fix = entry('Set network_hosts to ["api.weather.example"]');
    // Typed on the line and not saved: the fix's range names the line as it is on disk, so
    // the menu offers the review and the documentation but no fix until the file is saved.
    await hosts.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' # typed, not saved');
    await openMenu();
    await entry('Review weather in Skillgate').waitFor({ timeout: 5000 });
    assert.equal(await fix.count(), 0, 'no fix offered while the line differs from the disk');
    await page.keyboard.press('Escape');
    const dirtyTab = page.locator('.tabs-container .tab.active.dirty', { hasText: 'plugin.toml' });
    await dirtyTab.waitFor({ timeout: 10000 });
    await runCommand(page, 'File: Revert File');
    await dirtyTab.waitFor({ state: 'detached', timeout: 10000 });
    await page
      .locator('.monaco-editor .view-line', { hasText: 'typed, not' })
      .waitFor({ state: 'detached', timeout: 10000 });
    await openMenu();
    // The diagnostic's bundle, found by the diagnostic's place and the bundle's id.
    await entry('Review weather in Skillgate').waitFor({ timeout: 5000 });
    // The menu opens with the preferred fix focused ("Enter to Apply"); until the mouse
    // moves, VS Code's pointer block lies over it, so the fix is taken with the keyboard.
    await fix.and(page.locator('.focused')).waitFor({ timeout: 5000 });
    await page.keyboard.press('Enter');
    await page
      .locator('.monaco-editor .view-line', { hasText: 'api.weather.example"]' })
      .first()
      .waitFor({ timeout: 10000 });
    await page.locator('.monaco-editor .view-line', { hasText: '[plugin]' }).first().click();
    await page.keyboard.press('Control+S');
    const file = path.join(demo, '.codewhale/plugins/weather/plugin.toml');
    await untilFileHolds(file, 'network_hosts = ["api.weather.example"]', 15000, (text) => `not fixed: ${text}`);
    await problemRow('capabilities.network_hosts must exactly match')
      .first()
      .waitFor({ state: 'detached', timeout: 20000 });
  });

  it("opens a symbolic link's diagnostic from the panel as Skillgate's note, never as the text of the link's target", async () => {
    await showProblems('symbolic link');
    const marker = problemRow('component trees may not contain symbolic link notes.md').first();
    await marker.waitFor({ timeout: 30000 });
    await problemRow('notes.md (symbolic link)').first().waitFor({ timeout: 10000 });
    // On its message: the row's middle can be the code's link, which opens the documentation.
    await marker.click({ position: { x: 80, y: 10 } });
    await page.locator('.part.editor .tab.active', { hasText: 'notes.md (symbolic link)' }).waitFor({ timeout: 15000 });
    const text = page.locator('.part.editor .monaco-editor .view-lines').first();
    await text.filter({ hasText: /it\sis\sa\ssymbolic\slink/ }).waitFor({ timeout: 10000 });
    await shot('problems-link');
    assert.doesNotMatch((await text.textContent()) ?? '', /text\sbehind\sthe\slink/);
  });

  it("lists a file's first 100 problems and one that counts the rest, as severe as they are", async () => {
    await showProblems('not listed');
    const summary = problemRow('3,900 more problems in this file not listed').first();
    await summary.waitFor({ timeout: 30000 });
    await page.waitForTimeout(500);
    await shot('problems-cap');
    assert.match((await summary.textContent()) ?? '', /the first of the most severe: duplicate OS value `x`/);
    assert.equal(await summary.locator('.codicon-error').count(), 1, 'an error, as the problems it counts');
    // The file's entry counts what the panel holds for it: its 100 and the one that counts the rest.
    await showProblems('OS');
    await page
      .locator('.markers-panel .monaco-list-row', { hasText: 'plugin.toml' })
      .filter({ hasText: '101' })
      .first()
      .waitFor({ timeout: 15000 });
  });

  /** Opens the light bulb's menu on broken-upload's URL, with its "Remove the query and fragment" fix focused. */
  async function openUrlFixMenu(): Promise<void> {
    await showProblems('query or fragment');
    const marker = problemRow('URL may not contain a query or fragment').first();
    await marker.waitFor({ timeout: 30000 });
    await marker.click({ position: { x: 80, y: 10 } });
    const urlLine = page.locator('.monaco-editor .view-line', { hasText: 'token=' }).first();
    await urlLine.waitFor({ timeout: 15000 });
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'Remove the query and fragment' }).first();
    const menuDeadline = Date.now() + 20000;
    for (;;) {
      await urlLine.locator('span', { hasText: 'https' }).last().click();
      await page.keyboard.press('Control+.');
      if (
        await fix
          .and(page.locator('.focused'))
          .waitFor({ timeout: 3000 })
          .then(
            () => true,
            () => false,
          )
      )
        break;
      if (Date.now() > menuDeadline) throw new Error('no quick fix menu for the URL');
      await page.keyboard.press('Escape');
    }
  }

  it('applies no quick fix to a file that became a symbolic link after the menu opened, and moves its problems to the note', async () => {
    await openUrlFixMenu();
    // Between the menu and the pick, the file becomes a link to a file outside the bundle with
    // the very same text: the editor's text still matches the fix's, and VS Code would write
    // the edit to the link's target.
    const file = path.join(demo, '.codewhale/plugins/broken-upload/plugin.toml');
    const text = fs.readFileSync(file, 'utf8');
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-e2e-outside-'));
    const target = path.join(outside, 'plugin.toml');
    fs.writeFileSync(target, text);
    fs.rmSync(file);
    fs.symlinkSync(target, file);
    try {
      await page.keyboard.press('Enter');
      await page
        .locator('.notifications-toasts .notification-toast', {
          hasText: 'Not applied: Remove the query and fragment from the URL.',
        })
        .first()
        .waitFor({ timeout: 15000 });
      await showProblems('symbolic link');
      await problemRow('plugin.toml must be a regular file, not a symbolic link').first().waitFor({ timeout: 30000 });
      await problemRow('plugin.toml (symbolic link)').first().waitFor({ timeout: 10000 });
      await page.waitForTimeout(500);
      await shot('problems-link-fix');
      assert.equal(fs.readFileSync(target, 'utf8'), text, "the link's target is as it was");
    } finally {
      fs.rmSync(file);
      fs.writeFileSync(file, text);
      fs.rmSync(outside, { recursive: true, force: true });
      await runCommand(page, 'Notifications: Clear All Notifications');
    }
  });

  it('applies no quick fix through a bundle directory that became a link out of the folder after the menu opened', async () => {
    await openUrlFixMenu();
    // Between the menu and the pick, a checkout swaps the bundle's directory for a link to a
    // copy outside the workspace folder: plugin.toml is still a regular file with the very same
    // text, and VS Code would write the edit to the copy.
    const bundle = path.join(demo, '.codewhale/plugins/broken-upload');
    const text = fs.readFileSync(path.join(bundle, 'plugin.toml'), 'utf8');
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-e2e-outside-'));
    const copy = path.join(outside, 'broken-upload');
    fs.renameSync(bundle, copy);
    fs.symlinkSync(copy, bundle);
    try {
      await page.keyboard.press('Enter');
      const toast = page
        .locator('.notifications-toasts .notification-toast', {
          hasText:
            '.codewhale/plugins/broken-upload/plugin.toml is reached through a symbolic link out of its workspace folder',
        })
        .first();
      await toast.waitFor({ timeout: 15000 });
      if (SHOTS) {
        // Expanded, the notification shows the whole reason its one collapsed line cuts.
        await toast.hover();
        await toast
          .locator('.codicon-notifications-expand')
          .click({ timeout: 3000 })
          .catch(() => undefined);
        await page.waitForTimeout(700);
      }
      await shot('problems-dir-link-toast');
      // The agent's own verdict on the swapped bundle reaches the panel with the next index.
      await showProblems('reparse point');
      await problemRow('Plugin bundle directory may not be a symbolic link or reparse point')
        .first()
        .waitFor({ timeout: 30000 });
      await page.waitForTimeout(500);
      await shot('problems-dir-link-fix');
      assert.equal(fs.readFileSync(path.join(copy, 'plugin.toml'), 'utf8'), text, 'the outside copy is as it was');
    } finally {
      fs.rmSync(bundle);
      fs.renameSync(copy, bundle);
      fs.rmSync(outside, { recursive: true, force: true });
      await runCommand(page, 'Notifications: Clear All Notifications');
    }
  });

  for (const [file, key, described] of [
    ['plugin.json', '"name"', 'The plugin name: 1-64 lowercase ASCII letters'],
    ['mcp.json', '"mcpServers"', 'Server id → server'],
  ] as const) {
    it(`serves the demo's ${file} $schema URL offline: its hover describes the field, and no "Unable to load schema" warning`, async () => {
      if (file === 'plugin.json') {
        await runCommand(page, 'Skillgate: Serve Agent Plugins Schemas Offline');
        // The palette returns before the command has written the setting. Opened sooner, the
        // file would start the JSON language server without it, and the server would ask the
        // network for the URL: a run on a loaded machine saw no hover for 60 s.
        await untilFileHolds(
          userSettings,
          'agent-plugins.org/schemas/plugin.json',
          30000,
          () => `the command wrote no json.schemas entry to ${userSettings}`,
        );
      }
      await page.keyboard.press('Control+P');
      await page.locator('.quick-input-widget .quick-input-box input').fill(`repo-tools/${file}`);
      await acceptRow(page, file);
      const token = page.locator('.monaco-editor .view-line span', { hasText: key }).first();
      await token.waitFor({ timeout: 15000 });
      // The JSON language server starts with the first JSON file opened: slow on a loaded machine.
      const deadline = Date.now() + 60000;
      for (;;) {
        await page.mouse.move(0, 0);
        await token.hover();
        const shown = await hover()
          .textContent({ timeout: 3000 })
          .catch(() => '');
        if (shown?.includes(described)) break;
        if (Date.now() > deadline) throw new Error(`no schema hover for ${key} in ${file}: ${shown ?? ''}`);
      }
      await page.keyboard.press('Escape');
      await showProblems('schema');
      await page.waitForTimeout(1000);
      assert.equal(await problemRow('Unable to load schema').count(), 0);
      assert.equal(await problemRow('agent-plugins.org').count(), 0);
    });
  }
});
