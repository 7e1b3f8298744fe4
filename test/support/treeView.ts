import type { Locator, Page } from 'playwright-core';

/**
 * Skillgate's activity-bar item, as a user clicks it: the whole item, not its inner link.
 * The item's badge (a count, or progress while indexing) is laid over the icon, so a click
 * aimed at the link lands on the badge, which Playwright refuses as another element.
 */
export function skillgateActivity(page: Page): Locator {
  return page.locator('.activitybar .action-item', { has: page.locator('a[aria-label^="Skillgate"]') }).first();
}

/**
 * Takes the pointer off whatever it rests on and closes a tooltip left open. A workbench
 * hover closes when the pointer leaves its target or the hover itself. One that opens
 * after the pointer has gone (its row re-rendered under a resting pointer as a context
 * menu closed over it) never sees the pointer leave, and Escape does not reach it while
 * a webview has the focus: a clean-clone CI run found one lying over the row its test
 * right-clicked, for every retry. So the pointer crosses the hover and leaves it, as a
 * user's would, which closes it (an Alt-locked hover aside).
 */
export async function dismissHover(page: Page): Promise<void> {
  await page.mouse.move(0, 0);
  const hover = page.locator('.context-view .workbench-hover-container, .context-view .monaco-hover').first();
  for (let attempt = 0; attempt < 3 && (await hover.isVisible()); attempt++) {
    const box = await hover.boundingBox();
    if (box) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.move(0, 0);
    await hover.waitFor({ state: 'hidden', timeout: 2000 }).catch(() => undefined);
  }
  await page.keyboard.press('Escape');
}

/**
 * Runs `entry` of a workbench context menu that `openMenu` opens. The workbench closes an
 * open context menu when the view re-renders under it (as it does while a snapshot lands,
 * just after a reload): the menu is opened again, a few times, before the entry counts
 * as missing. A workbench menu acts on Enter over the hovered entry.
 */
export async function chooseFromMenu(page: Page, openMenu: () => Promise<void>, entry: string): Promise<void> {
  await withMenu(page, openMenu, entry, async (item) => {
    await item.hover({ timeout: 5000 });
    await page.keyboard.press('Enter');
  });
}

/**
 * The entries of a workbench context menu that `openMenu` opens, read at one moment at
 * which the menu shows `entry`, and the menu left open. Entries counted one locator at a
 * time could be counted after the menu closed under a re-render (a clean-clone CI run
 * found the menu closed as a trust's snapshot landed): so they are read in one go, and a
 * read that lacks `entry` opens the menu again.
 */
async function menuEntries(page: Page, openMenu: () => Promise<void>, entry: string): Promise<string[]> {
  let entries: string[] = [];
  await withMenu(page, openMenu, entry, async () => {
    entries = (await page.locator('.context-view .action-item').allTextContents()).map((text) => text.trim());
    if (!entries.some((text) => text.includes(entry))) throw new Error(`the menu closed before "${entry}" was read`);
  });
  return entries;
}

/** Opens the menu until it shows `entry`, then acts on that entry; a few tries, as above. */
async function withMenu(
  page: Page,
  openMenu: () => Promise<void>,
  entry: string,
  act: (item: Locator) => Promise<void>,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await openMenu();
      const item = page.locator('.context-view .action-item', { hasText: entry }).first();
      await item.waitFor({ timeout: 5000 });
      await act(item);
      return;
    } catch (error) {
      if (attempt >= 4) throw error;
      await page.keyboard.press('Escape');
      await page.waitForTimeout(500);
    }
  }
}

/**
 * The Skillgate tree as the browser suites read it: the view opened, a row by its exact
 * label, its description, and a wait until the description reads as expected. `page` is
 * a getter: suites create their page in `before`, after these helpers are made.
 */
export function treeView(page: () => Page): {
  open: () => Promise<void>;
  rows: () => Locator;
  row: (label: string) => Locator;
  description: (label: string) => Promise<string>;
  waitDescription: (label: string, expected: string) => Promise<void>;
  rowMenu: (label: string, entry: string) => Promise<void>;
  rowMenuEntries: (label: string, entry: string) => Promise<string[]>;
  clickRow: (label: string, file: string) => Promise<void>;
} {
  const rows = () => page().locator('.pane-body .monaco-list-row');
  /**
   * Shows the view. The activity-bar icon toggles: after a reload the workbench may
   * restore the view open a moment after the page loads, and a click then would close
   * it. So the icon is clicked only while its container is not the active one, until
   * the rows show. Rows alone do not tell: the Explorer's rows match them too (a clean-
   * clone run found the Explorer open and took its rows for Skillgate's).
   */
  const open = async () => {
    const icon = skillgateActivity(page());
    const deadline = Date.now() + 60000;
    for (;;) {
      const active = await icon.evaluate((e) => (e.closest('.action-item') ?? e).classList.contains('checked'));
      if (active && (await rows().first().isVisible())) return;
      if (Date.now() > deadline) throw new Error('the Skillgate view did not show its rows within 60 s');
      if (!active) await icon.click();
      await page().waitForTimeout(1000);
    }
  };
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
  /**
   * Runs `entry` of the context menu of the first row labelled `label`. A row's tooltip
   * opens a while after the pointer rests on a row and can lie over the row clicked next:
   * Playwright waits for it with the pointer still there, which keeps it open (seen in a
   * clean-clone run on a busy machine). So the pointer leaves the tree and any hover is
   * closed before each try, and a try that is blocked gives up soon for the next.
   */
  const openRowMenu = (label: string) => async () => {
    await dismissHover(page());
    await row(label).first().click({ button: 'right', timeout: 5000 });
  };
  /**
   * A row's menu entry acts on the row through the tree's handle for it. A snapshot landing
   * just then refreshes the whole tree, and the extension host answers a handle of the old
   * rows with no element until the new ones are fetched: the command then runs as from the
   * palette and asks which bundle (a clean-clone run on a loaded machine saw "choose a bundle
   * to review" open). A user would dismiss it and choose the entry again; so does this.
   */
  const rowMenu = async (label: string, entry: string) => {
    const askedWhich = page().locator('.quick-input-widget', { hasText: 'Skillgate: choose a bundle' });
    for (let attempt = 1; ; attempt++) {
      await chooseFromMenu(page(), openRowMenu(label), entry);
      const asked = await askedWhich
        .waitFor({ state: 'visible', timeout: 1000 })
        .then(() => true)
        .catch(() => false);
      if (!asked) return;
      if (attempt >= 3) throw new Error(`"${entry}" on ${label} ran without its row ${attempt} times`);
      await page().keyboard.press('Escape');
      await askedWhich.waitFor({ state: 'hidden', timeout: 5000 });
      await page().waitForTimeout(500);
    }
  };
  /** The entries of a row's context menu, read once it shows `entry`; the menu is closed after. */
  const rowMenuEntries = async (label: string, entry: string) => {
    const entries = await menuEntries(page(), openRowMenu(label), entry);
    await page().keyboard.press('Escape');
    return entries;
  };
  /**
   * Clicks the first row labelled `label` and waits until `file`, the file the row stands
   * for, is the active editor tab. The click opens it through the extension host (Open
   * Manifest), a while later on a busy host: a palette or pick opened before then is closed
   * by the editor taking the focus (a clean-clone run lost "choose a bundle to review" so).
   */
  const clickRow = async (label: string, file: string) => {
    await row(label).first().click();
    await page().locator('.part.editor .tab.active', { hasText: file }).waitFor({ timeout: 30000 });
  };
  return { open, rows, row, description, waitDescription, rowMenu, rowMenuEntries, clickRow };
}
