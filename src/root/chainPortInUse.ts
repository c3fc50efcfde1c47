import { ConfigurationError } from '../errors/IntentsimError';

/** A chain server's port another process holds (`--chain-port`, docs/shared-host.md ("Ports")). */
export class ChainPortInUseError extends ConfigurationError {}

/**
 * A chain's node that could not listen because its port is taken, as one line naming the chain,
 * the address and the flag that fixed it; any other error as it is.
 */
export function chainPortInUse(chainId: number, fixedPort: number | undefined, error: unknown): unknown {
  const failure = error as NodeJS.ErrnoException & { address?: string; port?: number };
  if (failure?.code !== 'EADDRINUSE') return error;
  const where = failure.address && failure.port ? `${failure.address}:${failure.port}` : 'its port';
  const flag = fixedPort === undefined ? '' : ` (--chain-port ${chainId}=${fixedPort})`;
  return new ChainPortInUseError(`chain ${chainId}: ${where} is already in use by another process${flag}`, { cause: error });
}
