/** A tiny element builder: `h('a', { href }, 'text', child)`. Strings become text nodes (never HTML). */
type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

/** Replaces everything in `parent`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** `0x1234…abcd` for a long hash or address (the full value stays in the title). */
export function shorten(value: string, keep = 6): string {
  return value.length <= keep * 2 + 3 ? value : `${value.slice(0, keep + (value.startsWith('0x') ? 2 : 0))}…${value.slice(-keep)}`;
}

/** A unix-milliseconds time as the simulator's (virtual) clock shows it, UTC. */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', ' UTC');
}

export function statusBadge(status: string, testId?: string): HTMLElement {
  return h('span', { class: `status status-${status}`, 'data-testid': testId }, status);
}

/** A two-column table of label → value. */
export function facts(rows: Array<[string, Child | Child[]]>): HTMLTableElement {
  return h(
    'table',
    { class: 'facts' },
    h('tbody', {}, ...rows.map(([label, value]) => h('tr', {}, h('th', {}, label), h('td', {}, ...(Array.isArray(value) ? value : [value]))))),
  );
}

export function errorBox(error: unknown): HTMLElement {
  return h('div', { class: 'error', 'data-testid': 'error' }, error instanceof Error ? error.message : String(error));
}
