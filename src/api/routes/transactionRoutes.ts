import { Router } from 'express';
import { z } from 'zod';
import type { ChainAdapter } from '../../chains/ChainAdapter';
import { UnsupportedChainError } from '../../errors/quoteErrors';
import { parseWithSchema } from '../../errors/parseWithSchema';

export const IndexBodySchema = z
  .object({
    txHash: z.string().min(1),
    chainId: z.union([z.string().regex(/^[0-9]+$/), z.number().int().positive()]),
    requestId: z.string().optional(),
  })
  .passthrough();

export const SingleBodySchema = z
  .object({ requestId: z.string().min(1), chainId: z.union([z.string().regex(/^[0-9]+$/), z.number().int().positive()]), tx: z.string().min(1) })
  .passthrough();

/**
 * `POST /transactions/index` and `POST /transactions/single`: the official SDK posts the
 * deposit hash here. The simulator looks at that transaction's block at once instead of waiting
 * for the next block notification; deposits are found on-chain either way.
 */
export function transactionRoutes(deps: { chains: ReadonlyMap<number, ChainAdapter> }): Router {
  const router = Router();
  const chainFor = (chainId: string | number) => {
    const chain = deps.chains.get(Number(chainId));
    if (!chain) throw new UnsupportedChainError(Number(chainId), 'origin');
    return chain;
  };

  router.post('/transactions/index', async (req, res) => {
    const body = parseWithSchema(IndexBodySchema, req.body);
    await chainFor(body.chainId).indexTransaction(body.txHash);
    res.json({ message: 'Transaction indexed' });
  });

  router.post('/transactions/single', async (req, res) => {
    const body = parseWithSchema(SingleBodySchema, req.body);
    const chain = chainFor(body.chainId);
    // the SDK posts the step item's data with the hash it sent (`txHash`), or with the hash of the
    // transaction that replaced it (`replacementTxHash`), as a JSON string
    let sent: { txHash?: unknown; replacementTxHash?: unknown } = {};
    try {
      sent = (JSON.parse(body.tx) as typeof sent | null) ?? {};
    } catch {
      sent = {};
    }
    const txHash = [sent.replacementTxHash, sent.txHash].find((hash): hash is string => typeof hash === 'string' && hash.length > 0);
    if (txHash) await chain.indexTransaction(txHash);
    res.json({ message: 'Transaction indexed' });
  });
  return router;
}
