import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { Indexer } from '../../src/core/index/indexer';
import { review } from '../../src/core/trust/reviewBundle';
import { TrustStore } from '../../src/core/trust/trustStore';
import { reviewViewModel } from '../../src/core/review/reviewViewModel';
import { PROJECT_ROOT } from '../support/codeServer';
import { launchBrowser } from '../support/workbench';

/** The review panel's script as `npm run package` built it into the VSIX's media/. */
const SCRIPT = path.join(PROJECT_ROOT, 'media', 'review.js');

/**
 * The review panel's script on a page of its own, in Chromium: the host's messages posted
 * to it as the webview receives them. The workbench suites drive it through VS Code; this
 * one reaches what a workspace cannot produce on demand there: a bundle that cannot be read
 * at all when its review opens (removed between the tree's last refresh and the click, or
 * a `skillgate.internal` fault). The panel used to say "Loading the review…" forever then.
 */
describe('the review panel script on its own page (Chromium)', function () {
  this.timeout(60000);
  let browser: Browser;
  let page: Page;
  let temp: string;

  before(async () => {
    browser = await launchBrowser();
    temp = fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-review-script-'));
  });
  after(async () => {
    await browser?.close();
    fs.rmSync(temp, { recursive: true, force: true });
  });

  beforeEach(async () => {
    page = await browser.newPage();
    // The panel's own first content (reviewPanel.ts), and VS Code's webview API as a recorder.
    await page.setContent('<main id="root" aria-live="polite"><p>Loading the review…</p></main>');
    // A string, not a function: the test's compiler would add helpers the page does not have.
    await page.evaluate(
      'window.posted = []; window.acquireVsCodeApi = () => ({ postMessage: (m) => window.posted.push(m), setState() {}, getState() {} })',
    );
    await page.addScriptTag({ path: SCRIPT });
  });
  afterEach(async () => {
    await page?.close();
  });

  const post = (message: unknown) => page.evaluate(`window.postMessage(${JSON.stringify(message)}, '*')`);
  const rootText = async () => ((await page.locator('#root').textContent()) ?? '').replace(/\s+/g, ' ').trim();

  /** A real review's view model: the demo workspace's `repo-tools`, indexed and reviewed by the core. */
  const demoModel = () => {
    const ws = path.join(temp, 'demo');
    fs.cpSync(path.join(PROJECT_ROOT, 'examples', 'demo-workspace'), ws, { recursive: true });
    const snapshot = new Indexer({ workspaces: [ws], codewhaleHome: null, evaHome: null }).indexAll();
    const item = snapshot.items.find((i) => i.name === 'repo-tools');
    assert.ok(item);
    const r = review(item, { store: new TrustStore(path.join(temp, 'state')) });
    assert.ok(r.ok);
    return JSON.parse(JSON.stringify(reviewViewModel(r.value, snapshot, false))) as unknown;
  };

  it('asks for its review once loaded', async () => {
    assert.deepEqual(await page.evaluate('window.posted'), [{ type: 'ready' }]);
  });

  it('shows a status that comes before any review in place of "Loading the review…", as text', async () => {
    const text = 'repo-tools cannot be hashed: <img src=x onerror="document.title=\'pwned\'">';
    await post({ type: 'status', text, error: true });
    await page.locator('#status').waitFor();
    assert.equal(await rootText(), text);
    assert.equal(await page.locator('#root > *').count(), 1);
    assert.equal(await page.locator('#status').getAttribute('class'), 'status error');
    assert.equal(await page.locator('img').count(), 0);
    assert.notEqual(await page.title(), 'pwned');
  });

  it('replaces that status with the review once the bundle reads, without repeating it', async () => {
    await post({ type: 'status', text: 'This bundle is gone from disk.', error: true });
    await page.locator('#status', { hasText: 'gone from disk' }).waitFor();
    await post({ type: 'render', model: demoModel(), changed: false });
    await page.locator('#root header h1', { hasText: 'repo-tools' }).waitFor();
    assert.doesNotMatch(await rootText(), /gone from disk|Loading the review/);
    assert.equal(await page.locator('#status').textContent(), '');
  });

  it("keeps an action's outcome in the header's status line, across the render that follows it", async () => {
    await post({ type: 'render', model: demoModel(), changed: false });
    await page.locator('#root header h1', { hasText: 'repo-tools' }).waitFor();
    await post({ type: 'status', text: 'Trusted repo-tools.', error: false });
    await post({ type: 'render', model: demoModel(), changed: false });
    await page.locator('#root header #status', { hasText: 'Trusted repo-tools.' }).waitFor();
    assert.equal(await page.locator('#status').getAttribute('class'), 'status ok');
    assert.match(await rootText(), /repo-tools/);
  });
});
