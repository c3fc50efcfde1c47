import { ConfigurationError } from '../errors/IntentsimError';

/**
 * Runs a forked chain's first contact with its upstream (the node's start-up probe); an upstream
 * that cannot be read (`isUpstreamFailure`, the kind's own error) is bad input, not a chain failure: one line naming the chain and why (a
 * `ConfigurationError`, which the CLI answers with exit 2).
 */
export async function checkForkUpstream(chainId: number, contact: () => Promise<void>, isUpstreamFailure: (error: unknown) => boolean): Promise<void> {
  try {
    await contact();
  } catch (error) {
    if (isUpstreamFailure(error) && error instanceof Error) {
      throw new ConfigurationError(`chain ${chainId}: ${error.message}`, { cause: error });
    }
    throw error;
  }
}
