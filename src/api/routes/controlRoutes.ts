import { Router } from 'express';
import { z } from 'zod';
import type { ChainControl, ControlledChain } from '../../chains/ChainControl';
import type { VirtualClock } from '../../clock/VirtualClock';
import { parseWithSchema } from '../../errors/parseWithSchema';
import { CheatCallRefusedError, UnknownChainError } from '../../errors/adminErrors';
import { SimulatorError } from '../../errors/SimulatorError';
import { BaseError } from 'viem';

export const ChainIdParam = z.object({ chainId: z.coerce.number().int().positive().max(2 ** 53 - 1) }).strict();
const Seconds = z.number().positive().max(10 * 365 * 24 * 3600);
/** The control plane's request bodies (also described in `GET /admin/openapi.json`). */
export const controlBodySchemas = {
  advance: z.object({ seconds: Seconds }).strict(),
  mine: z.object({ blocks: z.number().int().positive().max(1000).default(1) }).strict(),
  automine: z.object({ enabled: z.boolean() }).strict(),
  intervalMining: z.object({ seconds: z.number().int().min(0).max(3600) }).strict(),
  reorg: z.object({ depth: z.number().int().positive().max(64) }).strict(),
  revert: z.object({ id: z.string().regex(/^0x[0-9a-fA-F]{1,64}$/, 'a snapshot id from POST …/snapshot (hex)') }).strict(),
};

/**
 * The control plane over HTTP (not part of the SPEC surface; docs/control-plane.md ("Control plane")), the same
 * functions as `sim.control` and the scenario steps: the virtual clock, and each chain's cheat calls.
 * After a cheat call the chain is indexed at once, so a reorged deposit is noticed by the answer.
 * A cheat call the chain lacks is answered by `ChainControl` (UNSUPPORTED_ON_CHAIN).
 */
export function controlRoutes(deps: { clock: VirtualClock; chainControl: ChainControl }): Router {
  const router = Router();
  const chainOf = (params: unknown): ControlledChain => {
    const { chainId } = parseWithSchema(ChainIdParam, params, 'path');
    const chain = deps.chainControl.find(chainId);
    if (!chain) throw new UnknownChainError(chainId, deps.chainControl.chainIds());
    return chain;
  };
  /**
   * A cheat call the node refuses is the caller's mistake (400), not the simulator's; one the chain
   * lacks is already an answer (UNSUPPORTED_ON_CHAIN, from `ChainControl`).
   */
  const cheat = async (chain: ControlledChain, call: string, run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (error) {
      if (error instanceof SimulatorError) throw error;
      const reason = error instanceof BaseError ? (error.details || error.shortMessage) : error instanceof Error ? error.message : String(error);
      throw new CheatCallRefusedError(chain.chainId, call, reason);
    }
  };
  const clockView = () => ({ now: deps.clock.now(), mode: deps.clock.mode });

  router.get('/admin/clock', (_req, res) => {
    res.json(clockView());
  });
  router.post('/admin/clock/advance', async (req, res) => {
    const { seconds } = parseWithSchema(controlBodySchemas.advance, req.body);
    await deps.chainControl.advanceTime(seconds);
    res.json(clockView());
  });
  router.post('/admin/chains/:chainId/mine', async (req, res) => {
    const chain = chainOf(req.params);
    const { blocks } = parseWithSchema(controlBodySchemas.mine, req.body);
    await chain.mine(blocks);
    await chain.syncNow();
    res.json({ chainId: chain.chainId, mined: blocks });
  });
  router.post('/admin/chains/:chainId/automine', async (req, res) => {
    const chain = chainOf(req.params);
    const { enabled } = parseWithSchema(controlBodySchemas.automine, req.body);
    await chain.setAutomine(enabled);
    res.json({ chainId: chain.chainId, automine: enabled });
  });
  router.post('/admin/chains/:chainId/interval-mining', async (req, res) => {
    const chain = chainOf(req.params);
    const { seconds } = parseWithSchema(controlBodySchemas.intervalMining, req.body);
    await chain.setIntervalMining(seconds);
    res.json({ chainId: chain.chainId, intervalSeconds: seconds });
  });
  router.post('/admin/chains/:chainId/reorg', async (req, res) => {
    const chain = chainOf(req.params);
    const { depth } = parseWithSchema(controlBodySchemas.reorg, req.body);
    await cheat(chain, `a reorg of depth ${depth}`, () => chain.reorg(depth));
    await chain.syncNow();
    res.json({ chainId: chain.chainId, depth });
  });
  router.post('/admin/chains/:chainId/snapshot', async (req, res) => {
    const chain = chainOf(req.params);
    res.status(201).json({ chainId: chain.chainId, id: await chain.snapshot() });
  });
  router.post('/admin/chains/:chainId/revert', async (req, res) => {
    const chain = chainOf(req.params);
    const { id } = parseWithSchema(controlBodySchemas.revert, req.body);
    await cheat(chain, `a revert to ${id}`, () => chain.revert(id));
    await chain.syncNow();
    res.json({ chainId: chain.chainId, revertedTo: id });
  });
  return router;
}
