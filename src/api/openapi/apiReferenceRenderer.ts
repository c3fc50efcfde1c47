import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { installRoots } from '../installRoots';

/**
 * The one place that knows where the API reference renderer is: Scalar's standalone browser build,
 * one file (~3.5 MB). `@scalar/api-reference` is a devDependency (the package alone is ~240 MB
 * installed): a checkout reads the file from its node_modules, `npm run build` copies it into
 * dist/ and an installed package reads that copy.
 */
export const API_REFERENCE_RENDERER_MODULE = '@scalar/api-reference/browser/standalone.js';

/** Where `npm run build` puts the renderer, below the package's root. */
export const PREBUILT_API_REFERENCE_RENDERER = join('dist', 'api-reference', 'standalone.js');

/** The renderer in a checkout: the devDependency's file in its node_modules. */
export function checkoutApiReferenceRenderer(root: string): string {
  return createRequire(join(root, 'package.json')).resolve(API_REFERENCE_RENDERER_MODULE);
}

/** The renderer's file: a checkout's (beside src/cli.ts) or the installed package's copy in dist/. */
export function apiReferenceRendererPath(): string {
  for (const root of installRoots()) {
    if (existsSync(join(root, 'src', 'cli.ts'))) return checkoutApiReferenceRenderer(root);
    const prebuilt = join(root, PREBUILT_API_REFERENCE_RENDERER);
    if (existsSync(prebuilt)) return prebuilt;
  }
  throw new Error(`the API reference renderer is not in this install (neither a checkout with ${API_REFERENCE_RENDERER_MODULE} installed nor ${PREBUILT_API_REFERENCE_RENDERER})`);
}
