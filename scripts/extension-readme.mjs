// Writes the README the VSIX ships (out/package/README.md): README.md up to the line
// END_OF_PAGE, then a pointer to the rest. VS Code shows it as the extension's page, and
// every document it links is packaged with it. What follows the line — use in CI (read where CI
// is set up: the repository and the npm package), the choices made where the specs are silent,
// performance figures, the code's layout, the tests, with the documents only they link — is not
// for the editor's user: on the page it is noise, and in the package it weighs on every
// install (issue 15: the VSIX ≤ 400 KB). README.md stays the one source.
// `node scripts/extension-readme.mjs [out-file]`; the package script runs it before `vsce package`.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const END_OF_PAGE =
  '<!-- The extension page ends here: what follows is for CI and for the people who build Skillgate. -->';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const POINTER =
  'How to gate agent extensions in CI (`skillgate.lock`, `check --lock`, the GitHub Action, SARIF, the ' +
  "pre-commit hook), the choices made where the agents' specs are silent, how fast Skillgate is, how its " +
  "code is laid out and how it is tested: the README in Skillgate's source repository, which continues " +
  'where this page ends.\n';

/** The extension page's Markdown, from the repository README's text. */
export function extensionReadme(readme) {
  const lines = readme.split('\n');
  const at = lines.indexOf(END_OF_PAGE);
  if (at < 0 || lines.indexOf(END_OF_PAGE, at + 1) >= 0)
    throw new Error(`README.md must hold the line ${END_OF_PAGE} exactly once`);
  return `${lines.slice(0, at).join('\n').trimEnd()}\n\n---\n\n${POINTER}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = path.resolve(process.argv[2] ?? path.join(ROOT, 'out', 'package', 'README.md'));
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, extensionReadme(readFileSync(path.join(ROOT, 'README.md'), 'utf8')));
}
