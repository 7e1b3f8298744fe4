/** Escapes Markdown syntax in bundle-supplied text, so a name or path never becomes markup or a link. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
