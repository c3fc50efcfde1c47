import type { Deviation, RelayedWebhook } from '../deviationProxy';

/** Parses a relayed webhook body, changes it and serializes it again (the signature is then the target's over the old body). */
function changedBody(delivery: RelayedWebhook, change: (payload: { timestamp: number; data: Record<string, unknown> }) => void): string {
  const payload = JSON.parse(delivery.body) as { timestamp: number; data: Record<string, unknown> };
  change(payload);
  return JSON.stringify(payload);
}

/** Passes each status change on once: a repeated delivery (a retry) is answered 200 by the proxy and never reaches the receiver. */
function retriesSwallowed(): Deviation['webhook'] {
  const seen = new Set<string>();
  return (delivery) => {
    const data = (JSON.parse(delivery.body) as { data: { requestId: string; status: string; updatedAt: number } }).data;
    const change = `${data.requestId}:${data.status}@${data.updatedAt}`;
    if (seen.has(change)) return { drop: true };
    seen.add(change);
    return undefined;
  };
}

/** Full-mode deviations of webhook delivery (SPEC §6), made by the proxy relaying the target's webhooks. */
export const webhookDeviations: readonly Deviation[] = [
  {
    name: 'the submitted status is never delivered',
    section: '6.1',
    mode: 'full',
    only: ['webhooks.every-status-change'],
    webhook: (delivery) => ((JSON.parse(delivery.body) as { data: { status: string } }).data.status === 'submitted' ? { drop: true } : undefined),
  },
  {
    name: 'a webhook timestamp in seconds',
    section: '6.1',
    mode: 'full',
    only: ['webhooks.payload-shape'],
    webhook: (delivery) => ({ body: changedBody(delivery, (payload) => void (payload.timestamp = Math.floor(payload.timestamp / 1000))) }),
  },
  {
    name: 'a webhook without data.referrer',
    section: '6.1',
    mode: 'full',
    only: ['webhooks.payload-shape'],
    webhook: (delivery) => ({ body: changedBody(delivery, (payload) => void delete payload.data.referrer) }),
  },
  {
    name: 'a success webhook whose txHashes disagree with the status lookup',
    section: '6.1',
    mode: 'full',
    only: ['webhooks.agree-with-status'],
    webhook: (delivery) => ({ body: changedBody(delivery, (payload) => void (payload.data.status === 'success' && (payload.data.txHashes = [`0x${'ab'.repeat(32)}`]))) }),
  },
  {
    name: 'a webhook body changed after it was signed',
    section: '6.3',
    mode: 'full',
    only: ['webhooks.signature'],
    webhook: (delivery) => ({ body: `${delivery.body} ` }),
  },
  {
    name: 'a forged webhook signature',
    section: '6.3',
    mode: 'full',
    only: ['webhooks.signature'],
    webhook: (delivery) => ({ headers: { ...delivery.headers, 'x-signature-sha256': 'f'.repeat(64) } }),
  },
  {
    name: 'webhooks without X-Signature-Timestamp',
    section: '6.3',
    mode: 'full',
    only: ['webhooks.signature'],
    webhook: (delivery) => ({ headers: Object.fromEntries(Object.entries(delivery.headers).filter(([name]) => name !== 'x-signature-timestamp')) }),
  },
  { name: 'a refused webhook is never retried', section: '6.2', mode: 'full', only: ['webhooks.retry'], webhook: retriesSwallowed() },
];
