import { describe, expect, it } from 'vitest';
import { explorerLinksFor } from '../../../src/domain/chain/explorerLinks';
import { VM_TYPES } from '../../../src/domain/chain/chainDescription';

describe('explorerLinksFor (SPEC §2.1 explorer fields)', () => {
  it('only the exchange chain (lvm, bare hashes, SPEC §4.3) uses /transaction/{TX_HASH}; every other VM /tx/{TX_HASH}, under an absolute explorerUrl per chain', () => {
    for (const vmType of VM_TYPES) {
      const links = explorerLinksFor({ id: 7, vmType }, 'http://127.0.0.1:4000');
      expect(links.explorerUrl).toBe('http://127.0.0.1:4000/explorer/7');
      expect(links.explorerPaths.transaction).toBe(vmType === 'lvm' ? '/transaction/{TX_HASH}' : '/tx/{TX_HASH}');
      expect(links.explorerPaths.address).toContain('{ADDRESS}');
    }
  });
});
