import { Router } from 'express';
import { z } from 'zod';
import { buildStatusResponse, type StatusDetails } from '../../domain/request/statusResponse';
import { V1_STATUS, V2_STATUS } from '../../domain/request/legacyStatusNames';
import { RequestNotFoundError } from '../../errors/requestErrors';
import type { RequestStore } from '../../store/RequestStore';
import { parseWithSchema } from '../../errors/parseWithSchema';
import { RequestIdSchema } from '../../domain/request/requestId';
import type { StatusV3Body } from '../statusFastPath';

export const StatusQuerySchema = z.object({ requestId: RequestIdSchema }).passthrough();

/** The older versions type `details` as a string: the decoded revert's label, left out when there is none. */
function legacyDetails(details: StatusDetails | null): { details?: string } {
  return details ? { details: details.decodedRevert.label } : {};
}

/** SPEC §4.2: `GET /intents/status/v3`, and the older `/intents/status` and `/intents/status/v2`. */
export function statusRoutes(deps: { requests: RequestStore; statusV3Body: StatusV3Body }): Router {
  const router = Router();
  const find = (query: unknown) => {
    const { requestId } = parseWithSchema(StatusQuerySchema, query, 'query');
    const record = deps.requests.get(requestId);
    if (!record) throw new RequestNotFoundError(requestId);
    return record;
  };

  router.get('/intents/status/v3', (req, res) => {
    const { requestId } = parseWithSchema(StatusQuerySchema, req.query, 'query');
    const body = deps.statusV3Body(requestId);
    if (body === undefined) throw new RequestNotFoundError(requestId);
    // what res.json sends, serialised once per version of the record
    res.set('Content-Type', 'application/json').send(body.text);
  });

  router.get('/intents/status/v2', (req, res) => {
    const record = find(req.query);
    const v3 = buildStatusResponse(record);
    const { details, ...rest } = v3;
    res.json({ ...rest, ...legacyDetails(details), status: V2_STATUS[record.status], time: record.updatedAt, quoteCreatedAt: record.createdAt });
  });

  router.get('/intents/status', (req, res) => {
    const record = find(req.query);
    const v3 = buildStatusResponse(record);
    res.json({
      status: V1_STATUS[record.status],
      ...legacyDetails(v3.details),
      inTxHashes: v3.inTxHashes,
      txHashes: v3.txHashes,
      time: record.updatedAt,
      originChainId: v3.originChainId,
      destinationChainId: v3.destinationChainId,
    });
  });
  return router;
}
