/**
 * Whether a deployment answers at all, before any check runs: one GET of `/chains` (every check
 * starts from it). Any HTTP answer counts, whatever its status (a check then says what is wrong
 * with it); no answer — connection refused, a name that does not resolve, no answer within
 * `timeoutMs` — is returned as one sentence, so the CLI says so instead of failing every check.
 */
export async function probeBaseUrl(baseUrl: string, timeoutMs = 10_000): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(`${baseUrl.replace(/\/+$/, '')}/chains`);
  } catch {
    return `${baseUrl} is not a URL`;
  }
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return undefined;
  } catch (error) {
    return `${baseUrl} does not answer: ${whyNoAnswer(error, timeoutMs)}`;
  }
}

function whyNoAnswer(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `no answer within ${timeoutMs / 1000} s`;
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause?.code === 'ECONNREFUSED') return 'connection refused';
  if (cause?.code === 'ENOTFOUND' || cause?.code === 'EAI_AGAIN') return `its host name does not resolve (${cause.code})`;
  return cause?.message ?? (error instanceof Error ? error.message : String(error));
}
