import type { Locator, Page } from 'playwright-core';

/**
 * The Skillgate tree as the browser suites read it: a row by its exact label, its
 * description, and a wait until the description reads as expected. `page` is a getter:
 * suites create their page in `before`, after these helpers are made.
 */
export function treeView(page: () => Page): {
  rows: () => Locator;
  row: (label: string) => Locator;
  description: (label: string) => Promise<string>;
  waitDescription: (label: string, expected: string) => Promise<void>;
} {
  const rows = () => page().locator('.pane-body .monaco-list-row');
  const row = (label: string) =>
    rows().filter({
      has: page().locator('.label-name', { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }),
    });
  const description = async (label: string) =>
    ((await row(label).first().locator('.label-description').textContent()) ?? '').trim();
  const waitDescription = async (label: string, expected: string) => {
    const deadline = Date.now() + 15000;
    while ((await description(label)) !== expected) {
      if (Date.now() > deadline) throw new Error(`${label}: expected "${expected}", saw "${await description(label)}"`);
      await page().waitForTimeout(200);
    }
  };
  return { rows, row, description, waitDescription };
}
