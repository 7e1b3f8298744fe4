// `npm run demo`: the packaged extension in a real VS Code (code-server) on the bundled
// demo workspace, with examples/demo-home as Codewhale's home for the user bundle and
// as the home whose ~/.codex/skills Eva-CLI lists (a user setting, as a user would set it).
// Prints the URL to open; Ctrl+C stops it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PROJECT_ROOT, installVsix, startCodeServer } from '../test/support/codeServer';
import { freshProfile } from '../test/support/workbench';

async function main(): Promise<void> {
  const port = Number(process.env.SKILLGATE_DEMO_PORT ?? 8080);
  const host = process.env.SKILLGATE_DEMO_HOST ?? '127.0.0.1';
  const home = path.join(PROJECT_ROOT, 'examples/demo-home');
  const profile = freshProfile('demo', { 'skillgate.eva.home': home });
  await installVsix(path.join(PROJECT_ROOT, 'dist/skillgate.vsix'), profile.extensionsDir, profile.userDataDir);
  const logFile = path.join(profile.root, 'code-server.log');
  const server = await startCodeServer({
    extensionsDir: profile.extensionsDir,
    userDataDir: profile.userDataDir,
    logFile,
    port,
    host,
    disableWorkspaceTrust: process.env.SKILLGATE_DEMO_RESTRICTED !== '1',
    // The demo keeps its trust decisions apart from your real store (~/.local/state/skillgate).
    env: {
      CODEWHALE_HOME: home,
      SKILLGATE_STATE_DIR: process.env.SKILLGATE_STATE_DIR ?? path.join(PROJECT_ROOT, '.vscode-test/demo-state'),
    },
  });
  const url = server.folderUrl(path.join(PROJECT_ROOT, 'examples/demo-workspace'));
  console.log(
    `\nSkillgate demo is running.\n\n  Open: ${url}\n\nThen click the shield in the activity bar. Server log: ${logFile}\nPress Ctrl+C to stop.\n`,
  );
  const stop = async () => {
    await server.stop();
    fs.rmSync(profile.root, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  await new Promise(() => undefined);
}

main().catch((e) => {
  console.error(`demo: ${(e as Error).message}`);
  process.exit(1);
});
