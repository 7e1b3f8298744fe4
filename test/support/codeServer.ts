import { spawn, execFile, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { promisify } from 'node:util';

/**
 * Runs a real VS Code workbench (code-server, installed by scripts/setup-test-host.sh)
 * for the in-host integration tests, the browser end-to-end tests and `npm run demo`.
 */
export const PROJECT_ROOT = path.resolve(__dirname, '../..');
export const CODE_SERVER = path.join(PROJECT_ROOT, '.vscode-test/code-server/node_modules/.bin/code-server');

export function requireCodeServer(): string {
  if (!fs.existsSync(CODE_SERVER)) {
    throw new Error(`code-server is not installed at ${CODE_SERVER}; run \`bash scripts/setup-test-host.sh\` first`);
  }
  return CODE_SERVER;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Installs a packaged VSIX the way a user does (`--install-extension`). */
export async function installVsix(vsix: string, extensionsDir: string, userDataDir: string): Promise<void> {
  await promisify(execFile)(
    requireCodeServer(),
    ['--extensions-dir', extensionsDir, '--user-data-dir', userDataDir, '--install-extension', vsix],
    { timeout: 120000 },
  );
}

export interface CodeServer {
  readonly url: string;
  readonly logFile: string;
  /** The workbench URL for a folder. */
  folderUrl(folder: string): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  readonly extensionsDir: string;
  readonly userDataDir: string;
  readonly logFile: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Trust every workspace (no Restricted Mode prompt). */
  readonly disableWorkspaceTrust?: boolean;
  readonly port?: number;
  readonly host?: string;
}

export async function startCodeServer(opts: StartOptions): Promise<CodeServer> {
  const port = opts.port ?? (await freePort());
  const host = opts.host ?? '127.0.0.1';
  fs.mkdirSync(path.dirname(opts.logFile), { recursive: true });
  const log = fs.openSync(opts.logFile, 'a');
  const args = [
    '--auth',
    'none',
    '--bind-addr',
    `${host}:${port}`,
    '--extensions-dir',
    opts.extensionsDir,
    '--user-data-dir',
    opts.userDataDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
  ];
  if (opts.disableWorkspaceTrust) args.push('--disable-workspace-trust');
  const child: ChildProcess = spawn(requireCodeServer(), args, {
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', log, log],
    detached: true,
  });
  const url = `http://${host}:${port}`;
  const deadline = Date.now() + 60000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`code-server exited with ${child.exitCode}; see ${opts.logFile}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`code-server did not answer on ${url} within 60 s; see ${opts.logFile}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    logFile: opts.logFile,
    folderUrl: (folder) => `${url}/?folder=${encodeURIComponent(folder)}`,
    stop: async () => {
      if (child.exitCode !== null || child.pid === undefined) return;
      const exited = new Promise((r) => child.once('exit', r));
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      fs.closeSync(log);
    },
  };
}

/** Chromium flags that work on these machines (shared/real-vscode.md). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
export const CHROMIUM = '/usr/bin/chromium';
