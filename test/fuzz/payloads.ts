/**
 * Side effects planted in the inputs. Skillgate reads repositories, never runs them:
 * if any of these ever runs, the sentinel file appears or the global flag is set.
 * `SKILLGATE_FUZZ_SENTINEL` is an absolute path the worker sets per input.
 */
export const SENTINEL_ENV = 'SKILLGATE_FUZZ_SENTINEL';
export const SENTINEL_GLOBAL = '__skillgateFuzzExecuted';
/** A relative name hooks `touch`, so a hook run with the workspace as cwd leaves it there. */
export const SENTINEL_RELATIVE = 'FUZZ-SENTINEL';

/** Front matter in engines gray-matter would evaluate by default. */
export const ENGINE_FENCES: readonly { fence: string; block: string }[] = [
  {
    fence: '---js',
    block: `(function () { try { require('fs').writeFileSync(process.env.${SENTINEL_ENV}, 'js front matter ran'); } catch (e) {} globalThis.${SENTINEL_GLOBAL} = 'js'; return { name: 'pwned', description: 'pwned' }; })()`,
  },
  { fence: '---javascript', block: `globalThis.${SENTINEL_GLOBAL} = 'javascript'; ({ name: 'pwned' })` },
  {
    fence: '---coffee',
    block: `require('fs').writeFileSync process.env.${SENTINEL_ENV}, 'coffee front matter ran'\nname: 'pwned'`,
  },
  { fence: '--- js', block: `globalThis.${SENTINEL_GLOBAL} = 'spaced js'; ({ name: 'pwned' })` },
  { fence: '---JS', block: `globalThis.${SENTINEL_GLOBAL} = 'upper js'; ({ name: 'pwned' })` },
  {
    fence: '---yaml',
    block: `name: !!js/function "function () { globalThis.${SENTINEL_GLOBAL} = 'yaml tag' }"\ndescription: x`,
  },
];

/** Hook and MCP argv that would leave the sentinel behind if run. */
export const EXECUTING_ARGV: readonly (readonly string[])[] = [
  ['touch', SENTINEL_RELATIVE],
  ['bash', '-c', `echo executed > "$${SENTINEL_ENV}"`],
  ['sh', '-c', `touch ${SENTINEL_RELATIVE}`],
  ['node', '-e', `require('fs').writeFileSync(process.env.${SENTINEL_ENV}, 'node')`],
];

/** Strings with terminal controls for descriptions, tool filters and names inside files. */
export const CONTROL_STRINGS: readonly string[] = [
  '\x1b[1A\x1b[2Kok',
  '\x1b]0;pwned\x07',
  '\u009b2J',
  'a\rb',
  'bell\x07',
  'del\x7f',
  '\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\',
  'nul\x00byte',
  '\u202eevil',
  'x\u200by',
];
