import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' || e.name === 'node_modules' ? [] : files(p);
    return /\.(ts|mjs|js|sh|json)$/.test(e.name) ? [p] : [];
  });
}

/**
 * Issue 11, item 14: `npm test` runs from a fresh clone. The specs' corpus lives beside
 * the repository on the machine it was written on (`shared/corpus`, one level up); a clone has only
 * its copy in `test/fixtures/corpus`.
 */
describe('tests need nothing outside the repository', () => {
  it("no test, test helper or script reads the specs' folder beside the repository or this machine's /work", () => {
    const outside = new RegExp(['\\.\\./shared\\b', '[\'"`]/work/'].join('|'));
    const offenders = [
      ...files(path.join(ROOT, 'test')),
      ...files(path.join(ROOT, 'scripts')),
      path.join(ROOT, 'package.json'),
      ...fs
        .readdirSync(ROOT)
        .filter((n) => n.startsWith('.mocharc'))
        .map((n) => path.join(ROOT, n)),
    ]
      .filter((p) => outside.test(fs.readFileSync(p, 'utf8')))
      .map((p) => path.relative(ROOT, p));
    assert.deepEqual(offenders, []);
  });

  it('the corpus is in the repository, with its README (the provenance table)', () => {
    const corpus = path.join(ROOT, 'test/fixtures/corpus');
    assert.match(
      fs.readFileSync(path.join(corpus, 'README.md'), 'utf8'),
      /\| Folder \| Upstream project and path \(revision\) \|/,
    );
    assert.ok(fs.readdirSync(path.join(corpus, 'codewhale')).length > 20);
  });
});
