import { displayText } from '../core/text/displayText';
import type { UiPort } from './flows/ports';

/**
 * Repository text on the editor's own surfaces (no `vscode` import, so it tests with
 * plain Node). Every string passes the core's displayText first; then each surface's
 * own syntax is neutralised: notifications turn `[label](command:…)` into a clickable
 * link (VS Code's linked text, also `https:` and `file:`), QuickPick items turn `$(name)`
 * into an icon.
 */

/** VS Code's notification link syntax (vs/base/common/linkedText.ts), case-insensitive as there. */
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)/gi;

/** A notification or modal message: one line, and a link-shaped `](` shown with its `(` escaped. */
export function notificationText(text: string): string {
  return displayText(text).replace(NOTIFICATION_LINK, (_m, label: string, href: string) => `[${label}]⟦U+0028⟧${href}`);
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
