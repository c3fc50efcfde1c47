/**
 * A fork's upstream URL as messages, the start summary and `--json` show it: its origin alone when
 * it has no path or query, else its origin and `/…` (a provider's URL often holds an API key in its
 * path or query, docs/forking.md). The one rule every chain kind and node uses.
 */
export function shownUpstream(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname.replace(/\/+$/, '') === '' && parsed.search === '' ? parsed.origin : `${parsed.origin}/…`;
}
