// Writes docs/diagnostics.md from the code table, so the docs and the code never
// disagree; `npm run docs` regenerates it and a unit test checks it is current.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DIAGNOSTIC_CODES } from '../src/core/diagnosticCodes';
import { REASON_TEXT } from '../src/core/decisions/reasonText';

export function diagnosticsDoc(): string {
  const lines = [
    '# Diagnostics and reasons',
    '',
    'Every diagnostic Skillgate reports has a stable code. Codewhale and Rivumi codes check the agents\' own rules (messages reuse their wording); `skillgate.*` codes are Skillgate\'s own checks. Generated from `src/core/diagnosticCodes.ts` by `npm run docs`.',
    '',
    '| code | severity | what it means |',
    '| --- | --- | --- |',
    ...Object.entries(DIAGNOSTIC_CODES).map(([code, [severity, text]]) => `| <a id="${anchor(code)}"></a>\`${code}\` | ${severity} | ${text} |`),
    '',
    '## Reasons',
    '',
    'Each item carries a decision and its reasons (spec: decisions.md). The first reason is the primary one.',
    '',
    '| reason | meaning |',
    '| --- | --- |',
    ...Object.entries(REASON_TEXT).map(([code, text]) => `| <a id="${anchor(code)}"></a>\`${code}\` | ${text} |`),
    '',
  ];
  return lines.join('\n');
}

export function anchor(code: string): string {
  return code.replace(/[^a-z0-9]+/g, '-');
}

if (require.main === module) {
  fs.writeFileSync(path.join(__dirname, '..', 'docs', 'diagnostics.md'), diagnosticsDoc());
}
