import { Router } from 'express';
import { z } from 'zod';
import type { ChainControl } from '../../chains/ChainControl';
import type { RpcFaultStore } from '../../chains/RpcFaultStore';
import { RPC_FAULT_KINDS } from '../../domain/chain/rpcFaultKinds';
import { DROP_TRANSACTION_TARGETS } from '../../domain/chain/dropTransactionTargets';
import { InvalidRequestBodyError } from '../../errors/requestErrors';
import { parseWithSchema } from '../../errors/parseWithSchema';

const RpcFaultSchema = z.object({ chainId: z.number().int().positive(), kind: z.enum(RPC_FAULT_KINDS) }).strict();
const DropTransactionsFaultSchema = z.object({ chainId: z.number().int().positive(), kind: z.literal('drop-transactions'), target: z.enum(DROP_TRANSACTION_TARGETS) }).strict();
export const FaultSchema = z.union([RpcFaultSchema, DropTransactionsFaultSchema]);
export const ClearSchema = z.object({ chainId: z.coerce.number().int().positive().optional() }).strict();

/**
 * Admin faults (not part of the SPEC surface): `POST /admin/faults { chainId, kind }` makes the
 * chain's RPC time out (`rpc-timeout`) or fail (`rpc-error`) for quotes, so they answer
 * REQUEST_TIMED_OUT / RPC_HTTP_ERROR (SPEC §7.1); `{ chainId, kind: 'drop-transactions', target:
 * 'fill' | 'deposit' | 'all' }` makes the chain answer such transactions and never mine them
 * (Solana, embedded; elsewhere UNSUPPORTED_ON_CHAIN); `GET /admin/faults` lists them;
 * `DELETE /admin/faults[?chainId=]` clears one chain's or all.
 */
export function faultRoutes(deps: { rpcFaults: RpcFaultStore; chainControl: ChainControl }): Router {
  const router = Router();
  const list = () => [...deps.rpcFaults.list(), ...deps.chainControl.droppedTransactionFaults()];
  router.post('/admin/faults', (req, res) => {
    const fault = parseWithSchema(FaultSchema, req.body);
    const chain = deps.chainControl.find(fault.chainId);
    if (!chain) throw new InvalidRequestBodyError(`Invalid request: chain ${fault.chainId} is not run by this simulator`);
    if (fault.kind === 'drop-transactions') {
      chain.transactionFaults.dropTransactions(fault.target);
    } else {
      deps.rpcFaults.set(fault);
    }
    res.status(201).json({ fault, faults: list() });
  });
  router.get('/admin/faults', (_req, res) => {
    res.json({ faults: list() });
  });
  router.delete('/admin/faults', (req, res) => {
    const { chainId } = parseWithSchema(ClearSchema, req.query, 'query');
    deps.rpcFaults.clear(chainId);
    for (const id of deps.chainControl.chainIds()) {
      const chain = deps.chainControl.find(id);
      if ((chainId === undefined || id === chainId) && chain?.cheats?.transactionFaults) chain.transactionFaults.dropTransactions(null);
    }
    res.json({ faults: list() });
  });
  return router;
}
