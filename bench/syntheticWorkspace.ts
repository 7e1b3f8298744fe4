import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * A large, realistic workspace for the benchmark: Codewhale bundles of about ten
 * files each (plugin.json, mcp.json, skills, commands, scripts), some invalid, plus
 * Rivumi skills, plugins and hooks. Deterministic, so runs compare.
 */
export interface Generated {
  readonly root: string;
  readonly bundles: number;
  readonly files: string[];
}

export function generateWorkspace(root: string, bundles: number): Generated {
  fs.rmSync(root, { recursive: true, force: true });
  const files: string[] = [];
  const write = (rel: string, content: string, mode = 0o644) => {
    const p = path.join(root, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content, { mode });
    files.push(p);
  };
  const body = (n: number) =>
    `Use this skill to handle task ${n}.\n\n${'Step by step guidance for the agent. '.repeat(20)}\n`;
  for (let i = 0; i < bundles; i++) {
    const name = `plugin-${String(i).padStart(5, '0')}`;
    const dir = `.codewhale/plugins/${name}`;
    const remote = i % 3 === 0;
    const invalid = i % 20 === 7;
    write(
      `${dir}/plugin.json`,
      JSON.stringify(
        {
          $schema: 'https://agent-plugins.org/schemas/plugin.json',
          name: invalid ? `Bad_${name}` : name,
          version: '1.0.0',
          description: `Synthetic bundle ${i}`,
          author: { name: 'Bench' },
          keywords: ['bench', `k${i % 10}`],
          extensions: {
            'net.codewhale': {
              skills: { path: 'skills' },
              commands: { path: 'commands' },
              ...(remote ? { capabilities: { network_hosts: [`h${i}.example.com`] } } : {}),
            },
          },
        },
        null,
        2,
      ),
    );
    write(
      `${dir}/mcp.json`,
      JSON.stringify(
        {
          mcpServers: remote
            ? {
                remote: {
                  url: `https://h${i}.example.com/mcp`,
                  extensions: { 'net.codewhale': { bearer_token_env_var: 'BENCH_TOKEN' } },
                },
              }
            : {
                local: {
                  command: 'node',
                  args: ['bin/server.js', '--mode=worker'],
                  env: { API_KEY: '${BENCH_API_KEY}' },
                  cwd: '.',
                },
              },
        },
        null,
        2,
      ),
    );
    for (let s = 0; s < 3; s++)
      write(
        `${dir}/skills/skill-${s}/SKILL.md`,
        `---\nname: skill-${s}\ndescription: Skill ${s} of bundle ${i}\n---\n${body(s)}`,
      );
    write(`${dir}/commands/run.md`, `---\ndescription: Run it\n---\nRun the thing.\n`);
    write(`${dir}/commands/check.md`, `---\ndescription: Check it\n---\nCheck the thing.\n`);
    write(`${dir}/bin/server.js`, `// server ${i}\n${'console.log("tick");\n'.repeat(40)}`, 0o755);
    write(`${dir}/README.md`, `# ${name}\n\n${'Documentation line.\n'.repeat(30)}`);
    write(`${dir}/LICENSE`, 'MIT\n');
  }
  for (let s = 0; s < 20; s++)
    write(
      `.rivumi/skills/skill-${String(s).padStart(2, '0')}.md`,
      `---\nname: rskill-${s}\ndescription: Rivumi skill ${s}\n---\n${body(s)}`,
    );
  write('.rivumi/skills/broken.md', '---\nunknown: key\n---\nbody\n');
  for (let p = 0; p < 18; p++) {
    write(`.rivumi/plugins/pack-${String(p).padStart(2, '0')}.md`, `---\nname: packed\n---\n${body(p)}`);
    write(
      `.rivumi/plugins/pack-${String(p).padStart(2, '0')}.json`,
      JSON.stringify(
        {
          name: `pack-${p}`,
          skills: [{ path: `pack-${String(p).padStart(2, '0')}.md` }],
          hooks: { pre_tool_use: [{ command: ['python', 'hooks/check.py'], tools: ['read_file'] }] },
        },
        null,
        2,
      ),
    );
  }
  write(
    '.rivumi/hooks.json',
    JSON.stringify({ pre_tool_use: [{ command: ['python', 'hooks/check.py'], timeout_seconds: 2 }] }, null, 2),
  );
  write('hooks/check.py', 'print("{}")\n');
  return { root, bundles, files };
}
