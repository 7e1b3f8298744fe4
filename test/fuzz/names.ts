/**
 * Names a hostile repository can give its files and directories: terminal escapes,
 * bytes that are not UTF-8, prototype keys, case variants of the names the agents look
 * for, invisible and confusable characters, URI delimiters, and long names.
 */
const TEXT_NAMES = [
  '\x1b[1A\x1b[2Kinnocent',
  '\x1b]0;pwned\x07',
  '\x1b]8;;https://evil.example/\x07link',
  'a\rb',
  'tab\there',
  'nl\nname',
  '\u009b31mred',
  'del\x7f',
  'bell\x07',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'toString',
  'PLUGIN.TOML',
  'Plugin.json',
  'SKILL.MD',
  'skill.md',
  'MCP.JSON',
  'Hooks.json',
  'skills',
  'plugin.toml',
  'plugin.json',
  'mcp.json',
  'hooks.json',
  '\uff01',
  '\u{1f600}',
  '\u202egnp.md',
  'zero\u200bwidth',
  'a#b',
  'a?b',
  'a%2Fb',
  ' lead',
  'trail ',
  '-dash',
  '.hidden',
  '..dots',
  'a b',
  'A-B',
  'a_b',
  'x'.repeat(250),
  'x.md',
  'x.json',
];

const RAW_NAMES = [
  Buffer.from('bad\xff', 'latin1'),
  Buffer.from('\xc3', 'latin1'),
  Buffer.from('\xed\xa0\x80.md', 'latin1'),
  Buffer.from('\xff.json', 'latin1'),
  Buffer.from('caf\xe9', 'latin1'),
];

export const NAME_POOL: readonly Buffer[] = [...TEXT_NAMES.map((n) => Buffer.from(n, 'utf8')), ...RAW_NAMES];

/** Case variants and decorated copies of an existing name (`SKILL.md` → `skill.md`, `SKILL.md\x1b`). */
export function variantsOf(name: Buffer): Buffer[] {
  const t = name.toString('latin1');
  return [
    Buffer.from(t.toUpperCase(), 'latin1'),
    Buffer.from(t.toLowerCase(), 'latin1'),
    Buffer.from(t.charAt(0).toUpperCase() + t.slice(1), 'latin1'),
    Buffer.concat([name, Buffer.from('\x1b[0m')]),
    Buffer.concat([Buffer.from('\u202e', 'utf8'), name]),
    Buffer.concat([name, Buffer.from([0xff])]),
    Buffer.concat([name, Buffer.from(' ')]),
  ];
}
