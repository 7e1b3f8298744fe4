import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');
export const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;
/** Written by `npm run package` (`npm pack` of the production build, beside the VSIX). */
export const TARBALL = path.join(ROOT, 'dist', `skillgate-${VERSION}.tgz`);
export const DEMO = path.join(ROOT, 'examples', 'demo-workspace');

export function needTarball(): void {
  if (!fs.existsSync(TARBALL)) throw new Error(`${TARBALL} is missing; run \`npm run package\` first`);
}

export interface Ran {
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
}

export function sh(command: string, args: readonly string[], options: SpawnSyncOptions = {}): Ran {
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: 180_000, ...options });
  if (r.error) throw r.error;
  return { code: r.status, out: String(r.stdout ?? ''), err: String(r.stderr ?? '') };
}

/** A directory under the system temp folder, outside this repository (no node_modules above it), removed by `remove`. */
export function tempDir(label: string): { readonly dir: string; remove(): void } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `skillgate-${label}-`)));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

const PACKAGE_TEST_CACHE = path.join(os.tmpdir(), 'skillgate-package-tests-cache');

/** An environment without this repository's node_modules/.bin on PATH (npm run adds it), so only what a test installed is found. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter(
      (p) => !p.startsWith(path.join(ROOT, 'node_modules')) && !p.includes(`${path.sep}node_modules${path.sep}.bin`),
    )
    .join(path.delimiter);
  // The parse cache goes to a temporary directory, never the real home's cache.
  const env: NodeJS.ProcessEnv = { ...process.env, PATH, SKILLGATE_CACHE_DIR: PACKAGE_TEST_CACHE, ...extra };
  for (const k of Object.keys(env)) if (k.startsWith('npm_') && !(k in extra)) delete env[k];
  return env;
}

/** A small repository with agent files: a Rivumi plugin (loaded while untrusted, so `check` fails) and a Codewhale bundle. */
export function writeAgentRepo(dir: string): void {
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  write(
    '.rivumi/plugins/pack.json',
    JSON.stringify({ name: 'pack', description: 'A pack.', skills: [{ path: 'pack.md' }] }, null, 2) + '\n',
  );
  write('.rivumi/plugins/pack.md', '---\nname: pack-skill\ndescription: A skill.\n---\nDo the thing.\n');
  write(
    '.codewhale/plugins/notes/plugin.toml',
    'schema_version = 1\n[plugin]\nname = "notes"\nversion = "1.0.0"\n[skills]\npath = "skills"\n',
  );
  write(
    '.codewhale/plugins/notes/skills/notes/SKILL.md',
    '---\nname: notes\ndescription: Take notes.\n---\nTake notes.\n',
  );
  write('README.md', '# a repository\n');
}
