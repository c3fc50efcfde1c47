import { errorBox, h, replaceChildren, statusBadge } from './dom';
import { timelineList, type TimelineItem } from './requestTimeline';

/**
 * A scenario run's timeline file (`intentsim scenario run --out DIR`, src/scenario/ScenarioTimeline.ts),
 * read in the browser: `# header` lines, then `+   1.234s  text` per entry (virtual time since
 * the scenario started). A JSON array of `{ at, text }` reads the same.
 */
export function parseTimelineFile(text: string): { header: string[]; entries: Array<{ at: number; text: string }> } {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    const entries = JSON.parse(trimmed) as Array<{ at: number; text: string }>;
    if (!Array.isArray(entries) || entries.some((entry) => typeof entry.at !== 'number' || typeof entry.text !== 'string')) throw new Error('a JSON timeline is an array of { at, text }');
    return { header: [], entries };
  }
  const header: string[] = [];
  const entries: Array<{ at: number; text: string }> = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      header.push(line.replace(/^#\s?/, ''));
      continue;
    }
    const match = /^([+-])\s*(\d+\.\d{3})s {2}(.*)$/.exec(line);
    if (!match) throw new Error(`line ${index + 1} is not a timeline entry ("+   1.234s  text"): ${line.slice(0, 80)}`);
    entries.push({ at: Math.round(Number(match[2]) * 1000) * (match[1] === '-' ? -1 : 1), text: match[3]! });
  }
  return { header, entries };
}

const STATUS_CHANGE = /^(\S+) {2}(\(new\)|\w+) → (\w+)(.*)$/;

function itemOf(entry: { at: number; text: string }): TimelineItem {
  const change = STATUS_CHANGE.exec(entry.text);
  if (change) {
    const [, alias, from, to, rest] = change;
    return { at: entry.at, kind: 'status', content: [h('strong', {}, `${alias} `), from === '(new)' ? '(new)' : statusBadge(from!), ' → ', statusBadge(to!), rest ?? ''] };
  }
  const kind = /\bwebhook\b/.test(entry.text) ? 'webhook' : /\breorg/.test(entry.text) ? 'reorg' : /inTx|outTx/.test(entry.text) ? 'transaction' : 'note';
  return { at: entry.at, kind, content: [entry.text] };
}

function offset(ms: number): string {
  return `${ms < 0 ? '-' : '+'}${(Math.abs(ms) / 1000).toFixed(3)}s`;
}

/** Opens a timeline file picked or dropped on the page; nothing leaves the browser. */
export async function renderTimelineFile(root: HTMLElement): Promise<void> {
  const output = h('div', { 'data-testid': 'timeline-file-output' });
  const show = async (file: File) => {
    try {
      const parsed = parseTimelineFile(await file.text());
      replaceChildren(output, h('h2', {}, file.name), ...parsed.header.map((line) => h('p', { class: 'note' }, line)), timelineList(parsed.entries.map(itemOf).sort((a, b) => a.at - b.at), offset));
    } catch (error) {
      replaceChildren(output, errorBox(error));
    }
  };
  const picker = h('input', { type: 'file', accept: '.timeline,.txt,.json', 'data-testid': 'timeline-file-input' });
  picker.addEventListener('change', () => {
    const file = picker.files?.[0];
    if (file) void show(file);
  });
  const zone = h('div', { class: 'drop-zone', 'data-testid': 'drop-zone' }, 'Drop a timeline file here (', h('code', {}, 'intentsim scenario run FILE --out DIR'), ' writes DIR/<scenario>.timeline), or pick one: ', picker);
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('dragging');
    const file = event.dataTransfer?.files[0];
    if (file) void show(file);
  });
  replaceChildren(root, h('h1', {}, 'Scenario timeline'), zone, output);
}
