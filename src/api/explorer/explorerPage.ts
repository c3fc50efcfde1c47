/**
 * The explorer's one HTML page: every view (request list, request timeline, timeline files, a
 * chain's transaction, address and block pages) is drawn by its script from the URL's path.
 * No CDN: script and styles come from the simulator itself. The API reference is a page of its
 * own (`target` keeps the client-side router off it).
 */
export function explorerPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>intentsim explorer</title>
<link rel="stylesheet" href="/explorer/assets/explorer.css">
</head>
<body>
<header class="top">
  <a class="brand" href="/">intentsim explorer</a>
  <nav><a href="/">Requests</a><a href="/explorer/timeline-file">Timeline file</a><a href="/explorer/api-reference" target="_self">API reference</a></nav>
  <span id="connection" class="connection" data-testid="connection">offline</span>
</header>
<main id="app" data-testid="app">Loading…</main>
<script type="module" src="/explorer/assets/explorer.js"></script>
</body>
</html>
`;
}
