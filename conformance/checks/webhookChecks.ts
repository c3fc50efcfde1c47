import { ruleBroken, type ConformanceCheck } from '../check';
import { statusTrail } from '../driveBridge';
import { expectThat } from '../expectations';
import { sameHex } from '../requestRecordOf';
import { webhookPayloadSchema } from '../schemas/webhookSchema';
import { firstChangeOffTable } from '../statusTransitions';
import { changeOf, exchangeOfDelivery, webhookRun, WEBHOOK_RUN_REFERRER, type WebhookRun } from '../webhookRun';
import { SIGNATURE_HEADER, SIGNATURE_TIMESTAMP_HEADER, webhookSignatureMatches } from '../webhookSignature';
import type { ReceivedWebhook } from '../webhookReceiver';

function expectSomeDelivery(run: WebhookRun): void {
  expectThat(run.deliveries.length > 0, "§6.1: every status change of a request is POSTed to its API key's webhook endpoint", `no webhook arrived for ${run.bridge.requestId} (statuses seen: ${statusTrail(run.bridge)})`, run.bridge.final.exchange);
}

/** One delivery per status change (retries folded), in the order of the changes: by `data.updatedAt`, then by first arrival. */
function deliveredChanges(run: WebhookRun): Array<{ status: string; delivery: ReceivedWebhook }> {
  const firstOfEach = new Map<string, ReceivedWebhook>();
  for (const delivery of run.deliveries) if (!firstOfEach.has(changeOf(delivery))) firstOfEach.set(changeOf(delivery), delivery);
  const updatedAt = (delivery: ReceivedWebhook) => Number((delivery.json as { data?: { updatedAt?: unknown } } | undefined)?.data?.updatedAt);
  return [...firstOfEach.values()]
    .sort((a, b) => updatedAt(a) - updatedAt(b) || a.index - b.index)
    .map((delivery) => ({ status: String((delivery.json as { data?: { status?: unknown } }).data?.status), delivery }));
}

function sameHashes(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((hash) => b.some((other) => sameHex(hash, other)));
}

