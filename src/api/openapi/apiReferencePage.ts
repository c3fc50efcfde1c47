import { readFile } from 'node:fs/promises';
import { apiReferenceRendererPath } from './apiReferenceRenderer';

let renderer: Promise<Buffer> | undefined;

/**
 * The renderer's script (Scalar's standalone build, found by ./apiReferenceRenderer.ts: no CDN,
 * works offline), read once at its first request.
 */
export function apiReferenceScript(): Promise<Buffer> {
  renderer ??= (async () => readFile(apiReferenceRendererPath()))().catch((error: unknown) => {
    renderer = undefined;
    throw error;
  });
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
