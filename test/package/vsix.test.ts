import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as yauzl from 'yauzl';
import { DIAGNOSTICS_PAGE } from '../../src/core/diagnostics/diagnosticsPage';
import { ROOT, sh, tempDir } from './helpers';

const VSIX = path.resolve(__dirname, '../../dist/skillgate.vsix');

/** Every entry's bytes, by name. */
function contents(file: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out = new Map<string, Buffer>();
      zip.on('entry', (e: yauzl.Entry) => {
        zip.openReadStream(e, (err2, stream) => {
          if (err2 || !stream) return reject(err2);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(e.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

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

/** A Markdown text's relative link targets, without their `#fragment`s. */
function relativeLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => (m[1] as string).split('#')[0] as string)
    .filter((t) => t !== '' && !/^(https?:|command:|mailto:)/.test(t) && !t.includes('…'));
}

/** The VSIX ships exactly what the allow-list names: no sources, tests, fixtures or source maps. */
describe('the packaged VSIX', () => {
  let names: string[];
  before(async () => {
    if (!fs.existsSync(VSIX)) throw new Error(`${VSIX} is missing; run \`npm run package\` first`);
    names = (await entries(VSIX)).filter((n) => n.startsWith('extension/')).map((n) => n.slice('extension/'.length));
  });

  it('contains the manifest, the bundles, the media and the docs', () => {
    for (const required of [
      'package.json',
      'dist/core.js',
      'dist/extension.js',
      'dist/indexWorker.js',
      'dist/treeReader.js',
      'dist/cli.js',
      'media/shield.svg',
      'media/icon.png',
      'readme.md',
      'changelog.md',
      'LICENSE.txt',
      'docs/diagnostics.md',
      'media/schemas/plugin.json',
      'media/schemas/mcp.json',
    ]) {
      assert.ok(
        names.some((n) => n.toLowerCase() === required.toLowerCase()),
        `${required} missing from ${names.join(', ')}`,
      );
    }
  });

  it('contains nothing unexpected', () => {
    const allowed = [
      /^package\.json$/i,
      /^readme\.md$/i,
      /^license\.txt$/i,
      /^changelog\.md$/i,
      /^dist\/(core|extension|cli|indexWorker|treeReader)\.js$/,
      /^media\/[\w.-]+\.(svg|png|css|js)$/,
      /^media\/codicons\/[\w.-]+$/,
      /^media\/walkthrough\/[\w.-]+\.md$/,
      /^media\/schemas\/[\w.-]+\.json$/,
      /^docs\/[\w.-]+\.md$/,
    ];
    const unexpected = names.filter((n) => !allowed.some((re) => re.test(n)));
    assert.deepEqual(unexpected, []);
  });

  it('contains every file the walkthrough shows', async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      contributes: { walkthroughs: { steps: { media: Record<string, unknown> }[] }[] };
    };
    const media = manifest.contributes.walkthroughs
      .flatMap((w) => w.steps.map((s) => s.media.markdown ?? s.media.image))
      .filter((m): m is string => typeof m === 'string');
    assert.ok(media.length > 0);
    for (const m of media) assert.ok(names.includes(m), `${m} missing from the VSIX`);
  });

  it('ships minified production bundles without source maps', () => {
    assert.ok(!names.some((n) => n.endsWith('.map')));
    const zipped = fs.statSync(VSIX).size;
    assert.ok(zipped < 2 * 1024 * 1024, `VSIX is ${zipped} bytes`);
  });
});

/** What a marketplace listing needs (issue 16 part 5), checked on the VSIX itself. */
describe('the VSIX is ready for a marketplace', () => {
  let files: Map<string, Buffer>;
  let manifest: Record<string, unknown>;
  before(async () => {
    if (!fs.existsSync(VSIX)) throw new Error(`${VSIX} is missing; run \`npm run package\` first`);
    files = await contents(VSIX);
    manifest = JSON.parse(String(files.get('extension/package.json'))) as Record<string, unknown>;
  });

  it('has a 128×128 PNG icon, drawn by scripts/icon.mjs from the shield, and named in the VSIX manifest', async () => {
    assert.equal(manifest.icon, 'media/icon.png');
    const png = files.get('extension/media/icon.png');
    assert.ok(png, 'media/icon.png is packaged');
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.equal(png.subarray(12, 16).toString('ascii'), 'IHDR');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
    const { drawIcon } = (await import(path.join(ROOT, 'scripts', 'icon.mjs'))) as { drawIcon: () => Buffer };
    assert.ok(
      drawIcon().equals(png),
      'the committed icon is what scripts/icon.mjs draws (run `node scripts/icon.mjs`)',
    );
    assert.match(String(files.get('extension.vsixmanifest')), /<Icon>extension\/media\/icon\.png<\/Icon>/);
  });

  it('has a gallery banner, categories and keywords people search for', () => {
    assert.deepEqual(manifest.galleryBanner, { color: '#1b263b', theme: 'dark' });
    const categories = manifest.categories as string[];
    for (const c of ['Linters', 'AI']) assert.ok(categories.includes(c), c);
    const keywords = manifest.keywords as string[];
    assert.ok(keywords.length <= 30, 'the Marketplace takes at most 30 keywords');
    for (const k of ['agents', 'mcp', 'security', 'agent skills', 'sarif', 'codewhale', 'rivumi'])
      assert.ok(keywords.includes(k), k);
  });

  it('names no placeholder repository, bugs or homepage (they are absent until real)', () => {
    for (const field of ['repository', 'bugs', 'homepage']) assert.equal(manifest[field], undefined, field);
    assert.doesNotMatch(String(files.get('extension.vsixmanifest')), /github\.com\/skillgate\/skillgate/);
  });

  // VS Code's extension page renders the README without resolving relative images, so the
  // screenshots would only weigh on every install: they live in the repository (README,
  // "Performance"). Documents the page links to are packaged (the extension opens some).
  it('ships a changelog and every document the README links to; its screenshots stay in the repository', () => {
    assert.match(String(files.get('extension/changelog.md')), /^# Changelog/);
    const readme = String(files.get('extension/readme.md'));
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1] as string);
    assert.ok(images.length >= 5, 'the README shows its screenshots');
    for (const image of images) {
      assert.ok(fs.existsSync(path.join(ROOT, image)), `${image} is in the repository`);
      assert.ok(!files.has(`extension/${image}`), `${image} is not packaged`);
    }
    for (const t of relativeLinks(readme).filter((t) => !images.includes(t)))
      assert.ok(files.has(`extension/${t}`), `the README links ${t}, which the VSIX does not contain`);
  });

  // The page is README.md up to its end-of-page line (scripts/extension-readme.mjs): the
  // performance figures, the code's layout and the tests stay in the repository, with the
  // documents only they link. Issue 15: they grow every round, and the VSIX is capped.
  it("shows the README's user part as the extension page, and ships exactly the documents it reaches", async () => {
    const script = pathToFileURL(path.join(ROOT, 'scripts', 'extension-readme.mjs')).href;
    const { extensionReadme } = (await import(script)) as { extensionReadme: (readme: string) => string };
    const readme = String(files.get('extension/readme.md'));
    assert.equal(readme, extensionReadme(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')));
    assert.match(readme, /^## Quick start$/m);
    assert.match(readme, /^## Security: what trust covers, and what is refused$/m);
    assert.doesNotMatch(readme, /^## (Performance|Tests|How the code is laid out)$/m);

    // Every relative link of every packaged Markdown file resolves inside the package…
    const markdown = [...files.keys()].filter((n) => n.endsWith('.md'));
    const reached = new Set<string>(['extension/readme.md', 'extension/changelog.md']);
    for (const doc of markdown.filter((n) => n.startsWith('extension/media/walkthrough/'))) reached.add(doc);
    reached.add(`extension/${DIAGNOSTICS_PAGE.join('/')}`); // the extension opens it (Show the documentation)
    const pending = [...reached];
    for (let doc = pending.pop(); doc !== undefined; doc = pending.pop()) {
      const text = String(files.get(doc));
      for (const t of relativeLinks(text)) {
        if (/\.(webp|png|gif|svg)$/.test(t)) continue; // images: checked above, never packaged
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(doc), t));
        assert.ok(files.has(target), `${doc} links ${t}, which the VSIX does not contain`);
        if (!reached.has(target)) {
          reached.add(target);
          pending.push(target);
        }
      }
    }
    // …and every packaged document is reached from the page, the walkthrough or the extension.
    assert.deepEqual(
      markdown.filter((n) => !reached.has(n)),
      [],
      'documents nothing links to weigh on every install',
    );
  });

  it('lists with `vsce ls` exactly what the VSIX holds (one files allow-list for the VSIX and the npm package)', function () {
    this.timeout(120_000); // vsce walks the whole project tree: slow on a loaded two-core machine
    const r = sh(
      path.join(ROOT, 'node_modules', '.bin', 'vsce'),
      ['ls', '--no-dependencies', '--readme-path', 'out/package/README.md'],
      { cwd: ROOT },
    );
    assert.equal(r.code, 0, r.err);
    const listed = r.out
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .map((n) => (n === 'LICENSE' ? 'LICENSE.txt' : n === 'out/package/README.md' ? 'readme.md' : n).toLowerCase())
      .sort();
    const packaged = [...files.keys()]
      .filter((n) => n.startsWith('extension/'))
      .map((n) => n.slice('extension/'.length).toLowerCase())
      .sort();
    assert.deepEqual(listed, packaged);
    assert.equal(
      fs.existsSync(path.join(ROOT, '.vscodeignore')),
      false,
      'vsce refuses a .vscodeignore beside package.json `files`',
    );
  });
});

/** Issue 15: the core ships once, and the VSIX stays small. */
describe('the VSIX ships the core once and stays small', () => {
  const READER = 'extension/dist/treeReader.js';
  let files: Map<string, Buffer>;
  before(async () => {
    if (!fs.existsSync(VSIX)) throw new Error(`${VSIX} is missing; run \`npm run package\` first`);
    files = await contents(VSIX);
  });

  it('holds the core in dist/core.js alone: every other bundle is a thin face that requires it', () => {
    const core = files.get('extension/dist/core.js');
    assert.ok(core, 'dist/core.js is packaged');
    // zod's schema classes and a core module id: in the core, and in no face.
    assert.ok(String(core).includes('$ZodType'));
    const faces = [...files.keys()].filter(
      (n) => /^extension\/dist\/[\w.-]+\.js$/.test(n) && !n.endsWith('/core.js') && n !== READER,
    );
    assert.ok(faces.length >= 2, faces.join(', '));
    for (const face of faces) {
      const text = String(files.get(face));
      assert.match(text, /require\("\.\/core\.js"\)/, `${face} requires the shared core`);
      assert.ok(!text.includes('$ZodType'), `${face} bundles its own zod`);
      assert.ok((files.get(face)?.length ?? 0) * 8 < core.length, `${face} is a thin face`);
    }
    // The CLI's tree reader (docs/read-ahead.md) needs only the walk's reading: it carries that, not the core.
    const reader = String(files.get(READER));
    assert.doesNotMatch(reader, /require\("\.\/core\.js"\)/);
    assert.ok(!reader.includes('$ZodType'), 'the tree reader bundles no zod');
    assert.ok(reader.length * 40 < core.length, `the tree reader is ${reader.length} bytes`);
  });

  // dist/core.js holds only the modules the faces load (scripts/sharedCore.mjs): each one a
  // face of the VSIX loads must be there, and evaluate.
  it('holds every core module a face loads, and each of them loads', () => {
    const faces = [...files.keys()].filter((n) => /^extension\/dist\/[\w.-]+\.js$/.test(n) && !n.endsWith('/core.js'));
    const loaded = new Set(
      faces.flatMap((face) =>
        [...String(files.get(face)).matchAll(/require\("\.\/core\.js"\)\.load\("([^"]+)"\)/g)].map(
          (m) => m[1] as string,
        ),
      ),
    );
    assert.ok(loaded.has('index/indexer') && loaded.has('trust/grantTrust'), [...loaded].join(', '));
    const t = tempDir('vsix-core');
    try {
      const core = path.join(t.dir, 'core.js');
      fs.writeFileSync(core, files.get('extension/dist/core.js') as Buffer);
      const script = `const core = require(${JSON.stringify(core)});
for (const id of ${JSON.stringify([...loaded])}) if (typeof core.load(id) !== 'object') throw new Error(id);`;
      const r = sh(process.execPath, ['-e', script]);
      assert.equal(r.code, 0, r.err);
    } finally {
      t.remove();
    }
  });

  it('stays within the size bar: the whole VSIX ≤ 400 KB', () => {
    const total = fs.statSync(VSIX).size;
    assert.ok(total <= 400 * 1024, `the VSIX is ${total} bytes`);
  });
});