/** §6.1–§6.3 in full mode: a receiver registered for the API key, a request driven to its end, every delivery judged. */
export const webhookChecks: readonly ConformanceCheck[] = [
  {
    id: 'webhooks.every-status-change',
    section: '6.1',
    title: 'every status the request took is delivered, in an order the §3 table allows, ending with the final status',
    mode: 'full',
    async run(context) {
      const run = await webhookRun(context);
      expectSomeDelivery(run);
      const changes = deliveredChanges(run);
      const delivered = changes.map((change) => change.status);
      const last = changes.at(-1)!.delivery;
      for (const status of new Set(run.bridge.statuses.map((observed) => observed.body.status))) {
        expectThat(delivered.includes(status), '§6.1: all status updates are posted', `the status lookup showed ${status}, no webhook delivered it (delivered: ${delivered.join(' → ')})`, exchangeOfDelivery(run, last));
      }
      const off = firstChangeOffTable(delivered, true);
      if (off) ruleBroken('§6.1/§3: each delivered change is one step of the transition table (every change is posted)', `${off.from} → ${off.to} (delivered: ${delivered.join(' → ')})`, exchangeOfDelivery(run, changes[off.index]!.delivery));
      expectThat(delivered.at(-1) === run.bridge.final.body.status, '§6.1: the last status delivered is the status the request ended in', `delivered ${delivered.join(' → ')}; the status lookup ends in ${run.bridge.final.body.status}`, exchangeOfDelivery(run, last));
    },
  },
  {
    id: 'webhooks.payload-shape',
    section: '6.1',
    title: 'every delivery is a request.status.updated payload with every §6.1 field, typed as the table says',
    mode: 'full',
    async run(context) {
      const run = await webhookRun(context);
      expectSomeDelivery(run);
      for (const delivery of run.deliveries) {
        const parsed = webhookPayloadSchema.safeParse(delivery.json);
        if (!parsed.success) {
          const issues = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.length ? issue.path.join('.') : '(body)'}: ${issue.message}`);
          ruleBroken('§6.1: a webhook payload has every field of the table', issues.join('; '), exchangeOfDelivery(run, delivery));
        }
        const { status, failReason } = parsed.data.data;
        if (!['failure', 'refund', 'fallback'].includes(status)) expectThat(failReason === 'N/A', '§6.1/§2.4: data.failReason is N/A on non-failure statuses', `status ${status} with failReason ${failReason}`, exchangeOfDelivery(run, delivery));
      }
    },
  },
  {
    id: 'webhooks.agree-with-status',
    section: '6.1',
    title: 'the delivery of the final status has the hashes, chains, reasons of the status lookup and echoes the referrer',
    mode: 'full',
    async run(context) {
      const run = await webhookRun(context);
      expectSomeDelivery(run);
      const status = run.bridge.final.body;
      const final = deliveredChanges(run).findLast((change) => change.status === status.status);
      if (!final) ruleBroken('§6.1: all status updates are posted', `no delivery of the final status ${status.status}`, run.bridge.final.exchange);
      const exchange = exchangeOfDelivery(run, final.delivery);
      const parsed = webhookPayloadSchema.safeParse(final.delivery.json);
      if (!parsed.success) ruleBroken('§6.1: a webhook payload has every field of the table', parsed.error.issues[0]!.message, exchange);
      const { data } = parsed.data;
      const rule = '§6.1: a delivery reports the request as the status lookup (§2.4) does';
      expectThat(sameHashes(data.inTxHashes, status.inTxHashes), rule, `inTxHashes ${JSON.stringify(data.inTxHashes)}; status lookup ${JSON.stringify(status.inTxHashes)}`, exchange);
      expectThat(sameHashes(data.txHashes, status.txHashes), rule, `txHashes ${JSON.stringify(data.txHashes)}; status lookup ${JSON.stringify(status.txHashes)}`, exchange);
      expectThat(data.originChainId === status.originChainId && data.destinationChainId === status.destinationChainId, rule, `chains ${data.originChainId} → ${data.destinationChainId}; status lookup ${status.originChainId} → ${status.destinationChainId}`, exchange);
      expectThat(data.failReason === status.failReason && data.refundFailReason === status.refundFailReason, rule, `reasons ${data.failReason}/${data.refundFailReason}; status lookup ${status.failReason}/${status.refundFailReason}`, exchange);
      expectThat(data.referrer === WEBHOOK_RUN_REFERRER, '§4.1/§6.1: data.referrer echoes the referrer of the quote', `referrer ${JSON.stringify(data.referrer)}, quoted ${WEBHOOK_RUN_REFERRER}`, exchange);
    },
  },
  {
    id: 'webhooks.signature',
    section: '6.3',
    title: 'every delivery carries X-Signature-Timestamp and X-Signature-SHA256, the HMAC-SHA256 of "timestamp.body" keyed with the API key',
    mode: 'full',
    async run(context) {
      const run = await webhookRun(context);
      expectSomeDelivery(run);
      for (const delivery of run.deliveries) {
        const exchange = exchangeOfDelivery(run, delivery);
        const timestamp = delivery.headers[SIGNATURE_TIMESTAMP_HEADER];
        const signature = delivery.headers[SIGNATURE_HEADER];
        expectThat(timestamp !== undefined, '§6.3: a webhook request carries X-Signature-Timestamp', 'the header is missing', exchange);
        expectThat(/^\d+$/.test(timestamp), '§6.3: X-Signature-Timestamp is the unix timestamp of sending', `X-Signature-Timestamp: ${timestamp}`, exchange);
        expectThat(signature !== undefined, '§6.3: a webhook request carries X-Signature-SHA256', 'the header is missing', exchange);
        expectThat(webhookSignatureMatches(run.apiKey, timestamp, delivery.rawBody, signature), '§6.3: X-Signature-SHA256 is the hex HMAC-SHA256, keyed with the API key, of the timestamp, a full stop and the body', `X-Signature-SHA256: ${signature} does not verify`, exchange);
      }
    },
  },
  {
    id: 'webhooks.retry',
    section: '6.2',
    title: 'a delivery the receiver answers with 500 is retried, signed afresh',
    mode: 'full',
    async run(context) {
      const run = await webhookRun(context);
      const { refused, retry } = run;
      if (!refused) ruleBroken('§6.2: a refused delivery is retried', `no delivery arrived for ${run.bridge.requestId}, so none could be refused`, run.bridge.final.exchange);
      expectThat(retry !== undefined, '§6.2: a delivery the receiver refuses (non-2xx) is retried (up to 10 retries, exponential backoff)', `the ${changeOf(refused)} delivery, answered 500, was not sent again`, exchangeOfDelivery(run, refused));
      const timestamp = retry.headers[SIGNATURE_TIMESTAMP_HEADER] ?? '';
      expectThat(webhookSignatureMatches(run.apiKey, timestamp, retry.rawBody, retry.headers[SIGNATURE_HEADER] ?? ''), '§6.3: every webhook request, a retry too, carries a signature that verifies', 'the retry does not verify', exchangeOfDelivery(run, retry));
    },
  },
];
