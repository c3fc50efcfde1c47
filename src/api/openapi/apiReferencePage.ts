import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';

const require = createRequire(import.meta.url);

/** The bundled renderer (Scalar's standalone build), read from node_modules: no CDN, works offline. */
const RENDERER_PATH = require.resolve('@scalar/api-reference/browser/standalone.js');

let renderer: Promise<Buffer> | undefined;

/** The renderer's script, read once. */
export function apiReferenceScript(): Promise<Buffer> {
  renderer ??= readFile(RENDERER_PATH);
  return renderer;
}

/** The API reference page: the renderer reading `documentUrl`, no fonts or assets from the network. */
export function apiReferencePage(documentUrl: string, scriptUrl: string): string {
  const configuration = JSON.stringify({ withDefaultFonts: false, hideClientButton: true, telemetry: false });
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>intentsim API reference</title><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body>
<script id="api-reference" data-url="${documentUrl}" data-configuration='${configuration}'></script>
<script src="${scriptUrl}"></script>
</body>
</html>
`;
}
