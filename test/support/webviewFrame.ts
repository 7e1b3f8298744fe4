import type { Frame, Locator, Page } from 'playwright-core';

/** Webviews are nested iframes: the frame whose document holds the review's root. */
export async function reviewFrame(page: Page, heading: string, timeoutMs = 30000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      try {
        const h = await frame.$('#root header h1');
        if (h && ((await h.textContent()) ?? '').includes(heading)) return frame;
      } catch {
        // a frame that navigated away
      }
    }
    if (Date.now() > deadline) throw new Error(`no review panel for ${heading} within ${timeoutMs} ms`);
    await page.waitForTimeout(200);
  }
}

/**
 * Presses the review panel's Trust… and waits for the workbench's modal confirmation: the
 * dialog, and its detail text (what trust lets run, what it does). A busy machine can take
 * long to answer; a click the panel lost (once in a clean-clone run, the panel re-rendering
 * as it was pressed) is pressed again, once, after 30 s with no dialog.
 */
export async function openTrustConfirmation(page: Page, frame: Frame): Promise<{ dialog: Locator; detail: string }> {
  const dialog = page.locator('.monaco-dialog-box');
  for (let attempt = 1; ; attempt++) {
    await frame.locator('button:not([disabled])', { hasText: 'Trust…' }).click();
    try {
      await dialog.waitFor({ timeout: 30000 });
      break;
    } catch (e) {
      if (attempt >= 2) throw e;
    }
  }
  return { dialog, detail: (await dialog.locator('#monaco-dialog-message-detail').textContent()) ?? '' };
}

/**
 * Runs a command from the palette, as a user types it. Enter goes in only once the
 * command's row is the focused one: pressed while the list still settles, it can close
 * the palette with nothing run.
 */
export async function runCommand(page: Page, title: string): Promise<void> {
  const input = await openCommandPalette(page);
  await input.fill(`>${title}`);
  await acceptRow(page, title);
}

/**
 * Opens the command palette with F1 and returns its input. A key pressed while a closing
 * dialog still hands the focus back (to the webview, say) can be lost on a busy machine
 * (seen in a clean-clone run beside a fuzz run): the key is pressed again, up to four times.
 */
export async function openCommandPalette(page: Page): Promise<Locator> {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    try {
      await input.waitFor({ state: 'visible', timeout: attempt < 4 ? 7500 : 30000 });
      return input;
    } catch (e) {
      if (attempt >= 4) throw e;
    }
  }
}

/**
 * Picks `text` in the quick pick a command opened: waits for that pick (its title holds
 * `pickTitle`), types, and accepts once the matching row is focused.
 */
export async function choose(page: Page, pickTitle: string, text: string): Promise<void> {
  await quickPickTitle(page, pickTitle).waitFor({ state: 'visible', timeout: 30000 });
  await page.locator('.quick-input-widget .quick-input-box input').fill(text);
  await acceptRow(page, text);
}

/** The title of the quick pick whose title holds `text` (a command's own pick, not the palette). */
export function quickPickTitle(page: Page, text: string): Locator {
  return page.locator('.quick-input-widget .quick-input-title', { hasText: text });
}

/** Accepts the open quick input's focused row once it is the one holding `text`. */
export async function acceptRow(page: Page, text: string): Promise<void> {
  await page
    .locator('.quick-input-list .monaco-list-row.focused', { hasText: text })
    .first()
    .waitFor({ timeout: 10000 });
  await page.keyboard.press('Enter');
}

/**
 * Reloads the window as a user does, with "Developer: Reload Window". Not `page.reload()`:
 * on the browser's own unload the workbench starts saving its state without waiting for
 * it, so the window can come back with the editors of an older save (a clean-clone run
 * restored one review tab of four). The command waits for the save, then reloads.
 */
export async function reloadWindow(page: Page): Promise<void> {
  const loaded = page.waitForEvent('load', { timeout: 90000 });
  await runCommand(page, 'Developer: Reload Window');
  await loaded;
  await page.waitForSelector('.monaco-workbench .part.activitybar', { timeout: 90000 });
}
