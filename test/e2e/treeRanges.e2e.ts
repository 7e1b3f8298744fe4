import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { type DemoWorkbench, startDemoWorkbench } from '../support/demoWorkbench';
import { treeView } from '../support/treeView';

/** Bundles added to the demo's five Codewhale bundles: 305 under one agent, past a range of 250. */
const ADDED = 300;

/**
 * A node with more than 250 items shows them in ranges, collapsed until opened (as the
 * debugger pages a large array): the workbench then never converts thousands of rows in
 * one turn of the extension host (docs/editor-performance.md). Every bundle stays one
 * click away.
 */
describe('a large agent node in ranges (packaged VSIX, code-server + Chromium)', function () {
  this.timeout(180000);
  let wb: DemoWorkbench;
  let page: Page;

  before(async () => {
    wb = await startDemoWorkbench({
      name: 'ranges',
      prepare: (demo) => {
        for (let i = 0; i < ADDED; i++) {
          const name = `many-${String(i).padStart(3, '0')}`;
          const dir = path.join(demo, '.codewhale/plugins', name);
          fs.mkdirSync(dir, { recursive: true });
          fs.writeFileSync(
            path.join(dir, 'plugin.toml'),
            `schema_version = 1\n\n[plugin]\nname = "${name}"\nversion = "1.0.0"\ndescription = "Bundle ${i}."\n`,
          );
        }
      },
    });
    page = wb.page;
  });

  afterEach(async function () {
    await wb?.capture(this.currentTest);
  });

  after(async () => {
    await wb?.stop();
  });

  const { open, rows } = treeView(() => page);
  const rangeRows = () => rows().filter({ has: page.locator('.codicon-list-unordered') });

  it('shows the 305 Codewhale bundles as two ranges, and a range opens to its bundles', async () => {
    await open();
    await rangeRows().nth(1).waitFor({ timeout: 60000 });
    const descriptions = (await rangeRows().locator('.label-description').allTextContents()).map((d) => d.trim());
    assert.deepEqual(descriptions, ['1–250 of 305', '251–305 of 305']);
    // The Rivumi node beside it has few items: its rows are shown as before.
    await rows()
      .filter({ has: page.locator('.label-name', { hasText: /^test-pack$/ }) })
      .first()
      .waitFor({ timeout: 15000 });
    assert.equal(
      await rows()
        .filter({ has: page.locator('.label-name', { hasText: /^many-246$/ }) })
        .count(),
      0,
      'a range is collapsed until opened',
    );
    const second = rangeRows().nth(1);
    assert.match((await second.getAttribute('aria-label')) ?? '', /^251 to 305 of 305: /);
    await second.locator('.monaco-tl-twistie').click();
    await rows()
      .filter({ has: page.locator('.label-name', { hasText: /^many-246$/ }) })
      .first()
      .waitFor({ timeout: 15000 });
    assert.equal(await second.getAttribute('aria-expanded'), 'true');
  });
});
