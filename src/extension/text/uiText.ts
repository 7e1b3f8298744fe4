import { displayText } from '../../core/text/displayText';
import type { UiPort } from '../flows/ports';

/**
 * Repository text on the editor's own surfaces (no `vscode` import, so it tests with
 * plain Node). Every string passes the core's displayText first; then each surface's
 * own syntax is neutralised: notifications turn `[label](command:…)` into a clickable
 * link (VS Code's linked text, also `https:` and `file:`), QuickPick items turn `$(name)`
 * into an icon.
 */

/**
 * The target of VS Code's notification link syntax (vs/base/common/linkedText.ts:
 * `\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)`, case-insensitive as there),
 * from the `(` after the label.
 */
const LINK_TARGET = /\((?:https?:\/\/|command:|file:)[^)\s]+/iy;

/**
 * A notification or modal message: one line, and a link-shaped `](` shown with its `(` as
 * displayText's mark, `\u{28}`, which holds no bracket or parenthesis to start another link.
 */
export function notificationText(text: string): string {
  return escapeLinks(displayText(text));
}

/**
 * Every `(` that VS Code's link pattern, matched from left to right, would read as a link's:
 * the pattern's own matches, found without it. Tried from each `[`, the pattern scanned to the
 * next `]` each time, quadratic in a modal's line of 64 MCP arguments of 4,096 `[` (a minute
 * of a frozen window). A label runs to the first `]` after its `[`, so every `[` before that
 * `]` succeeds or fails with it, and one look there decides them all.
 */
function escapeLinks(text: string): string {
  let out = '';
  let done = 0;
  let from = 0;
  for (;;) {
    const open = text.indexOf('[', from);
    if (open < 0) break;
    const close = text.indexOf(']', open + 1);
    if (close < 0) break;
    from = close + 1;
    // An empty label (`[]`): no `[` lies between, so none matches at this `]`.
    if (close === open + 1) continue;
    LINK_TARGET.lastIndex = close + 1;
    if (!LINK_TARGET.test(text)) continue;
    out += `${text.slice(done, close + 1)}\\u{28}`;
    done = close + 2;
    from = LINK_TARGET.lastIndex;
  }
  return out + text.slice(done);
}

/** VS Code's theme-icon syntax (`$(name)`, `$(name~spin)`), as its label renderer matches it. */
const THEME_ICON = /\$\((?=[A-Za-z0-9-]+(?:~[A-Za-z]+)?\))/g;

/** `\$(name)`: the renderer shows the escaped form as the text `$(name)`, never as an icon. */
export function escapeThemeIcons(text: string): string {
  return text.replace(THEME_ICON, '\\$(');
}

/** A QuickPick label, description or detail: one line, and `$(name)` shown as text. */
export function quickPickText(text: string): string {
  return escapeThemeIcons(displayText(text));
}

/** A UI port whose every message is a safe notification; flows and panels go through it. */
export function safeUi(ui: UiPort): UiPort {
  return {
    confirm: (message, detail, action, options) =>
      ui.confirm(notificationText(message), detail.split('\n').map(notificationText).join('\n'), action, options),
    offer: (message, action) => ui.offer(notificationText(message), action),
    info: (message) => ui.info(notificationText(message)),
    error: (message) => ui.error(notificationText(message)),
  };
}
