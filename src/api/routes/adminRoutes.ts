import { Router } from 'express';
import { z } from 'zod';
import type { VirtualClock } from '../../clock/VirtualClock';
import type { ApiKeyStore } from '../../store/ApiKeyStore';
import { parseWithSchema } from '../../errors/parseWithSchema';

export interface AdminRouteDeps {
  apiKeys: ApiKeyStore;
  clock: VirtualClock;
}

export const CreateApiKeySchema = z.object({ name: z.string().min(1).max(100).optional() }).strict();

/**
 * The simulator's admin interface (the service's dashboard stands here): API keys today;
 * webhooks, faults and the clock plug in beside them. Not part of the SPEC surface.
 */
export function adminRoutes(deps: AdminRouteDeps): Router {
  const router = Router();
  router.post('/admin/api-keys', (req, res) => {
    const body = parseWithSchema(CreateApiKeySchema, req.body);
    const created = deps.apiKeys.create(body.name ?? 'unnamed', deps.clock.now());
    res.status(201).json({ apiKey: created.key, name: created.name, createdAt: created.createdAt, isDefault: created.isDefault });
  });
  router.get('/admin/api-keys', (_req, res) => {
    res.json({ apiKeys: deps.apiKeys.list().map((k) => ({ apiKey: k.key, name: k.name, createdAt: k.createdAt, isDefault: k.isDefault })) });
  });
  return router;
}
