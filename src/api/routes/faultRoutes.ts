import { Router } from 'express';
import { z } from 'zod';
import type { ChainAdapter } from '../../chains/ChainAdapter';
import type { RpcFaultStore } from '../../chains/RpcFaultStore';
import { RPC_FAULT_KINDS } from '../../domain/chain/rpcFaultKinds';
import { InvalidRequestBodyError } from '../../errors/requestErrors';
import { parseWithSchema } from '../../errors/parseWithSchema';

export const FaultSchema = z.object({ chainId: z.number().int().positive(), kind: z.enum(RPC_FAULT_KINDS) }).strict();
export const ClearSchema = z.object({ chainId: z.coerce.number().int().positive().optional() }).strict();

/**
 * Admin faults (not part of the SPEC surface): `POST /admin/faults { chainId, kind }` makes the
 * chain's RPC time out (`rpc-timeout`) or fail (`rpc-error`) for quotes, so they answer
 * REQUEST_TIMED_OUT / RPC_HTTP_ERROR (SPEC §7.1); `GET /admin/faults` lists them;
 * `DELETE /admin/faults[?chainId=]` clears one chain or all.
 */
export function faultRoutes(deps: { rpcFaults: RpcFaultStore; chains: ReadonlyMap<number, ChainAdapter> }): Router {
  const router = Router();
  router.post('/admin/faults', (req, res) => {
    const fault = parseWithSchema(FaultSchema, req.body);
    if (!deps.chains.has(fault.chainId)) throw new InvalidRequestBodyError(`Invalid request: chain ${fault.chainId} is not run by this simulator`);
    deps.rpcFaults.set(fault);
    res.status(201).json({ fault, faults: deps.rpcFaults.list() });
  });
  router.get('/admin/faults', (_req, res) => {
    res.json({ faults: deps.rpcFaults.list() });
  });
  router.delete('/admin/faults', (req, res) => {
    const { chainId } = parseWithSchema(ClearSchema, req.query, 'query');
    deps.rpcFaults.clear(chainId);
    res.json({ faults: deps.rpcFaults.list() });
  });
  return router;
}
