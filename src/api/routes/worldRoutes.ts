import { Router } from 'express';
import { z } from 'zod';
import { parseWithSchema } from '../../errors/parseWithSchema';

/** The world snapshots as the routes use them (built by the root: `src/root/worldSnapshots.ts`). */
export interface WorldSnapshotService {
  snapshot(options?: { keep?: boolean }): Promise<string>;
  revert(id: string): Promise<void>;
  reset(): Promise<void>;
}

/** The world snapshot routes' bodies (also described in `GET /admin/openapi.json`). */
export const worldBodySchemas = {
  snapshot: z.object({ keep: z.boolean().optional() }).strict(),
  revert: z.object({ id: z.string().regex(/^0x[0-9a-f]{1,13}$/, 'a world snapshot id from POST /admin/snapshot (hex)') }).strict(),
};

/**
 * The whole world's snapshots over HTTP (docs/control-plane.md, "World snapshots"): every chain,
 * the requests, the webhook outbox, the solver's rules, the clock at once; the same calls as
 * `sim.snapshot` / `sim.revert` / `sim.reset`.
 */
export function worldRoutes(deps: { world: WorldSnapshotService }): Router {
  const router = Router();
  router.post('/admin/snapshot', async (req, res) => {
    const { keep } = parseWithSchema(worldBodySchemas.snapshot, req.body ?? {});
    res.status(201).json({ id: await deps.world.snapshot({ keep: keep === true }), keep: keep === true });
  });
  router.post('/admin/revert', async (req, res) => {
    const { id } = parseWithSchema(worldBodySchemas.revert, req.body);
    await deps.world.revert(id);
    res.json({ revertedTo: id });
  });
  router.post('/admin/reset', async (_req, res) => {
    await deps.world.reset();
    res.json({ reset: true });
  });
  return router;
}
