import type { Item } from '../model';
import type { ReviewReport } from '../trust/reviewBundle';
import { systemOf } from '../systems/registry';
import type { ReviewViewModel } from './reviewModel';
import type { ShowText } from './shown';

/**
 * The unit's contract in its agent's terms (AgentSystem.reviewContract), or as its agent's own
 * review states it; every value the bundle wrote shown with its invisible characters marked.
 */
export function contractView(r: ReviewReport, current: Item, S: ShowText): ReviewViewModel['contract'] {
  const agent = systemOf(r.item.system);
  // An agent with a review of its own (Codewhale's `/plugin show`) states the unit and its servers in its words.
  const agentReview = agent.reviewLines;
  const stated = agentReview && r.capabilities ? agentReview.contract(r.item, r.capabilities, current) : null;
  const contract = agent.reviewContract?.(current) ?? stated;
  return contract === null
    ? null
    : { title: contract.title, rows: contract.rows.map((row) => ({ label: row.label, value: S(row.value) })) };
}
