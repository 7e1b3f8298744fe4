import * as path from 'node:path';
import * as vm from 'node:vm';
import { buildSync } from 'esbuild';
import type { ReviewViewModel } from '../../../src/core/review/reviewModel';

/**
 * The review panel's script as esbuild.mjs bundles it into media/review.js, run in a context
 * of its own over a stand-in DOM: the few calls it makes (createElement, textContent, append,
 * attributes), recorded as a tree a test can read. The page itself, in Chromium, is an e2e
 * suite's (test/e2e/reviewScript.e2e.ts); this one reaches every field of a view model in a unit test.
 */
export class StandInElement {
  readonly children: StandInElement[] = [];
  className = '';
  id = '';
  title = '';
  private ownText = '';
  private readonly attributes = new Map<string, string>();
  readonly classList = { add: (c: string) => void (this.className = `${this.className} ${c}`.trim()) };

  constructor(readonly tagName: string) {}

  /** The text set on this element itself, not its children's. */
  get text(): string {
    return this.ownText;
  }

  get textContent(): string {
    return this.ownText + this.children.map((c) => c.textContent).join('');
  }

  set textContent(text: string) {
    this.ownText = text;
    this.children.length = 0;
  }

  get childElementCount(): number {
    return this.children.length;
  }

  append(...nodes: (StandInElement | string)[]): void {
    for (const n of nodes)
      this.children.push(typeof n === 'string' ? Object.assign(new StandInElement('#text'), { textContent: n }) : n);
  }

  replaceChildren(...nodes: StandInElement[]): void {
    this.children.length = 0;
    this.append(...nodes);
  }

  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }

  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }

  private readonly listeners = new Map<string, ((e: { preventDefault(): void }) => void)[]>();

  addEventListener(type: string, listener: (e: { preventDefault(): void }) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  /** The person's click (or a `<details>` toggled): the listeners the script added, in order. */
  dispatch(type: string): void {
    for (const l of this.listeners.get(type) ?? []) l({ preventDefault: () => undefined });
  }

  // The script builds with createElement and textContent only: markup from it would be parsed by the page.
  set innerHTML(_html: string) {
    throw new Error('the review script set innerHTML');
  }

  set outerHTML(_html: string) {
    throw new Error('the review script set outerHTML');
  }

  insertAdjacentHTML(): void {
    throw new Error('the review script called insertAdjacentHTML');
  }

  querySelector(tag: string): StandInElement | null {
    for (const c of this.children) {
      if (c.tagName === tag) return c;
      const inner = c.querySelector(tag);
      if (inner) return inner;
    }
    return null;
  }

  /** This element and every one under it, depth first. */
  *all(): Generator<StandInElement> {
    yield this;
    for (const c of this.children) yield* c.all();
  }
}

let script: string | undefined;

/** The panel's page with its script loaded: what it posts and saves, and the host's messages to it. */
export interface ReviewPage {
  readonly root: StandInElement;
  /** What the script posted to the host (`vscode.postMessage`), in order. */
  readonly posted: unknown[];
  /** Each state the script saved (`vscode.setState`), in order. */
  readonly saved: unknown[];
  /** A message from the host, as the webview receives it: JSON, so nothing but its data reaches the page. */
  receive(message: unknown): void;
}

/** The page as VS Code opens it, with `state` the webview's saved state (a panel restored or shown again). */
export function openReviewPage(state?: unknown): ReviewPage {
  script ??= buildSync({
    entryPoints: [path.resolve(__dirname, '../../../src/extension/review/webview/review.ts')],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    write: false,
    logLevel: 'error',
  }).outputFiles[0]?.text;
  const root = new StandInElement('main');
  const posted: unknown[] = [];
  const saved: unknown[] = [];
  let onMessage: ((e: { data: unknown }) => void) | undefined;
  const page = {
    document: {
      createElement: (tag: string) => new StandInElement(tag),
      getElementById: (id: string) => [...root.all()].find((e) => e.id === id) ?? (id === 'root' ? root : null),
    },
    window: {
      addEventListener: (type: string, listener: (e: { data: unknown }) => void) =>
        void (type === 'message' && (onMessage = listener)),
    },
    acquireVsCodeApi: () => ({
      // Serialized, as VS Code passes them on: plain data of this realm.
      postMessage: (m: unknown) => void posted.push(JSON.parse(JSON.stringify(m))),
      setState: (s: unknown) => void saved.push(JSON.parse(JSON.stringify(s))),
      getState: () => state,
    }),
    // StrykerJS's mutant switch lives on this process's global, which the page's realm does not see:
    // passed in, a mutation run of the script counts and switches its mutants as it does the host's.
    __stryker__: (globalThis as { __stryker__?: unknown }).__stryker__,
  };
  vm.runInNewContext(script ?? '', page);
  return {
    root,
    posted,
    saved,
    receive: (message) => onMessage?.({ data: JSON.parse(JSON.stringify(message)) as unknown }),
  };
}

/** The panel as its script renders this model: the root element, with everything under it. */
export function renderReview(model: ReviewViewModel, changed = false): StandInElement {
  const page = openReviewPage();
  page.receive({ type: 'render', model, changed });
  return page.root;
}
