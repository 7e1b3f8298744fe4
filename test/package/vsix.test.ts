import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yauzl from 'yauzl';

const VSIX = path.resolve(__dirname, '../../dist/skillgate.vsix');

function entries(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const names: string[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        names.push(e.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** The VSIX ships exactly what the allow-list names: no sources, tests, fixtures or source maps. */
describe('the packaged VSIX', () => {
  let names: string[];
  before(async () => {
    if (!fs.existsSync(VSIX)) throw new Error(`${VSIX} is missing; run \`npm run package\` first`);
    names = (await entries(VSIX)).filter((n) => n.startsWith('extension/')).map((n) => n.slice('extension/'.length));
  });

  it('contains the manifest, the bundles, the media and the docs', () => {
    for (const required of ['package.json', 'dist/extension.js', 'dist/cli.js', 'media/shield.svg', 'readme.md', 'LICENSE.txt', 'docs/diagnostics.md', 'media/schemas/plugin.json', 'media/schemas/mcp.json']) {
      assert.ok(names.some((n) => n.toLowerCase() === required.toLowerCase()), `${required} missing from ${names.join(', ')}`);
    }
  });

  it('contains nothing unexpected', () => {
    const allowed = [/^package\.json$/i, /^readme\.md$/i, /^license\.txt$/i, /^changelog\.md$/i, /^dist\/(extension|cli)\.js$/, /^media\/[\w.-]+\.(svg|png|css|js)$/, /^media\/codicons\/[\w.-]+$/, /^media\/schemas\/[\w.-]+\.json$/, /^docs\/diagnostics\.md$/];
    const unexpected = names.filter((n) => !allowed.some((re) => re.test(n)));
    assert.deepEqual(unexpected, []);
  });

  it('ships minified production bundles without source maps', () => {
    assert.ok(!names.some((n) => n.endsWith('.map')));
    const zipped = fs.statSync(VSIX).size;
    assert.ok(zipped < 2 * 1024 * 1024, `VSIX is ${zipped} bytes`);
  });
});
