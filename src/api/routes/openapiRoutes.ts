import { Router } from 'express';
import { apiReferencePage, apiReferenceScript } from '../openapi/apiReferencePage';

// the documents' modules (every operation and its zod schemas) are loaded at the first request for
// one: esbuild's bundle evaluates a module imported this way when it is first imported (~15 ms of a start)
const documents = () => import('../openapi/serviceOpenApiDocuments');
const publicDocument = once(async () => JSON.stringify((await documents()).buildPublicOpenApiDocument()));
const adminDocument = once(async () => JSON.stringify((await documents()).buildAdminOpenApiDocument()));

function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

export const API_REFERENCE_SCRIPT_PATH = '/explorer/assets/api-reference.js';

/**
 * `GET /openapi.json` (the service's surface, OpenAPI 3.1), `GET /admin/openapi.json` (the control
 * plane) and the API reference page in the explorer (`/explorer/api-reference`, and
 * `/explorer/admin-api-reference`). Each document is built once, at its first request (not at
 * start, so starting stays as fast), and served as the same text after.
 */
export function openapiRoutes(): Router {
  const router = Router();
  router.get('/openapi.json', async (_req, res) => {
    res.type('application/json').send(await publicDocument());
  });
  router.get('/admin/openapi.json', async (_req, res) => {
    res.type('application/json').send(await adminDocument());
  });
  router.get('/explorer/api-reference', (_req, res) => {
    res.type('text/html').set('cache-control', 'no-cache').send(apiReferencePage('/openapi.json', API_REFERENCE_SCRIPT_PATH));
  });
  router.get('/explorer/admin-api-reference', (_req, res) => {
    res.type('text/html').set('cache-control', 'no-cache').send(apiReferencePage('/admin/openapi.json', API_REFERENCE_SCRIPT_PATH));
  });
  router.get(API_REFERENCE_SCRIPT_PATH, async (_req, res) => {
    res.type('text/javascript').set('cache-control', 'max-age=3600').send(await apiReferenceScript());
  });
  return router;
}
