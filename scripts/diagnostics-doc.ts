// Writes docs/diagnostics.md from the code table, so the docs and the code never
// disagree; `npm run docs` regenerates it and a unit test checks it is current.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DIAGNOSTIC_CODES, type DiagnosticCode } from '../src/core/diagnostics/diagnosticCodes';
import { DIAGNOSTIC_HELP } from '../src/core/diagnostics/diagnosticHelp';
import { REASON_TEXT } from '../src/core/decisions/reasonText';
import { agentSystems } from '../src/core/systems/registry';
import type { ReasonCode } from '../src/core/model';
import { DIAGNOSTICS_PAGE, codeAnchor, codeHeading } from '../src/core/diagnostics/diagnosticsPage';

/** The sentences agents say in their own terms for a reason ("Rivumi: …"). */
function agentTexts(code: ReasonCode): string[] {
  return agentSystems().flatMap((s) => (s.reasonText?.[code] ? [`${s.label}: ${s.reasonText[code]}`] : []));
}

export function diagnosticsDoc(): string {
  const lines = [
    '# Diagnostics and reasons',
    '',
    'Every diagnostic Skillgate reports has a stable code. Codewhale, Rivumi and Eva-CLI codes check the agents\' own rules (messages reuse their wording); `skillgate.*` codes are Skillgate\'s own checks. Each section says what is wrong and how to fix it; "Quick fix" names the fix the editor offers (light bulb, `Ctrl+.`) where the fix is unambiguous. Every diagnostic also offers "Show the documentation", which opens this page at its code. Generated from `src/core/diagnostics/diagnosticCodes.ts` and `src/core/diagnostics/diagnosticHelp.ts` by `npm run docs`.',
    '',
    '## Codes',
    '',
  ];
  for (const [code, [severity, text]] of Object.entries(DIAGNOSTIC_CODES)) {
    const help = DIAGNOSTIC_HELP[code as DiagnosticCode];
    lines.push(
      codeHeading(code),
      '',
      `<a id="${codeAnchor(code)}"></a>**${severity}** · ${text}`,
      '',
      `How to fix: ${help.fix}`,
      '',
    );
    if (help.quickFix) lines.push(`Quick fix: ${help.quickFix}.`, '');
  }
  lines.push(
    '## Reasons',
    '',
    'Each item carries a decision and its reasons (spec: decisions.md). The first reason is the primary one.',
    '',
    '| reason | meaning |',
    '| --- | --- |',
    ...Object.entries(REASON_TEXT).map(
      ([code, text]) =>
        `| <a id="${codeAnchor(code)}"></a>\`${code}\` | ${[text, ...agentTexts(code as ReasonCode)].join('<br>')} |`,
    ),
    '',
  );
  return lines.join('\n');
}

if (require.main === module) {
  fs.writeFileSync(path.join(__dirname, '..', ...DIAGNOSTICS_PAGE), diagnosticsDoc());
}
