import { describe, expect, it } from 'vitest';
import { parseChainPorts } from '../../src/config/configFlags';
import { resolveChainPorts } from '../../src/config/resolveChainPorts';
import { loadSimulatorConfig } from '../../src/config/simulatorConfig';
import { chainKindFacts } from '../../src/chains/chainKinds';

const serversOf = (vm: Parameters<typeof chainKindFacts>[0]) => chainKindFacts(vm).clientServers;
const config = (options: Parameters<typeof loadSimulatorConfig>[0]['options']) => loadSimulatorConfig({ env: {}, options });

describe('--chain-port CHAIN=PORT', () => {
  it('parses one pair or several; one chain given two ports is refused', () => {
    expect(parseChainPorts('1=8545')).toEqual({ '1': 8545 });
    expect(parseChainPorts('1=8545, 8253038=18443')).toEqual({ '1': 8545, '8253038': 18443 });
    expect(() => parseChainPorts('1=70000')).toThrow(/CHAIN=PORT/);
    expect(() => parseChainPorts('ethereum=8545')).toThrow(/CHAIN=PORT/);
    expect(() => parseChainPorts('1=8545,1=9000')).toThrow(/chain 1 is given two ports/);
  });

  it('a chain of two servers takes PORT and PORT+1; every chain its own', () => {
    expect(resolveChainPorts(config({ chainPorts: { '1': 8545, '8253038': 18443, '792703809': 8899 } }), serversOf)).toEqual({ 1: 8545, 8253038: 18443, 792703809: 8899 });
    expect(resolveChainPorts(config({}), serversOf)).toEqual({});
  });

  it("refuses, in one line naming both, a port two servers would share (a second server's PORT+1 and the API's port included)", () => {
    // the ports are claimed in chain id order: chain 1's first
    expect(() => resolveChainPorts(config({ chainPorts: { '8253038': 18443, '1': 18444 } }), serversOf)).toThrow(
      "--chain-port 8253038=18443: chain 8253038's Esplora REST API (port 18444) clashes with chain 1's EVM JSON-RPC (HTTP and websocket) (port 18444)",
    );
    expect(() => resolveChainPorts(config({ port: 4646, chainPorts: { '1': 4646 } }), serversOf)).toThrow(/clashes with the API \(--port 4646\)/);
    expect(() => resolveChainPorts(config({ chainPorts: { '10': 8545 } }), serversOf)).toThrow('--chain-port 10=8545: chain 10 is not configured (--chains)');
    expect(() => resolveChainPorts(config({ chainPorts: { '792703809': 65535 } }), serversOf)).toThrow(/beyond 65535/);
  });
});
