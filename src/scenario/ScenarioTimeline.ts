/**
 * One scenario's timeline: what happened, step by step, on the virtual clock. It holds no
 * wall-clock value, port or temporary path, so the same seed and file give the same bytes.
 * Entries that arrive while a step settles (status changes, webhook deliveries) are ordered by
 * request (in the order the scenario named them), then by their own sequence, not by arrival.
 */
export interface TimelineEntry {
  /** Milliseconds of virtual time since the scenario started. */
  at: number;
  text: string;
}

interface PendingEntry extends TimelineEntry {
  order: readonly number[];
}

function compareOrder(a: readonly number[], b: readonly number[]): number {
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    const difference = (a[index] ?? -1) - (b[index] ?? -1);
    if (difference !== 0) return difference;
  }
  return 0;
}

export class ScenarioTimeline {
  private readonly entries: TimelineEntry[] = [];
  private pending: PendingEntry[] = [];

  constructor(private readonly startMs: number) {}

  /** An entry in the order of the scenario's own actions (a step); what arrived during it follows at the next flush. */
  add(nowMs: number, text: string): void {
    this.entries.push({ at: nowMs - this.startMs, text });
  }

  /** An entry that arrived on its own; `order` places it among the others of this step. */
  addArrived(nowMs: number, order: readonly number[], text: string): void {
    this.pending.push({ at: nowMs - this.startMs, order, text });
  }

  /** Places the entries that arrived since the last step, in their deterministic order. */
  flush(): void {
    const arrived = this.pending.sort((a, b) => compareOrder(a.order, b.order));
    this.pending = [];
    for (const { at, text } of arrived) this.entries.push({ at, text });
  }

  render(header: string[]): string {
    this.flush();
    const lines = this.entries.map(({ at, text }) => `${formatOffset(at)}  ${text}`);
    return `${[...header.map((line) => `# ${line}`), ...lines].join('\n')}\n`;
  }
}

function formatOffset(ms: number): string {
  const sign = ms < 0 ? '-' : '+';
  return `${sign}${(Math.abs(ms) / 1000).toFixed(3).padStart(9, ' ')}s`;
}
