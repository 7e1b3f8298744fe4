// The review panel's codicons, cut down to the glyphs it shows (issue 15: the full font and
// its stylesheet were 67 KB of the VSIX; the subset is a few KB). Writes
// media/codicons/codicon.{css,ttf} from the full set in node_modules/@vscode/codicons:
// `npx tsx scripts/codicons.ts`. The font is cut by fontTools' pyftsubset (Debian:
// `apt-get install fonttools`), so the subset is committed and the build only ships it;
// rerun this after using a new codicon in the webview or updating @vscode/codicons.
// A unit test (test/unit/codicons.test.ts) fails while the committed subset lacks a
// codicon the webview uses.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentSystems } from '../src/core/systems/registry';

const ROOT = path.join(__dirname, '..');
export const FULL_CODICONS = path.join(ROOT, 'node_modules', '@vscode', 'codicons', 'dist');
export const SUBSET_CODICONS = path.join(ROOT, 'media', 'codicons');
const WEBVIEW = path.join(ROOT, 'src', 'extension', 'review', 'webview');

/** Where the full stylesheet's per-glyph rules begin; everything above is the font face and the base rule. */
const ICONS_MARKER = /\/\*-+\s*\*\s*Icons\s*\*-+\*\/\n/;
const GLYPH_RULE = /^\.codicon-([\w-]+):before \{ content: "\\([0-9a-f]+)" \}$/gm;

/** Every codicon of a stylesheet: its name and its code point. */
export function codiconGlyphs(css: string): Map<string, number> {
  return new Map([...css.matchAll(GLYPH_RULE)].map((m) => [m[1]!, parseInt(m[2]!, 16)]));
}

/**
 * The codicons the review panel can show: every string literal in the webview's script
 * that names a codicon (the script passes names as literals to icon(), button() and
 * section()), and every agent's icon, which the view model sends for the header. A
 * literal that only happens to be a codicon's name costs one glyph more, never one less.
 */
export function usedCodicons(known: ReadonlySet<string>): string[] {
  const literals = fs
    .readdirSync(WEBVIEW)
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) =>
      [...fs.readFileSync(path.join(WEBVIEW, f), 'utf8').matchAll(/(['"`])([\w-]+)\1/g)].map((m) => m[2]!),
    );
  const names = [...literals.filter((l) => known.has(l)), ...agentSystems().map((s) => s.icon)];
  return [...new Set(names)].sort();
}

/** The full stylesheet with its per-glyph rules narrowed to `names`, in the full sheet's order. */
export function codiconSubsetCss(fullCss: string, names: readonly string[]): string {
  const marker = ICONS_MARKER.exec(fullCss);
  if (!marker) throw new Error('the codicon stylesheet has no Icons section');
  const head = fullCss.slice(0, marker.index + marker[0].length);
  const wanted = new Set(names);
  const rules = [...fullCss.matchAll(GLYPH_RULE)].filter((m) => wanted.has(m[1]!)).map((m) => m[0]);
  const missing = names.filter((n) => !rules.some((r) => r.startsWith(`.codicon-${n}:`)));
  if (missing.length) throw new Error(`not in @vscode/codicons: ${missing.join(', ')}`);
  return `${head}\n${rules.join('\n')}\n`;
}

if (require.main === module) {
  const fullCss = fs.readFileSync(path.join(FULL_CODICONS, 'codicon.css'), 'utf8');
  const glyphs = codiconGlyphs(fullCss);
  const names = usedCodicons(new Set(glyphs.keys()));
  fs.mkdirSync(SUBSET_CODICONS, { recursive: true });
  fs.writeFileSync(path.join(SUBSET_CODICONS, 'codicon.css'), codiconSubsetCss(fullCss, names));
  const unicodes = [...new Set(names.map((n) => glyphs.get(n)!))].map((c) => c.toString(16)).join(',');
  execFileSync('pyftsubset', [
    path.join(FULL_CODICONS, 'codicon.ttf'),
    `--unicodes=${unicodes}`,
    // The font's names carry its copyright and licence (CC BY 4.0): keep them all.
    '--name-IDs=*',
    '--layout-features=',
    `--output-file=${path.join(SUBSET_CODICONS, 'codicon.ttf')}`,
  ]);
  console.log(`${names.length} codicons: ${names.join(' ')}`);
}
