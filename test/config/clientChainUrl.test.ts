import { describe, expect, it } from 'vitest';
import { clientChainUrl, describedForClient } from '../../src/config/clientChainUrl';
import { connectableHost, isWildcardHost } from '../../src/config/listenHost';
import type { ChainDescription } from '../../src/domain/chain/chainDescription';

describe('clientChainUrl: a chain listening URL as a client is handed it', () => {
  it('a loopback or wildcard URL gets the public hostname and keeps its port and path', () => {
    expect(clientChainUrl('http://127.0.0.1:8545', '192.0.2.2')).toBe('http://192.0.2.2:8545');
    expect(clientChainUrl('ws://127.0.0.1:8546', 'sim.example.test')).toBe('ws://sim.example.test:8546');
    expect(clientChainUrl('http://0.0.0.0:18443/wallet/x', 'sim.example.test')).toBe('http://sim.example.test:18443/wallet/x');
    expect(clientChainUrl('http://[::1]:8545', 'fd00::2')).toBe('http://[fd00::2]:8545');
    expect(clientChainUrl('http://localhost:8545', '[fd00::2]')).toBe('http://[fd00::2]:8545');
  });

  it('without a public hostname, or for a node at an address of its own, the URL is handed out as it is', () => {
    expect(clientChainUrl('http://127.0.0.1:8545', undefined)).toBe('http://127.0.0.1:8545');
    expect(clientChainUrl('https://rpc.example.org/v1/key', '192.0.2.2')).toBe('https://rpc.example.org/v1/key');
    expect(clientChainUrl('', '192.0.2.2')).toBe('');
  });

  it("describedForClient moves the RPC, websocket and client URLs, and the summary note naming them", () => {
    const described = {
      httpRpcUrl: 'http://127.0.0.1:9000',
      wsRpcUrl: '',
      clientUrls: { esploraUrl: 'http://127.0.0.1:9001' },
      fundedAccountsNote: 'keys in WIF; Esplora REST API http://127.0.0.1:9001',
    } as unknown as ChainDescription;
    expect(describedForClient(described, '192.0.2.2')).toMatchObject({
      httpRpcUrl: 'http://192.0.2.2:9000',
      wsRpcUrl: '',
      clientUrls: { esploraUrl: 'http://192.0.2.2:9001' },
      fundedAccountsNote: 'keys in WIF; Esplora REST API http://192.0.2.2:9001',
    });
    expect(describedForClient(described, undefined)).toBe(described);
  });

  it('a wildcard listening host is connected to over loopback', () => {
    expect([isWildcardHost('0.0.0.0'), isWildcardHost('::'), isWildcardHost('127.0.0.1')]).toEqual([true, true, false]);
    expect([connectableHost('0.0.0.0'), connectableHost('::'), connectableHost('::1'), connectableHost('192.0.2.2')]).toEqual(['127.0.0.1', '[::1]', '[::1]', '192.0.2.2']);
  });
});
