import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { RECHECK_MIN_INTERVAL_MS, RECHECK_WINDOW_MS } from '../../src/extension/flows/recheckSchedule';
import { type DemoWorkbench, startDemoWorkbench } from '../support/demoWorkbench';
import { treeView } from '../support/treeView';

/**
 * The re-check when the window regains focus (flows/recheckSchedule.ts, `focusDue`): a
 * bundle changed while the user was in another window, in a directory no watcher reports
 * (`files.watcherExclude`, standing in for inotify's watch limit), shows as soon as they
 * come back, not at the next steady re-check. The steady interval is an hour here, so
 * nothing but the focus can show it within the test; and so the suite also shows what a
 * watcher alone reports.
 */
describe('the re-check when the window regains focus (packaged VSIX, code-server + Chromium)', function () {
  this.timeout(RECHECK_WINDOW_MS + 180_000);
  let wb: DemoWorkbench;
  let page: Page;
  let plugins: string;

  before(async () => {
    wb = await startDemoWorkbench({
      name: 'focus',
      settings: {
        'files.watcherExclude': {
          '**/.codewhale/plugins/unwatched': true,
          '**/.codewhale/plugins/unwatched/**': true,
        },
        'skillgate.recheckIntervalSeconds': 3600,
      },
    });
    page = wb.page;
    plugins = path.join(wb.demo, '.codewhale/plugins');
  });

  afterEach(async function () {
    await wb?.capture(this.currentTest);
  });

  after(async () => {
    await wb?.stop();
  });

  const { open, row } = treeView(() => page);

  /** The browser window loses focus and gets it back, as when the user switches to a terminal and returns. */
  const leaveAndComeBack = async () => {
    // Chromium driven by Playwright reports every page focused; the workbench asks `document.hasFocus()` on each event.
    // Its focus tracker counts a blur only after a focus it saw: a page that never lost its focus has not sent one.
    await page.evaluate("window.dispatchEvent(new FocusEvent('focus'))");
    await page.evaluate(
      "Object.defineProperty(document, 'hasFocus', { value: () => false, configurable: true }); window.dispatchEvent(new FocusEvent('blur'))",
    );
    await page.waitForTimeout(500);
    await page.evaluate("delete document.hasFocus; window.dispatchEvent(new FocusEvent('focus'))");
  };

  /** Puts a copy of repo-tools, named unwatched-tools, into the directory no watcher reports: built beside the workspace, then moved in at once. */
  const addUnwatched = () => {
    const staging = path.join(path.dirname(wb.demo), 'unwatched-staging');
    fs.rmSync(staging, { recursive: true, force: true });
    fs.cpSync(path.join(plugins, 'repo-tools'), staging, { recursive: true });
    const manifest = path.join(staging, 'plugin.json');
    fs.writeFileSync(
      manifest,
      fs.readFileSync(manifest, 'utf8').replace('"name": "repo-tools"', '"name": "unwatched-tools"'),
    );
    fs.renameSync(staging, path.join(plugins, 'unwatched'));
  };
  /** Skillgate's log in the extension host's logs of the suite's profile (the Output panel's *Skillgate*). */
  const skillgateLog = () => {
    const logs = path.join(path.dirname(wb.demo), 'data', 'logs');
    return fs
      .readdirSync(logs, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith(path.join('skillgate.skillgate', 'Skillgate.log')))
      .map((f) => fs.readFileSync(path.join(logs, f), 'utf8'))
      .join('');
  };
  const removeUnwatched = () => fs.rmSync(path.join(plugins, 'unwatched'), { recursive: true, force: true });
  const unwatched = () => row('unwatched-tools');

  it('shows a bundle no watcher reported once the window has focus again', async () => {
    await open();
    await row('repo-tools').first().waitFor({ timeout: 60000 });
    // Past the full index's first minute, when re-checks come every few seconds by themselves.
    await page.waitForTimeout(RECHECK_WINDOW_MS + 3_000);
    // That minute's re-checks: the first at Info, the others at Debug (not shown by default), then one line for all.
    assert.match(skillgateLog(), /re-checks in the minute after the full index: \d+, the disk read as shown each time/);
    assert.equal(skillgateLog().match(/re-check: the disk reads as shown/g)?.length, 1);
    addUnwatched();

    // Neither a watcher nor a timer shows it while the window keeps its focus.
    await page.waitForTimeout(3_000);
    assert.equal(await unwatched().count(), 0, 'shown without the focus: this test tests nothing');

    await leaveAndComeBack();
    await unwatched().first().waitFor({ timeout: 15_000 });
    assert.equal((await unwatched().first().locator('.label-description').textContent())?.trim(), 'needs review');
    assert.match(skillgateLog(), /\[warning\] re-check on window focus: .*no file watcher had reported/);
  });

  it('re-checks on focus no sooner than the spacing after the last re-check allows', async () => {
    // Past the spacing after the last test's re-check: this focus reads, and shows the bundle gone.
    await page.waitForTimeout(RECHECK_MIN_INTERVAL_MS + 500);
    removeUnwatched();
    await leaveAndComeBack();
    await unwatched().first().waitFor({ state: 'detached', timeout: 15_000 });
    // That re-check has just ended: a focus now reads nothing.
    addUnwatched();
    await leaveAndComeBack();
    await page.waitForTimeout(1_000);
    assert.equal(await unwatched().count(), 0, 'a focus right after a re-check read everything again');
    // The spacing for a re-read this cheap past, the next focus reads again.
    await page.waitForTimeout(RECHECK_MIN_INTERVAL_MS);
    await leaveAndComeBack();
    await unwatched().first().waitFor({ timeout: 15_000 });
  });

  it("shows at once an Eva adapter whose file's name holds a line break, which only a watcher reports here", async () => {
    // The adapters folder is a tree watched whole. VS Code reads a pattern of only `**` as `^.*$`, which
    // matches no line break (treeGlob.ts); with re-checks an hour apart and no focus, a watcher or nothing.
    const label = 'line-break-skill (skill review)';
    assert.equal(await row(label).count(), 0);
    const adapters = path.join(wb.demo, 'config/adapters');
    const manifest = fs.readFileSync(path.join(adapters, 'review-skill.yaml'), 'utf8');
    fs.writeFileSync(
      path.join(adapters, 'line\nbreak.yaml'),
      manifest.replace('id: review-skill', 'id: line-break-skill'),
    );
    await row(label).first().waitFor({ timeout: 15_000 });
  });
});
