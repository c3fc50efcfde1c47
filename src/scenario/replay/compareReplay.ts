import type { UpstreamRecord } from './fetchUpstreamRecord';
import type { ReplayPlan } from './planReplayForks';

/** What a replay compares of a record: its outcome, and its transactions (hashes differ between the two). */
export interface ReplayOutcome {
  requestId: string;
  status: string;
  failReason: string | null;
  refundFailReason: string | null;
  transactions: Array<{ type: string; chainId: number; status: string; txHash: string }>;
}

/** `replay --json`: the one object it prints. */
export interface ReplayReport {
  original: ReplayOutcome;
  replayed: ReplayOutcome;
  /** chain id → where it was forked: the upstream's origin, the block, and whether the fork is pinned there. */
  forks: Record<string, { url: string; block: number | null; pinned: boolean }>;
  /** status, failReason and refundFailReason agree. */
  same: boolean;
  notes: string[];
}

/** A reason as records give it; `N/A` and an absent one are the same: none. */
const reason = (value: string | null | undefined): string | null => (value === undefined || value === null || value === 'N/A' ? null : value);

export function outcomeOf(record: UpstreamRecord): ReplayOutcome {
  return {
    requestId: record.id,
    status: record.status,
    failReason: reason(record.data.failReason),
    refundFailReason: reason(record.data.refundFailReason),
    transactions: [...record.data.inTxs, ...record.data.outTxs].map((tx) => ({ type: tx.type ?? 'deposit', chainId: tx.chainId, status: tx.status ?? 'unknown', txHash: tx.txHash })),
  };
}

/** The report of a replay: both outcomes, the forks, and whether they agree. */
export function compareReplay(params: { original: UpstreamRecord; replayed: UpstreamRecord; plan: ReplayPlan; notes: string[] }): ReplayReport {
  const original = outcomeOf(params.original);
  const replayed = outcomeOf(params.replayed);
  const { origin, destination } = params.plan;
  const forks = Object.fromEntries([origin, destination].map((fork) => [String(fork.chainId), { url: fork.point.shownUrl, block: fork.point.block, pinned: fork.point.pinned }]));
  const same = original.status === replayed.status && original.failReason === replayed.failReason && original.refundFailReason === replayed.refundFailReason;
  return { original, replayed, forks, same, notes: params.notes };
}

/** The report side by side, for a terminal. */
export function formatReplayReport(report: ReplayReport): string {
  const rows: Array<[string, string, string]> = [
    ['request', report.original.requestId, report.replayed.requestId],
    ['status', report.original.status, report.replayed.status],
    ['failReason', report.original.failReason ?? '-', report.replayed.failReason ?? '-'],
    ['refundFailReason', report.original.refundFailReason ?? '-', report.replayed.refundFailReason ?? '-'],
  ];
  const txLine = (tx: ReplayOutcome['transactions'][number] | undefined) => (tx ? `${tx.type} on ${tx.chainId}: ${tx.status}` : '');
  const count = Math.max(report.original.transactions.length, report.replayed.transactions.length);
  for (let i = 0; i < count; i++) rows.push([i === 0 ? 'transactions' : '', txLine(report.original.transactions[i]), txLine(report.replayed.transactions[i])]);
  const widths = [Math.max(...rows.map((row) => row[0].length)), Math.max('original'.length, ...rows.map((row) => row[1].length))];
  const line = (row: readonly string[]) => `${row[0]!.padEnd(widths[0]!)}  ${row[1]!.padEnd(widths[1]!)}  ${row[2]}`.trimEnd();
  const forks = Object.entries(report.forks).map(([chainId, fork]) => `chain ${chainId} from ${fork.url} ${fork.pinned ? `at block ${fork.block}` : 'as it is now (not pinned)'}`);
  return [
    `forks: ${forks.join('; ')}`,
    '',
    line(['', 'original', 'replayed']),
    ...rows.map(line),
    '',
    ...report.notes.map((note) => `note: ${note}`),
    report.same ? 'same: the replay agrees with the original (status, failReason, refundFailReason)' : 'different: the replay does not agree with the original',
    '',
  ].join('\n');
}
