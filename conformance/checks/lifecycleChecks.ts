import type { Hex, TransactionReceipt } from 'viem';
import { ruleBroken, skipCheck, type ConformanceCheck } from '../check';
import type { BridgeRun, ObservedStatus } from '../driveBridge';
import { statusTrail } from '../driveBridge';
import { expectThat } from '../expectations';
import { paidBridgeRun, scriptedFailureRun } from '../lifecycleRuns';
import { requestRecordOf, sameHex, type TransactionEntry } from '../requestRecordOf';
import { isFailReason, isRefundFailReason } from '../schemas/failReasonEnums';
import { firstChangeOffTable } from '../statusTransitions';
import { publicClientOf, waitForReceipt } from '../wallet';

/** Statuses on which §2.4 lets failReason be a reason rather than `N/A`. */
const FAILED_STATUSES = ['failure', 'refund', 'fallback'];

function expectStatusesAlongTable(run: BridgeRun): void {
  const off = firstChangeOffTable(
    run.statuses.map((observed) => observed.body.status),
    false,
  );
  if (off) ruleBroken('§3: a request status only moves along the transition table', `${off.from} → ${off.to} (seen: ${statusTrail(run)})`, run.statuses[off.index]!.exchange);
}

function expectFailReasonsNotApplicableUnlessFailed(observed: ObservedStatus): void {
  const { status, failReason } = observed.body;
  if (!FAILED_STATUSES.includes(status)) expectThat(failReason === 'N/A', '§2.4: failReason is N/A on non-failure statuses', `status ${status} with failReason ${failReason}`, observed.exchange);
}

/** The deposit's transaction hashes: what a wallet paid (the approval, if any, is not a deposit). */
function depositHashes(run: BridgeRun): Hex[] {
  return run.paid.filter((item) => item.stepId === 'deposit').map((item) => item.hash);
}

async function receiptOn(run: BridgeRun, chainId: number, hash: string): Promise<TransactionReceipt | undefined> {
  const rpcUrl = run.route.rpcUrls[chainId];
  if (!rpcUrl) return undefined;
  try {
    return await waitForReceipt(publicClientOf(rpcUrl), hash as Hex, 5_000);
  } catch {
    return undefined;
  }
}

/** What the fill moved to the recipient in its block: the recipient's native balance after it less before it. */
async function nativeDeliveredIn(run: BridgeRun, receipt: TransactionReceipt): Promise<bigint> {
  const client = publicClientOf(run.route.rpcUrls[run.route.destination.id]!);
  const [before, after] = await Promise.all([
    client.getBalance({ address: run.route.user, blockNumber: receipt.blockNumber - 1n }),
    client.getBalance({ address: run.route.user, blockNumber: receipt.blockNumber }),
  ]);
  return after - before;
}

/** The destination fill of a successful run, with its receipt, or the rule it broke. */
async function fillOf(run: BridgeRun): Promise<{ hash: string; receipt: TransactionReceipt }> {
  const [hash] = run.final.body.txHashes;
  if (!hash) ruleBroken('§2.4: txHashes lists the destination fill of a successful request', 'txHashes is empty', run.final.exchange);
  const receipt = await receiptOn(run, run.route.destination.id, hash);
  if (!receipt) ruleBroken('§2.4: txHashes are destination fill transactions', `${hash} is not a transaction on chain ${run.route.destination.id}`, run.final.exchange);
  return { hash, receipt };
}

/** `amount` of a transaction entry's `data`, when it gives one as an integer string. */
function entryAmount(entry: TransactionEntry): bigint | undefined {
  const amount = (entry.data as { amount?: unknown } | null | undefined)?.amount;
  return typeof amount === 'string' && /^\d+$/.test(amount) ? BigInt(amount) : undefined;
}

function expectSuccess(run: BridgeRun): void {
  expectThat(run.final.body.status === 'success', '§3: a paid bridge ends in success (the fill succeeded; funds reached the recipient)', `statuses seen: ${statusTrail(run)}`, run.final.exchange);
}

