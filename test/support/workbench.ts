import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, PROJECT_ROOT } from './codeServer';
import { DIAGNOSTICS_PAGE } from '../../src/core/diagnostics/diagnosticsPage';

/** A fresh, throwaway VS Code profile: no welcome page, no git prompts, no telemetry; `settings`: user settings of its own. */
export function freshProfile(
  name: string,
  settings: Readonly<Record<string, unknown>> = {},
): { root: string; extensionsDir: string; userDataDir: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `skillgate-${name}-`));
  const userDataDir = path.join(root, 'data');
  const extensionsDir = path.join(root, 'extensions');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'git.openRepositoryInParentFolders': 'never',
        'git.enabled': false,
        'telemetry.telemetryLevel': 'off',
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'workbench.colorTheme': 'Default Light Modern',
        ...settings,
      },
      null,
      2,
    ),
  );
  return { root, extensionsDir, userDataDir };
}

/** Puts a development build where code-server loads extensions from (`<publisher>.<name>-<version>`). */
export function placeDevelopmentBuild(extensionsDir: string): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
    publisher: string;
    name: string;
    version: string;
  };
  const dest = path.join(extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`);
  fs.mkdirSync(path.join(dest, 'dist'), { recursive: true });
  fs.copyFileSync(path.join(PROJECT_ROOT, 'package.json'), path.join(dest, 'package.json'));
  // The extension and its index worker are faces over the shared core (dist/core.js): all ship.
  for (const bundle of ['extension.js', 'indexWorker.js', 'core.js'])
    fs.copyFileSync(path.join(PROJECT_ROOT, 'dist', bundle), path.join(dest, 'dist', bundle));
  fs.cpSync(path.join(PROJECT_ROOT, 'media'), path.join(dest, 'media'), { recursive: true });
  // The VSIX ships the diagnostics page too (.vscodeignore): code links and "Show the documentation" open it.
  fs.mkdirSync(path.join(dest, 'docs'), { recursive: true });
  fs.copyFileSync(path.join(PROJECT_ROOT, ...DIAGNOSTICS_PAGE), path.join(dest, ...DIAGNOSTICS_PAGE));
  return dest;
}

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing; run \`bash scripts/setup-test-host.sh\``);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** Opens the workbench for a folder and waits until it is interactive. */
export async function openWorkbench(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  // A loaded machine takes longer than playwright's default 30 s to load the workbench's scripts.
  await page.goto(url, { timeout: 90000 });
  await page.waitForSelector('.monaco-workbench .part.activitybar', { timeout: 90000 });
  return page;
}
