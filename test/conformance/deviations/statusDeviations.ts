import type { Deviation } from '../deviationProxy';

const STATUS = '/intents/status/v3';

/** Changes each 200 answer of `GET /intents/status/v3`. */
function statusAnswer(change: (body: Record<string, unknown>) => void): Deviation['response'] {
  return (request, response) => {
    if (request.path !== STATUS || response.status !== 200) return undefined;
    const body = structuredClone(response.body) as Record<string, unknown>;
    change(body);
    return { body };
  };
}

export const statusDeviations: readonly Deviation[] = [
  { name: 'updatedAt in unix seconds instead of milliseconds', section: '2.4', only: ['status.fields'], response: statusAnswer((body) => void (body.updatedAt = Math.floor(Number(body.updatedAt) / 1000))) },
  { name: 'updatedAt in unix microseconds', section: '2.4', only: ['status.fields'], response: statusAnswer((body) => void (body.updatedAt = Number(body.updatedAt) * 1000)) },
  { name: 'a status of "completed"', section: '2.4', only: ['status.fields'], response: statusAnswer((body) => void (body.status = 'completed')) },
  { name: 'a status without refundFailReason', section: '2.4', only: ['status.fields'], response: statusAnswer((body) => void delete body.refundFailReason) },
  { name: 'txHashes as a comma-separated string', section: '2.4', only: ['status.fields'], response: statusAnswer((body) => void (body.txHashes = (body.txHashes as string[]).join(','))) },
  {
    name: 'the status swaps origin and destination chains',
    section: '2.4',
    only: ['status.fields'],
    response: statusAnswer((body) => void ([body.originChainId, body.destinationChainId] = [body.destinationChainId, body.originChainId])),
  },
  { name: 'failReason UNKNOWN on a request that did not fail', section: '2.4', only: ['status.reasons'], response: statusAnswer((body) => void (body.failReason = 'UNKNOWN')) },
  { name: 'refundFailReason AMOUNT_TOO_LOW_TO_REFUND on a request never refunded', section: '2.4', only: ['status.reasons'], response: statusAnswer((body) => void (body.refundFailReason = 'AMOUNT_TOO_LOW_TO_REFUND')) },
  { name: 'the status lookup says pending while the record says waiting', section: '2.4', only: ['status.agrees-with-listing'], response: statusAnswer((body) => void (body.status = body.status === 'pending' ? 'submitted' : 'pending')) },
  {
    name: 'an unknown requestId answers 500',
    section: '4.2',
    only: ['status.unknown-request'],
    response: (request, response) => (request.path === STATUS && response.status === 404 ? { status: 500, body: { errorCode: 'INTERNAL_ERROR', message: 'no row' } } : undefined),
  },
  {
    name: 'a status lookup without requestId answers 500',
    section: '4.2',
    only: ['status.missing-request-id'],
    response: (request, response) => (request.path === STATUS && !request.query.has('requestId') && response.status < 500 ? { status: 500, body: { errorCode: 'INTERNAL_ERROR', message: 'requestId is undefined' } } : undefined),
  },
  {
    name: 'an unknown requestId answers 200 waiting',
    section: '4.2',
    only: ['status.unknown-request'],
    response: (request, response) =>
      request.path === STATUS && response.status === 404
        ? { status: 200, body: { status: 'waiting', inTxHashes: [], txHashes: [], updatedAt: 1_800_000_000_000, originChainId: 1, destinationChainId: 1, details: null, failReason: 'N/A', refundFailReason: 'N/A' } }
        : undefined,
  },
];
