import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { PROJECT_ROOT, installVsix, startCodeServer } from './codeServer';
import { freshProfile, launchBrowser, openWorkbench } from './workbench';

export const RESULTS = path.join(PROJECT_ROOT, 'test-results');
export const DEMO_SOURCE = path.join(PROJECT_ROOT, 'examples/demo-workspace');
export const DEMO_HOME = path.join(PROJECT_ROOT, 'examples/demo-home');
export const VSIX = path.join(PROJECT_ROOT, 'dist/skillgate.vsix');

export interface DemoOptions {
  /** Names the throwaway profile and prefixes this suite's screenshots and logs in test-results/. */
  readonly name: string;
  /** The folder name of the demo's copy, as the workbench shows it. */
  readonly folder?: string;
  /** Adds fixtures to the copy, or trusts from the CLI, before the server starts. */
  readonly prepare?: (demo: string, stateDir: string, root: string) => void;
  /** Leave VS Code's Workspace Trust prompt on (the Restricted Mode suite); otherwise the folder is trusted. */
  readonly workspaceTrust?: boolean;
  /** `CODEWHALE_HOME` for the server; default: the demo's user bundles. */
  readonly codewhaleHome?: (root: string) => string;
  /** The VSIX to install; default: what `npm run package` wrote. */
  readonly vsix?: string;
  /** User settings beside the profile's own. */
  readonly settings?: Readonly<Record<string, unknown>>;
}

/**
 * Trusts a bundle of the demo's copy from the built CLI into `stateDir`, as a person would
 * before opening the window (and enables it when asked): for a `prepare` step.
 */
export function trustFromCli(demo: string, stateDir: string, name: string, { enable = false } = {}): void {
  const sg = (...args: string[]) =>
    execFileSync(
      process.execPath,
      [path.join(PROJECT_ROOT, 'dist/cli.js'), '--workspace', demo, '--no-user', '--no-cache', ...args],
      { env: { ...process.env, SKILLGATE_STATE_DIR: stateDir }, encoding: 'utf8' },
    );
  const token = (JSON.parse(sg('review', name, '--json')) as { reviewToken: string }).reviewToken;
  sg('trust', name, token);
  if (enable) sg('enable', name);
}

/** The packaged extension in a real workbench on a copy of the demo workspace, with a trust store of its own. */
export interface DemoWorkbench {
  readonly page: Page;
  /** The demo's copy: tests edit it freely. */
  readonly demo: string;
  readonly stateDir: string;
  /** A screenshot after each test; on failure the server log beside it. */
  capture(test: Mocha.Test | undefined): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Installs the VSIX into a fresh profile, copies the demo, starts code-server and opens
 * the folder in Chromium: the setup every browser suite shares, so each suite states only
 * what differs (its fixtures, Restricted Mode, its user home).
 */
export async function startDemoWorkbench(options: DemoOptions): Promise<DemoWorkbench> {
  const vsix = options.vsix ?? VSIX;
  if (!fs.existsSync(vsix)) throw new Error(`${vsix} is missing; run \`npm run package\` first`);
  // Eva-CLI's user skills come from the demo's home too, never from the home of whoever runs the suite.
  const profile = freshProfile(`e2e-${options.name}`, { 'skillgate.eva.home': DEMO_HOME, ...options.settings });
  try {
    return await openDemo(options, vsix, profile);
  } catch (e) {
    removeProfile(profile.root);
    throw e;
  }
}

/**
 * The profile, the demo's copy and the trust store are the suite's alone: gone with it.
 * Kept with SKILLGATE_E2E_KEEP_PROFILES=1, to look into a run: the extension host's logs
 * (Skillgate's among them) are in its `data/logs`.
 */
function removeProfile(root: string): void {
  if (process.env.SKILLGATE_E2E_KEEP_PROFILES !== '1') fs.rmSync(root, { recursive: true, force: true });
}

async function openDemo(
  options: DemoOptions,
  vsix: string,
  profile: ReturnType<typeof freshProfile>,
): Promise<DemoWorkbench> {
  await installVsix(vsix, profile.extensionsDir, profile.userDataDir);
  const demo = path.join(profile.root, options.folder ?? 'demo-workspace');
  fs.cpSync(DEMO_SOURCE, demo, { recursive: true });
  const stateDir = path.join(profile.root, 'state');
  options.prepare?.(demo, stateDir, profile.root);
  fs.mkdirSync(RESULTS, { recursive: true });
  const logFile = path.join(RESULTS, `e2e-${options.name}-code-server.log`);
  fs.rmSync(logFile, { force: true });
  const server = await startCodeServer({
    extensionsDir: profile.extensionsDir,
    userDataDir: profile.userDataDir,
    logFile,
    ...(options.workspaceTrust ? {} : { disableWorkspaceTrust: true }),
    env: {
      CODEWHALE_HOME: options.codewhaleHome ? options.codewhaleHome(profile.root) : DEMO_HOME,
      SKILLGATE_STATE_DIR: stateDir,
    },
  });
  const browser = await launchBrowser().catch(async (e: unknown) => {
    await server.stop();
    throw e;
  });
  const page = await openWorkbench(browser, server.folderUrl(demo)).catch(async (e: unknown) => {
    await browser.close();
    await server.stop();
    throw e;
  });
  return {
    page,
    demo,
    stateDir,
    async capture(test) {
      const slug = (test?.title ?? 'test')
        .replace(/[^a-z0-9]+/gi, '-')
        .toLowerCase()
        .slice(0, 80);
      await page.screenshot({ path: path.join(RESULTS, `e2e-${options.name}-${slug}.png`) });
      if (test?.state === 'failed' && fs.existsSync(logFile))
        fs.copyFileSync(logFile, path.join(RESULTS, `e2e-${options.name}-${slug}.log`));
    },
    async stop() {
      await browser.close();
      await server.stop();
      removeProfile(profile.root);
    },
  };
}
