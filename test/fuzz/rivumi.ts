import type { Rng } from './random';
import { CONTROL_STRINGS, ENGINE_FENCES, EXECUTING_ARGV } from './payloads';

/** One generated file of a random `.rivumi/` tree, workspace-relative. */
export interface GeneratedFile {
  readonly path: string;
  readonly text: string;
  readonly mode?: number;
}

const SKILL_NAMES = [
  'alpha',
  'beta',
  'review',
  'Review',
  'a b',
  'A-B',
  'a_b',
  '__proto__',
  'x'.repeat(70),
  '-bad',
  'caf\u00e9',
  'ok.name',
  'z9',
];
const EVENTS = ['pre_tool_use', 'post_tool_use', 'approval_request', 'pre_compact', 'post_compact'];
const TOOLS = ['*', 'read_file', 'write_file', '', ' ', 'shell\x1b[2K', '__proto__'];
const SCRIPTS = ['scripts/run.sh', 'scripts/guard.py', 'scripts/pre.js', 'scripts/main.js', 'tools/h.sh'];
const HOOK_ARGV: readonly (readonly string[])[] = [
  ['bash', 'scripts/run.sh'],
  ['python3', 'scripts/guard.py', '--strict'],
  ['node', '--require=./scripts/pre.js', 'scripts/main.js'],
  ['bash', '../outside/run.sh'],
  ['bash', 'tools/h.sh'],
  ['bash', 'r\udcff.sh'],
  ['bash', 'scripts/\x1b[2Krun.sh'],
  ['bash', './scripts/run.sh'],
  ['bash', 'scripts//run.sh'],
  ...EXECUTING_ARGV,
];

function skillText(rng: Rng, name: string): string {
  const description = rng.bool(0.3)
    ? rng.pick(CONTROL_STRINGS)
    : rng.bool(0.1)
      ? 'd'.repeat(rng.pick([399, 400, 401, 5000]))
      : `Skill ${name}.`;
  const body = rng.bool(0.1) ? '' : rng.bool(0.1) ? 'b'.repeat(rng.pick([32000, 33000])) : `Do the ${name} thing.`;
  switch (rng.int(8)) {
    case 0:
      return body;
    case 1: {
      const e = rng.pick(ENGINE_FENCES);
      return `${e.fence}\n${e.block}\n---\n${body}\n`;
    }
    case 2:
      return `---\nname: ${name}\nextra: field\n---\n${body}\n`;
    case 3:
      return `---\nname: ${name}\ndescription: ${description}\n${body}\n`;
    default:
      return `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;
  }
}

function hookEntry(rng: Rng): Record<string, unknown> {
  const entry: Record<string, unknown> = { command: [...rng.pick(HOOK_ARGV)] };
  if (rng.bool(0.4)) entry.tools = Array.from({ length: rng.range(0, 3) }, () => rng.pick(TOOLS));
  if (rng.bool(0.3)) entry.timeout_seconds = rng.pick<unknown>([2, 0, 30, 31, '2', true, null]);
  return entry;
}

function hooksObject(rng: Rng): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const ev of EVENTS) if (rng.bool(0.35)) out[ev] = Array.from({ length: rng.range(1, 3) }, () => hookEntry(rng));
  if (Object.keys(out).length === 0) out.pre_tool_use = [hookEntry(rng)];
  return out;
}

/**
 * A random Rivumi tree: project skills, `hooks.json`, plugin manifests with their
 * skills and hooks, and the scripts hooks name (some missing on purpose).
 */
export function generateRivumi(rng: Rng): GeneratedFile[] {
  const files: GeneratedFile[] = [];
  const skillCount = rng.weighted([
    [3, 0],
    [4, 1],
    [3, 2],
    [1, 4],
    [1, 17],
  ]);
  for (let i = 0; i < skillCount; i++) {
    const name = skillCount > 4 ? `s${String(i).padStart(2, '0')}` : rng.pick(SKILL_NAMES);
    files.push({ path: `.rivumi/skills/${name}${rng.bool(0.9) ? '.md' : '.MD'}`, text: skillText(rng, name) });
  }
  if (rng.bool(0.6))
    files.push({ path: '.rivumi/hooks.json', text: JSON.stringify(hooksObject(rng), null, rng.bool(0.5) ? 2 : 0) });
  const pluginCount = rng.weighted([
    [4, 0],
    [4, 1],
    [2, 2],
    [1, 3],
  ]);
  for (let i = 0; i < pluginCount; i++) {
    const name = rng.pick(['pack', 'tools', 'Pack', '__proto__', 'a b', `p${i}`]);
    const manifest: Record<string, unknown> = {};
    if (rng.bool(0.8))
      manifest.name = rng.bool(0.9) ? name.replace(/[^A-Za-z0-9_.-]/g, '-') : rng.pick(CONTROL_STRINGS);
    manifest.description = rng.bool(0.3) ? rng.pick(CONTROL_STRINGS) : `The ${name} plugin.`;
    const skills: { path: string }[] = [];
    for (let s = 0, n = rng.range(0, 2); s < n; s++) {
      const rel = rng.pick([`${name}-s${s}.md`, `${name}/s${s}.md`, `../skills/x${s}.md`, `s${s}.MD`]);
      skills.push({ path: rel });
      if (rng.bool(0.85))
        files.push({ path: `.rivumi/plugins/${rel}`.replace(/\/[^/]+\/\.\.\//, '/'), text: skillText(rng, `ps${s}`) });
    }
    manifest.skills = skills;
    if (rng.bool(0.5)) manifest.hooks = hooksObject(rng);
    if (rng.bool(0.3))
      manifest.discovery = {
        keywords: ['x'],
        homepage: rng.pick(['https://example.com', 'javascript:alert(1)', 'https://e.example/\x1b[2K']),
      };
    files.push({ path: `.rivumi/plugins/${name}.json`, text: JSON.stringify(manifest, null, 2) });
  }
  for (const s of SCRIPTS)
    if (rng.bool(0.5)) files.push({ path: s, text: `#!/bin/sh\necho ${s}\n`, mode: rng.bool(0.5) ? 0o755 : 0o644 });
  return files;
}
