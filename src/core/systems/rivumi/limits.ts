/**
 * Rivumi's load caps, as its own modules define them (rivumi.md §3.1 skills.py, §4.1
 * hooks.py, §5.1 plugins.py). The skill and plugin caps decide which files Rivumi ever
 * opens, so the load, the items and the trust units all count with these same numbers.
 */

/** skills.py `MAX_SKILLS`: skills loaded in total, project and plugin (§3.2, §5.5). */
export const MAX_SKILLS = 16;
/** skills.py `MAX_SKILL_BYTES`: a skill file's size limit; exactly 32768 bytes is accepted (§3.3). */
export const MAX_SKILL_BYTES = 32768;
/** plugins.py `MAX_PLUGINS`: a silent cap, later manifests are never read (§5.4). */
export const MAX_PLUGINS = 16;
/** plugins.py `MAX_PLUGIN_MANIFEST_BYTES` (§5.4 check 2). */
export const MAX_PLUGIN_MANIFEST_BYTES = 65536;
/** hooks.py `MAX_HOOK_CONFIG_BYTES` (§4.4 step 1). */
export const MAX_HOOK_CONFIG_BYTES = 65536;
/** hooks.py `MAX_HOOKS_PER_EVENT`, counted after the plugins' entries are merged (§4.3). */
export const MAX_HOOKS_PER_EVENT = 16;
/** hooks.py: a hook's label (its argv joined by single spaces) is at most 512 characters (§4.1, §4.7). */
export const MAX_HOOK_LABEL_CHARS = 512;
