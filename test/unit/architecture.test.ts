import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DIAGNOSTIC_CODES } from '../../src/core/diagnostics/diagnosticCodes';
import { REASON_TEXT } from '../../src/core/decisions/reasonText';
import { DIAGNOSTICS_PAGE } from '../../src/core/diagnostics/diagnosticsPage';

const SRC = path.resolve(__dirname, '../../src');

function files(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
    );
}

describe('architecture', () => {
  it('keeps vscode out of the core and the CLI', () => {
    for (const file of [...files(path.join(SRC, 'core')), ...files(path.join(SRC, 'cli'))]) {
      const text = fs.readFileSync(file, 'utf8');
      assert.doesNotMatch(text, /from ['"]vscode['"]|require\(['"]vscode['"]\)/, path.relative(SRC, file));
    }
  });

  it('uses only catalogued diagnostic codes', () => {
    const used = new Set<string>();
    for (const file of files(path.join(SRC, 'core'))) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/'((?:codewhale|rivumi|skillgate)\.[a-z0-9.-]+)'/g))
        used.add(m[1] as string);
    }
    const known = new Set(Object.keys(DIAGNOSTIC_CODES));
    for (const code of used)
      if (
        /^(codewhale|rivumi|skillgate)\.[a-z-]+(\.[a-z-]+)?$/.test(code) &&
        !code.endsWith('.json') &&
        !code.endsWith('.md') &&
        code !== 'skillgate.lock'
      )
        assert.ok(known.has(code), `${code} is not in diagnosticCodes.ts`);
  });

  it('has a sentence for every reason code', () => {
    for (const [code, text] of Object.entries(REASON_TEXT)) assert.ok(text.length > 10, code);
  });
});

describe('docs', () => {
  it('keeps docs/diagnostics.md in step with the code table (npm run docs)', () => {
    const { diagnosticsDoc } = require('../../scripts/diagnostics-doc') as { diagnosticsDoc: () => string };
    assert.equal(fs.readFileSync(path.join(SRC, '..', ...DIAGNOSTICS_PAGE), 'utf8'), diagnosticsDoc());
  });
});
