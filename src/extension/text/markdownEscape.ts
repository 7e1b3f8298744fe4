import { displayText } from '../../core/text/displayText';
import { escapeThemeIcons } from './uiText';

/**
 * Bundle-supplied text in Markdown (tooltips, the explain preview): shown as one line
 * with its control, bidi and invisible characters marked (displayText), and every ASCII
 * punctuation character backslash-escaped (CommonMark allows it for all of them), so a
 * name or path never becomes markup, a link, an autolink (`https:`) or an HTML entity
 * (`&#x202E;`). Where the Markdown renders theme icons (`supportThemeIcons`, hovers),
 * `$(name)` must also reach the icon pass escaped: Markdown turns `\\\$\(zap\)` into
 * `\$(zap)`, which the renderer shows as the text `$(zap)`.
 */
export function escapeMarkdown(text: string, themeIcons = false): string {
  const shown = displayText(text);
  return (themeIcons ? escapeThemeIcons(shown) : shown).replace(/[!-/:-@[-`{-~]/g, '\\$&');
}
