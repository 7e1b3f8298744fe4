import { displayText, hasUnsafeForDisplay } from '../text/displayText';
import type { Shown } from './reviewModel';

/** Bundle text as the review shows it, with its invisible characters marked. */
export type ShowText = (text: unknown) => Shown;

export function shown(text: unknown): Shown {
  const s = typeof text === 'string' ? text : text === undefined || text === null ? '' : JSON.stringify(text);
  // A tab is marked like every control character, but it is ordinary whitespace in a diff, not a hidden one.
  return { text: displayText(s), hidden: hasUnsafeForDisplay(s.replace(/\t/g, ' ')) };
}

/** Skillgate's own words in a field that may hold bundle text instead: nothing in them to escape, flag or count. */
export function ownWords(text: string): Shown {
  return { text, hidden: false };
}

/**
 * The strings of one review, shown and counted as they are made: the panel says how many
 * held invisible characters (ReviewViewModel `hiddenCount`), wherever in the review they are.
 */
export interface ShownStrings {
  readonly show: ShowText;
  /** A string shown otherwise (the text an agent reads keeps its lines), counted the same. */
  readonly counted: <T extends Shown>(x: T) => T;
  /** How many of the strings shown so far held invisible characters. */
  readonly hidden: number;
}

export function shownStrings(): ShownStrings {
  let hidden = 0;
  const counted = <T extends Shown>(x: T): T => {
    if (x.hidden) hidden++;
    return x;
  };
  return {
    show: (text) => counted(shown(text)),
    counted,
    get hidden() {
      return hidden;
    },
  };
}
