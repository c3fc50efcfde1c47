import { ChainError } from '../errors/IntentsimError';

/**
 * A forked node's one read from its upstream (another node's HTTP API): GET `url` within
 * `timeoutMs` of the machine's time (the upstream is a real server, so its give-up is real time:
 * ARCHITECTURE.md "Time and randomness"). Answers the status and body text; a request that fails or
 * takes too long throws `UpstreamReadFailure` saying why in words (no answer within N ms, the
 * connection refused, …). Shared node plumbing: each node words its own error from it.
 */
export async function fetchUpstream(url: string, timeoutMs: number): Promise<{ status: number; ok: boolean; text: string }> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    return { status: response.status, ok: response.ok, text: await response.text() };
  } catch (error) {
    throw new UpstreamReadFailure(error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : describeFetchFailure(error));
  }
}


/** The upstream could not be read at all: `reason` says why. */
export class UpstreamReadFailure extends ChainError {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** fetch's "fetch failed" with its cause (ECONNREFUSED, ENOTFOUND, …) spelled out. */
function describeFetchFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const detail = cause instanceof Error ? ((cause as { code?: string }).code ?? cause.message) : undefined;
  return detail ? `${error.message} (${detail})` : error.message;
}
