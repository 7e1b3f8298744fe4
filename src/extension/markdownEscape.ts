import { displayText } from '../core/text/displayText';

/**
 * Bundle-supplied text in Markdown (tooltips, the explain preview): shown as one line
 * with its control, bidi and invisible characters marked (displayText), and every ASCII
 * punctuation character backslash-escaped (CommonMark allows it for all of them), so a
 * name or path never becomes markup, a link, an autolink (`https:`), an HTML entity
 * (`&#x202E;`) or a theme icon (`$(zap)`).
 */
export function escapeMarkdown(text: string): string {
  return displayText(text).replace(/[!-/:-@[-`{-~]/g, '\\$&');
}
