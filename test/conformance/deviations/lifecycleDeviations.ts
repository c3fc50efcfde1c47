import type { Deviation, ProxiedRequest, ProxiedResponse } from '../deviationProxy';

type StatusBody = Record<string, unknown> & { status: string };
type RecordBody = { requests: Array<{ status: string; data: { outTxs: Array<{ type: string; data: { amount?: string } }> } }> };

/** Changes the answers of `GET /intents/status/v3` that `when` picks. */
function statusAnswers(when: (body: StatusBody, request: ProxiedRequest) => boolean, change: (body: StatusBody) => void): Deviation['response'] {
  return (request, response) => {
    if (request.path !== '/intents/status/v3' || response.status !== 200) return undefined;
    const body = structuredClone(response.body) as StatusBody;
    if (!when(body, request)) return undefined;
    change(body);
    return { body };
  };
}

/** Changes the request records of `GET /requests/v3`. */
function recordAnswers(change: (body: RecordBody) => void): Deviation['response'] {
  return (request: ProxiedRequest, response: ProxiedResponse) => {
    if (request.path !== '/requests/v3' || response.status !== 200) return undefined;
    const body = structuredClone(response.body) as RecordBody;
    change(body);
    return { body };
  };
}

/** After a request has been answered `success` once, its later status answers say `pending`: a status that goes backwards. */
function statusGoesBackAfterSuccess(): Deviation['response'] {
  const succeeded = new Set<string>();
  return statusAnswers(
    (body, request) => {
      const requestId = request.query.get('requestId') ?? '';
      if (succeeded.has(requestId)) return true;
      if (body.status === 'success') succeeded.add(requestId);
      return false;
    },
    (body) => void (body.status = 'pending'),
  );
}

const failedStatus = (body: StatusBody) => body.status === 'failure' || body.status === 'refund';

/** Full-mode deviations of a paid request's lifecycle: status lookup, record, check endpoint, reasons. */
export const lifecycleDeviations: readonly Deviation[] = [
  { name: 'a status that goes backwards (success, then pending)', section: '3', mode: 'full', only: ['lifecycle.statuses-follow-table'], response: statusGoesBackAfterSuccess() },
  {
    name: 'failReason SLIPPAGE on a successful request',
    section: '2.4',
    mode: 'full',
    only: ['lifecycle.fail-reason-not-applicable'],
    response: statusAnswers((body) => body.status === 'success', (body) => void (body.failReason = 'SLIPPAGE')),
  },
  {
    name: 'inTxHashes without the deposit',
    section: '2.4',
    mode: 'full',
    only: ['lifecycle.status-hashes'],
    response: statusAnswers((body) => body.status === 'success', (body) => void (body.inTxHashes = [])),
  },
  {
    name: "the step item's check endpoint never reports success",
    section: '4.2',
    mode: 'full',
    only: ['lifecycle.check-endpoint'],
    response: (request, response) => {
      if (request.path !== '/intents/status' || response.status !== 200) return undefined;
      return { body: { ...(response.body as object), status: 'pending' } };
    },
  },
  {
    name: 'a record whose status differs from the status lookup',
    section: '2.3',
    mode: 'full',
    only: ['lifecycle.record-agrees-with-status'],
    response: recordAnswers((body) => body.requests.forEach((record) => void (record.status = record.status === 'success' ? 'pending' : 'success'))),
  },
  {
    name: "a record whose fill amount disagrees with the chain",
    section: '2.3',
    mode: 'full',
    only: ['lifecycle.record-matches-chain'],
    response: recordAnswers((body) => {
      for (const entry of body.requests.flatMap((record) => record.data.outTxs)) if (entry.data.amount) entry.data.amount = (BigInt(entry.data.amount) + 1n).toString();
    }),
  },
  {
    name: 'a quote promising a minimum above what the fill delivers',
    section: '2.2',
    mode: 'full',
    only: ['lifecycle.delivers-minimum'],
    response: (request, response) => {
      if (request.path !== '/quote/v2' || response.status !== 200) return undefined;
      const body = structuredClone(response.body) as { details: { currencyOut: { amount: string; minimumAmount: string } } };
      body.details.currencyOut.minimumAmount = (BigInt(body.details.currencyOut.amount) * 2n).toString();
      return { body };
    },
  },
  {
    name: 'a failReason outside §7.3 on a refunded request',
    section: '7.3',
    mode: 'full',
    only: ['lifecycle.refund-fail-reason'],
    response: statusAnswers(failedStatus, (body) => void (body.failReason = 'FILL_WENT_WRONG')),
  },
  {
    name: 'failReason N/A on a refunded request',
    section: '7.3',
    mode: 'full',
    only: ['lifecycle.refund-fail-reason'],
    response: statusAnswers(failedStatus, (body) => void (body.failReason = 'N/A')),
  },
  {
    name: 'a refundFailReason outside §7.4 on a refund not made',
    section: '7.4',
    mode: 'full',
    only: ['lifecycle.refund-not-made-reason'],
    response: statusAnswers(failedStatus, (body) => void (body.refundFailReason = 'REFUND_BLOCKED')),
  },
];
