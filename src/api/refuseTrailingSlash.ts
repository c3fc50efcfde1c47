import type { RequestHandler } from 'express';
import { RouteNotFoundError } from '../errors/requestErrors';

/**
 * A path with a trailing slash names no operation (`DELETE /admin/solver/rules/`): 404 like any
 * unknown route, instead of the operation without it (express's routers match both by default,
 * which answered paths no OpenAPI document lists). The explorer's pages keep theirs.
 */
export const refuseTrailingSlash: RequestHandler = (req, _res, next) => {
  if (req.path.length > 1 && req.path.endsWith('/') && !req.path.startsWith('/explorer')) return next(new RouteNotFoundError(req.method, req.path));
  next();
};
