import type { RequestHandler } from 'express';
import { AdminKeyRequiredError } from '../errors/authErrors';
import type { ApiKeyStore } from '../store/ApiKeyStore';
import { optionalApiKey } from './requestApiKey';
import { isLoopbackHost } from '../config/listenHost';

/**
 * Admin routes change what the simulator does (keys, webhooks, faults, solver rules). On loopback
 * anyone on the machine may call them; when the server listens beyond loopback, or is reached
 * from other machines by a `--public-url` (a proxy in front of a loopback API), only a caller
 * with the default API key (printed at start) may.
 */
export function guardAdminRoutes(deps: { host: string; publicUrl?: string | undefined; apiKeys: ApiKeyStore }): RequestHandler {
  const open = isLoopbackHost(deps.host) && (!deps.publicUrl || isLoopbackHost(new URL(deps.publicUrl).hostname));
  return (req, _res, next) => {
    if (open || !req.path.startsWith('/admin/')) return next();
    if (optionalApiKey(req, deps.apiKeys)?.isDefault !== true) return next(new AdminKeyRequiredError());
    next();
  };
}
