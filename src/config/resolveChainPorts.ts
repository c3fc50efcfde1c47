import type { VmType } from '../domain/chain/chainDescription';
import { ConfigError, resolveChains, type SimulatorConfig } from './simulatorConfig';

/** One port a server will listen on, and whose it is (for the message of a clash). */
interface PlannedPort {
  port: number;
  owner: string;
}

/**
 * The ports `--chain-port CHAIN=PORT` fixes, checked before anything starts: each names a
 * configured chain that spawns its own servers; in chain id order, a chain's servers (`serversOf` its kind, in port
 * order) take PORT, PORT+1, …; no two servers (the API's fixed port included) may share one.
 * Refused with one line naming both owners (docs/shared-host.md ("Ports")).
 */
export function resolveChainPorts(config: SimulatorConfig, serversOf: (vm: VmType) => readonly string[]): Record<number, number> {
  const chains = resolveChains(config);
  const planned: PlannedPort[] = config.port === 0 ? [] : [{ port: config.port, owner: `the API (--port ${config.port})` }];
  const ports: Record<number, number> = {};
  for (const [id, first] of Object.entries(config.chainPorts)) {
    const chain = chains.find((candidate) => candidate.id === Number(id));
    if (!chain) throw new ConfigError(`--chain-port ${id}=${first}: chain ${id} is not configured (--chains)`);
    if (chain.rpcUrl) throw new ConfigError(`--chain-port ${id}=${first}: chain ${id} is attached at ${chain.rpcUrl}; the simulator listens for it on no port of its own`);
    const servers = serversOf(chain.vm);
    servers.forEach((server, offset) => {
      const port = first + offset;
      const owner = `chain ${id}'s ${server} (port ${port})`;
      if (port > 65535) throw new ConfigError(`--chain-port ${id}=${first}: ${owner} is beyond 65535`);
      const clash = planned.find((other) => other.port === port);
      if (clash) throw new ConfigError(`--chain-port ${id}=${first}: ${owner} clashes with ${clash.owner}`);
      planned.push({ port, owner });
    });
    ports[chain.id] = first;
  }
  return ports;
}