function expectReasonsOfFailedRun(run: BridgeRun): void {
  for (const observed of run.statuses) {
    const { status, failReason, refundFailReason } = observed.body;
    expectThat(isFailReason(failReason), '§7.3: failReason is one of the §7.3 values', `status ${status} with failReason ${failReason}`, observed.exchange);
    if (FAILED_STATUSES.includes(status)) expectThat(failReason !== 'N/A', '§2.4/§7.3: on failure and refund, failReason is the recorded reason (or UNKNOWN), not N/A', `status ${status} with failReason N/A`, observed.exchange);
    else expectFailReasonsNotApplicableUnlessFailed(observed);
    expectThat(isRefundFailReason(refundFailReason), '§7.4: refundFailReason is one of the §7.4 values or N/A', `status ${status} with refundFailReason ${refundFailReason}`, observed.exchange);
  }
}

/** A record reason agrees with the status lookup's: the same value, or null where the status says N/A (§2.3: nullable). */
function sameReason(recordReason: string | null, statusReason: string): boolean {
  return recordReason === statusReason || (recordReason === null && statusReason === 'N/A');
}

/** §3, §2.2, §2.3, §2.4, §4.2, §7.3, §7.4 in full mode: a request paid from the funded account, followed to its end. */
export const lifecycleChecks: readonly ConformanceCheck[] = [
  {
    id: 'lifecycle.statuses-follow-table',
    section: '3',
    title: 'a paid bridge starts waiting, moves only along the §3 transition table and ends in success',
    mode: 'full',
    async run(context) {
      const run = await paidBridgeRun(context);
      const first = run.statuses[0]!;
      expectThat(first.body.status === 'waiting', '§3: a quoted request whose deposit is not yet indexed is waiting', `right after the quote: ${first.body.status}`, first.exchange);
      expectStatusesAlongTable(run);
      expectSuccess(run);
    },
  },
  {
    id: 'lifecycle.fail-reason-not-applicable',
    section: '2.4',
    title: 'every status of a successful bridge reports failReason and refundFailReason N/A',
    mode: 'full',
    async run(context) {
      const run = await paidBridgeRun(context);
      for (const observed of run.statuses) {
        expectFailReasonsNotApplicableUnlessFailed(observed);
        expectThat(observed.body.refundFailReason === 'N/A', '§2.4: refundFailReason defaults to N/A (no refund was attempted)', `status ${observed.body.status} with refundFailReason ${observed.body.refundFailReason}`, observed.exchange);
      }
    },
  },
  {
    id: 'lifecycle.status-hashes',
    section: '2.4',
    title: 'the status lookup names the deposit in inTxHashes, the destination fill in txHashes and the quoted chains',
    mode: 'full',
    async run(context) {
      const run = await paidBridgeRun(context);
      expectSuccess(run);
      const { body, exchange } = run.final;
      for (const hash of depositHashes(run)) expectThat(body.inTxHashes.some((seen) => sameHex(seen, hash)), '§2.4: inTxHashes lists the origin-side deposit', `the deposit ${hash} is not in ${JSON.stringify(body.inTxHashes)}`, exchange);
      expectThat(body.originChainId === run.route.origin.id && body.destinationChainId === run.route.destination.id, '§2.4: originChainId and destinationChainId are the quoted chains', `${body.originChainId} → ${body.destinationChainId}, quoted ${run.route.origin.id} → ${run.route.destination.id}`, exchange);
      const { receipt } = await fillOf(run);
      expectThat(receipt.status === 'success', '§3: success means the fill succeeded', `the fill ${receipt.transactionHash} reverted on chain ${run.route.destination.id}`, exchange);
    },
  },
  {
    id: 'lifecycle.check-endpoint',
    section: '4.2',
    title: "following the deposit item's check.endpoint shows the request through to success",
    mode: 'full',
    async run(context) {
      const run = await paidBridgeRun(context);
      const check = run.checkEndpoint;
      if (!check) skipCheck('the quote gives no check on its items (§2.2: optional)');
      expectThat(check.endpoint.includes(run.requestId), '§2.2: check.endpoint is the status check path with the requestId as query', check.endpoint, run.quoteExchange);
      expectThat(check.method.toUpperCase() === 'GET', '§2.2: check.method is GET', check.method, run.quoteExchange);
      for (const answer of check.answers) expectThat(answer.status === 200, '§4.2: the status check a step item names answers 200', `HTTP ${answer.status}`, answer);
      const statuses = check.answers.map((answer) => String((answer.json as { status?: unknown } | undefined)?.status));
      if (new URL(check.endpoint, 'http://target').pathname === '/intents/status/v3') {
        const off = firstChangeOffTable(statuses, false);
        if (off) ruleBroken('§3: a request status only moves along the transition table', `${off.from} → ${off.to} (seen: ${statuses.join(' → ')})`, check.answers[off.index]);
      }
      const last = check.answers.at(-1);
      expectThat(last !== undefined && statuses.at(-1) === 'success', '§4.2: following check.endpoint shows the request succeed', `seen: ${statuses.join(' → ')}`, last);
    },
  },
  {
    id: 'lifecycle.record-agrees-with-status',
    section: '2.3',
    title: 'the request record (GET /requests/v3?id=) has the status, hashes and reasons of the status lookup',
    mode: 'full',
    async run(context) {
      if (!context.target.apiKey) skipCheck('GET /requests/v3 needs an API key (§5.2); none was given');
      const run = await paidBridgeRun(context);
      const { record, exchange } = await requestRecordOf(context.http, run.requestId);
      const status = run.final.body;
      expectThat(record.status === status.status, '§2.3/§2.4: the record and the status lookup report the same status', `record ${record.status}, status lookup ${status.status}`, exchange);
      for (const hash of status.inTxHashes) expectThat(record.data.inTxs.some((entry) => sameHex(entry.txHash, hash)), '§2.3: data.inTxs holds every origin transaction the status lookup names', `${hash} is not in inTxs`, exchange);
      for (const hash of status.txHashes) expectThat(record.data.outTxs.some((entry) => sameHex(entry.txHash, hash)), '§2.3: data.outTxs holds every destination fill the status lookup names', `${hash} is not in outTxs`, exchange);
      expectThat(sameReason(record.data.failReason, status.failReason), '§2.3/§2.4: the record and the status lookup report the same failReason', `record ${record.data.failReason}, status lookup ${status.failReason}`, exchange);
      expectThat(sameReason(record.data.refundFailReason, status.refundFailReason), '§2.3/§2.4: the record and the status lookup report the same refundFailReason', `record ${record.data.refundFailReason}, status lookup ${status.refundFailReason}`, exchange);
    },
  },
  {
    id: 'lifecycle.record-matches-chain',
    section: '2.3',
    title: "the record's deposit and fill entries match the receipts and the amounts the chains show",
    mode: 'full',
    async run(context) {
      if (!context.target.apiKey) skipCheck('GET /requests/v3 needs an API key (§5.2); none was given');
      const run = await paidBridgeRun(context);
      expectSuccess(run);
      const { record, exchange } = await requestRecordOf(context.http, run.requestId);
      const rule = '§2.3: a transaction entry reports its transaction as the chain shows it (block, chainId, status, amount)';
      for (const paid of run.paid.filter((item) => item.stepId === 'deposit')) {
        const entry = record.data.inTxs.find((candidate) => sameHex(candidate.txHash, paid.hash));
        if (!entry) ruleBroken('§2.3: data.inTxs holds the deposit', `${paid.hash} is not in inTxs`, exchange);
        expectThat(entry.chainId === run.route.origin.id && BigInt(entry.block) === paid.receipt.blockNumber && entry.status === paid.receipt.status, rule, `inTxs ${paid.hash}: chain ${entry.chainId} block ${entry.block} ${entry.status}; the chain: ${run.route.origin.id} block ${paid.receipt.blockNumber} ${paid.receipt.status}`, exchange);
        const amount = entryAmount(entry);
        const paidValue = BigInt(run.quote.steps.find((step) => step.id === 'deposit')!.items[0]!.data.value);
        if (amount !== undefined) expectThat(amount === paidValue, rule, `inTxs ${paid.hash} amount ${amount}; the deposit sent ${paidValue}`, exchange);
      }
      const fill = await fillOf(run);
      const entry = record.data.outTxs.find((candidate) => sameHex(candidate.txHash, fill.hash));
      if (!entry) ruleBroken('§2.3: data.outTxs holds the fill', `${fill.hash} is not in outTxs`, exchange);
      expectThat(entry.chainId === run.route.destination.id && BigInt(entry.block) === fill.receipt.blockNumber && entry.status === fill.receipt.status, rule, `outTxs ${fill.hash}: chain ${entry.chainId} block ${entry.block} ${entry.status}; the chain: ${run.route.destination.id} block ${fill.receipt.blockNumber} ${fill.receipt.status}`, exchange);
      const amount = entryAmount(entry);
      if (amount !== undefined) {
        const delivered = await nativeDeliveredIn(run, fill.receipt);
        expectThat(amount === delivered, rule, `outTxs ${fill.hash} amount ${amount}; the recipient received ${delivered} in block ${fill.receipt.blockNumber}`, exchange);
      }
    },
  },
  {
    id: 'lifecycle.delivers-minimum',
    section: '2.2',
    title: 'the recipient receives at least the quoted details.currencyOut.minimumAmount on the destination chain',
    mode: 'full',
    async run(context) {
      const run = await paidBridgeRun(context);
      expectSuccess(run);
      const fill = await fillOf(run);
      const delivered = await nativeDeliveredIn(run, fill.receipt);
      const minimum = BigInt(run.quote.details.currencyOut.minimumAmount);
      expectThat(delivered >= minimum, '§2.2/§1.5: an EXACT_INPUT request delivers at least details.currencyOut.minimumAmount', `the recipient received ${delivered}; quoted minimum ${minimum} (amount ${run.quote.details.currencyOut.amount})`, run.quoteExchange);
    },
  },
  {
    id: 'lifecycle.refund-fail-reason',
    section: '7.3',
    title: 'a fill failed on demand goes failure → refund with a §7.3 failReason, in the status lookup and the record',
    mode: 'full',
    async run(context) {
      const run = await scriptedFailureRun(context, 'refunded');
      expectStatusesAlongTable(run);
      expectReasonsOfFailedRun(run);
      expectThat(run.final.body.status === 'refund', '§3: a request whose fill failed is refunded', `statuses seen: ${statusTrail(run)}`, run.final.exchange);
      expectThat(run.final.body.refundFailReason === 'N/A', '§2.4/§7.4: refundFailReason stays N/A when the refund was made', `refund with refundFailReason ${run.final.body.refundFailReason}`, run.final.exchange);
      if (context.target.apiKey) {
        const { record, exchange } = await requestRecordOf(context.http, run.requestId);
        expectThat(record.data.failReason !== null && isFailReason(record.data.failReason), '§2.3/§7.3: a refunded request records its failReason, a §7.3 value', `record failReason ${record.data.failReason}`, exchange);
        expectThat(sameReason(record.data.failReason, run.final.body.failReason), '§2.3/§2.4: the record and the status lookup report the same failReason', `record ${record.data.failReason}, status lookup ${run.final.body.failReason}`, exchange);
      }
    },
  },
  {
    id: 'lifecycle.refund-not-made-reason',
    section: '7.4',
    title: 'a failed request whose refund is not made reports a §7.4 refundFailReason, in the status lookup and the record',
    mode: 'full',
    async run(context) {
      const run = await scriptedFailureRun(context, 'refund-not-made');
      expectStatusesAlongTable(run);
      expectReasonsOfFailedRun(run);
      const { body, exchange } = run.final;
      expectThat(body.status === 'failure', '§3: a failed request that was not refunded stays failure', `statuses seen: ${statusTrail(run)}`, exchange);
      expectThat(body.refundFailReason !== 'N/A', '§7.2/§7.4: a refund that was not made surfaces as a §7.4 refundFailReason', 'refundFailReason is N/A', exchange);
      if (context.target.apiKey) {
        const { record, exchange: recordExchange } = await requestRecordOf(context.http, run.requestId);
        expectThat(record.data.refundFailReason !== null && isRefundFailReason(record.data.refundFailReason), '§2.3/§7.4: the record carries the refundFailReason, a §7.4 value', `record refundFailReason ${record.data.refundFailReason}`, recordExchange);
        expectThat(sameReason(record.data.refundFailReason, body.refundFailReason), '§2.3/§2.4: the record and the status lookup report the same refundFailReason', `record ${record.data.refundFailReason}, status lookup ${body.refundFailReason}`, recordExchange);
      }
    },
  },
];
