import { Router } from 'express';
import { z } from 'zod';
import type { ChainAdapter } from '../../chains/ChainAdapter';
import { parseWithSchema } from '../../errors/parseWithSchema';
import { reindexDepositAddress } from '../../lookups/reindexDepositAddress';
import type { DepositAddressStore } from '../../store/DepositAddressStore';

const ChainIdSchema = z.number().int().positive().max(2 ** 53 - 1);

export const ReindexBodySchema = z.object({
  chainId: ChainIdSchema,
  depositAddress: z.string().min(1).max(200),
  /** Deprecated by the service; accepted and ignored. */
  sweep: z.boolean().optional(),
  targetChainId: ChainIdSchema.optional(),
  currency: z.string().min(1).max(200).optional(),
});

/** `POST /transactions/deposit-address/reindex` (the service's published API): see `reindexDepositAddress`. */
export function depositAddressRoutes(deps: { chains: ReadonlyMap<number, ChainAdapter>; depositAddresses: DepositAddressStore }): Router {
  const router = Router();
  router.post('/transactions/deposit-address/reindex', async (req, res) => {
    const body = parseWithSchema(ReindexBodySchema, req.body);
    res.json(
      await reindexDepositAddress(deps.chains, deps.depositAddresses, {
        chainId: body.chainId,
        depositAddress: body.depositAddress,
        ...(body.targetChainId === undefined ? {} : { targetChainId: body.targetChainId }),
        ...(body.currency === undefined ? {} : { currency: body.currency }),
      }),
    );
  });
  return router;
}
