// The capabilities section: MCP servers, network hosts, hooks, skills, commands, components.
import type { ReviewViewModel, Shown } from '../../../core/review/reviewModel';
import { el, section, shownList, shownIn, shownText } from './dom';
import { hooksTable } from './hooksTable';
import { mcpCard } from './mcpCard';

export function capabilitiesSection(m: ReviewViewModel): HTMLElement {
  const caps = section('Capabilities', 'plug', 'capabilities');
  const c = m.capabilities;
  if (m.capabilitiesUnknown) caps.append(shownIn('p', 'warn', m.capabilitiesUnknown));
  if (c.mcp.length) {
    caps.append(el('h3', undefined, 'MCP servers'));
    for (const srv of c.mcp) caps.append(mcpCard(srv));
  }
  if (c.networkHosts.length) {
    caps.append(el('h3', undefined, 'Network hosts'));
    const ul = el('ul', 'chips');
    for (const h of c.networkHosts) ul.append(shownIn('li', 'mono', h));
    caps.append(ul);
  }
  if (c.hooks.length) {
    caps.append(el('h3', undefined, 'Hooks (run host commands)'));
    if (c.hooksWhen) caps.append(el('p', 'hooks-when', c.hooksWhen));
    if (c.hooksOptInText !== null) caps.append(el('p', c.hooksOptIn ? 'warn' : 'muted', c.hooksOptInText));
    caps.append(hooksTable(c.hooks));
  }
  if (c.skills.length) caps.append(el('h3', undefined, 'Skills'), skillList(c.skills));
  if (c.commands.length) caps.append(el('h3', undefined, 'Commands'), commandList(c.commands));
  if (c.components.length) caps.append(el('h3', undefined, 'Components'), componentList(c.components));
  if (caps.childElementCount === 1) caps.append(el('p', 'muted', 'This bundle declares no capabilities.'));
  return caps;
}

function skillList(skills: ReviewViewModel['capabilities']['skills']): HTMLElement {
  const ul = el('ul');
  for (const sk of skills) {
    const li = el('li', 'skill');
    li.append(shownText(sk.name, 'mono'), el('span', 'muted', ' — '), shownText(sk.description));
    if (sk.body) li.append(bodyDetails(sk.body, sk.bodyLabel));
    ul.append(li);
  }
  return ul;
}

function commandList(commands: ReviewViewModel['capabilities']['commands']): HTMLElement {
  const ul = el('ul');
  for (const c of commands) {
    const li = el('li', 'command');
    li.append(shownText(c.name, 'mono'));
    if (c.body) li.append(bodyDetails(c.body, 'Show the text the agent reads'));
    ul.append(li);
  }
  return ul;
}

function componentList(components: ReviewViewModel['capabilities']['components']): HTMLElement {
  const ul = el('ul');
  for (const c of components) {
    const li = el('li', `component ${c.active ? 'active' : 'not-active'}${c.inactive ? ' inactive' : ''}`);
    // "skills from skills/ — not active: the bundle is not trusted and enabled", never "skills skills".
    const from = el('span', 'muted');
    if (c.paths.length) from.append(el('span', undefined, ' from '), shownList(c.paths));
    li.append(
      el('span', 'mono', c.kind),
      from,
      el('span', undefined, ' — '),
      el('span', `activity ${c.active ? 'on' : 'off'}`, c.activity),
    );
    ul.append(li);
  }
  return ul;
}

/** A skill's, script's or command's text, collapsed: bundle text, so set with textContent, its invisible characters marked. */
function bodyDetails(text: Shown, label: string): HTMLElement {
  const d = el('details', 'body');
  const sum = el('summary', undefined, label);
  if (text.hidden) sum.append(el('span', 'flag', 'hidden characters'));
  const pre = el('pre', `body-text${text.hidden ? ' hidden-chars' : ''}`, text.text);
  d.append(sum, pre);
  return d;
}
