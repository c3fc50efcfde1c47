import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseGwei, recoverTransactionAddress, type TransactionSerializableEIP1559 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { StartDerivationCache } from '../../src/keys/startDerivationCache';
import { nativeKeyAccount } from '../../src/keys/nativeKeyAccount';
import { signSetUpTransaction } from '../../src/chains/evm/sendRawTransactions';

const dirs: string[] = [];
const cacheFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-sigcache-'));
  dirs.push(dir);
  return join(dir, 'nested', 'signatures.json');
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const key = new Uint8Array(32).fill(3);
const hashOf = (text: string) => new Uint8Array(createHash('sha256').update(text).digest());
/** A signer that counts its calls and signs "deterministically" (the cache cannot tell). */
function countingSigner() {
  const signer = { calls: 0, sign: (hash: Uint8Array) => () => (signer.calls++, new Uint8Array(createHash('sha512').update(hash).digest())) };
  return signer;
}

describe('the start signature cache', () => {
  it('signs once: a later start reads the signature from the file, keyed by scheme, key and hash', () => {
    const file = cacheFile();
    const signer = countingSigner();
    const first = new StartDerivationCache(file);
    const signature = first.value('scheme', [key, hashOf('a')], signer.sign(hashOf('a')));
    first.save();
    expect(signer.calls).toBe(1);
    // the file holds no private key
    expect(readFileSync(file, 'utf8')).not.toContain(Buffer.from(key).toString('hex'));

    const second = new StartDerivationCache(file);
    expect(Buffer.from(second.value('scheme', [key, hashOf('a')], signer.sign(hashOf('a')))).equals(Buffer.from(signature))).toBe(true);
    expect(signer.calls).toBe(1);
    // another scheme, key or hash is another entry
    second.value('other scheme', [key, hashOf('a')], signer.sign(hashOf('a')));
    second.value('scheme', [new Uint8Array(32).fill(4), hashOf('a')], signer.sign(hashOf('a')));
    second.value('scheme', [key, hashOf('b')], signer.sign(hashOf('b')));
    expect(signer.calls).toBe(4);
  });

  it('keeps what another simulator saved meanwhile (saves merge) and writes nothing when nothing is new', () => {
    const file = cacheFile();
    const signer = countingSigner();
    const one = new StartDerivationCache(file);
    const two = new StartDerivationCache(file);
    one.value('s', [key, hashOf('one')], signer.sign(hashOf('one')));
    two.value('s', [key, hashOf('two')], signer.sign(hashOf('two')));
    one.save();
    two.save();
    const written = readFileSync(file, 'utf8');
    two.save();
    expect(readFileSync(file, 'utf8')).toBe(written);
    const third = new StartDerivationCache(file);
    third.value('s', [key, hashOf('one')], signer.sign(hashOf('one')));
    third.value('s', [key, hashOf('two')], signer.sign(hashOf('two')));
    expect(signer.calls).toBe(2);
  });

  it.each([
    ['not JSON', () => 'garbage{'],
    ['another format', (text: string) => text.replace('"format":1', '"format":999')],
    ['a changed signature (checksum fails)', (text: string) => text.replace(/"([0-9a-f]{64})":"([0-9a-f])/, (_m, k: string, c: string) => `"${k}":"${c === '0' ? '1' : '0'}`)],
    ['a value that is no hex', (text: string) => text.replace(/"([0-9a-f]{64})":"[0-9a-f]+"/, '"$1":"zz"')],
  ])('ignores a file with %s: signs again and replaces it', (_what, corrupt) => {
    const file = cacheFile();
    const signer = countingSigner();
    const first = new StartDerivationCache(file);
    const signature = first.value('s', [key, hashOf('a')], signer.sign(hashOf('a')));
    first.save();
    writeFileSync(file, corrupt(readFileSync(file, 'utf8')));

    const second = new StartDerivationCache(file);
    expect(Buffer.from(second.value('s', [key, hashOf('a')], signer.sign(hashOf('a')))).equals(Buffer.from(signature))).toBe(true);
    expect(signer.calls).toBe(2);
    second.save();
    const third = new StartDerivationCache(file);
    third.value('s', [key, hashOf('a')], signer.sign(hashOf('a')));
    expect(signer.calls).toBe(2);
  });
});

describe('set-up transactions signed through the cache', () => {
  const privateKey = `0x${'59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'}` as const;
  const transactions: TransactionSerializableEIP1559[] = Array.from({ length: 40 }, (_, nonce) => ({
    type: 'eip1559',
    chainId: nonce % 2 === 0 ? 1 : 8453,
    nonce,
    to: nonce % 3 === 0 ? null : `0x${(nonce + 1).toString(16).padStart(40, '0')}`,
    data: `0x${'ab'.repeat(nonce)}`,
    value: BigInt(nonce) * 10n ** 15n,
    gas: 200_000n,
    maxFeePerGas: parseGwei('50'),
    maxPriorityFeePerGas: parseGwei('1'),
  }));

  it('gives byte for byte what viem signs, first from the signer and then from the file', async () => {
    const file = cacheFile();
    const account = nativeKeyAccount(privateKey);
    for (const round of [0, 1]) {
      const cache = new StartDerivationCache(file);
      for (const transaction of transactions) {
        const signed = await signSetUpTransaction(account, cache, transaction);
        expect(signed, `round ${round}, nonce ${transaction.nonce}`).toBe(await privateKeyToAccount(privateKey).signTransaction(transaction));
        expect(await recoverTransactionAddress({ serializedTransaction: signed as `0x02${string}` })).toBe(account.address);
      }
      cache.save();
    }
  });
});

describe('nativeKeyAccount', () => {
  it("is viem's privateKeyToAccount: address, public key, message, typed data and transaction signatures", async () => {
    for (let i = 1; i <= 5; i++) {
      const privateKey = `0x${createHash('sha256').update(`account ${i}`).digest('hex')}` as const;
      const native = nativeKeyAccount(privateKey);
      const viem = privateKeyToAccount(privateKey);
      expect(native.address).toBe(viem.address);
      expect(native.publicKey).toBe(viem.publicKey);
      expect(native.source).toBe('privateKey');
      expect(await native.signMessage({ message: `hello ${i}` })).toBe(await viem.signMessage({ message: `hello ${i}` }));
      const hash = `0x${createHash('sha256').update(`h${i}`).digest('hex')}` as const;
      expect(await native.sign({ hash })).toBe(await viem.sign!({ hash }));
      const typedData = { domain: { name: 'x', chainId: 1 }, types: { M: [{ name: 'v', type: 'uint256' }] }, primaryType: 'M', message: { v: BigInt(i) } } as const;
      expect(await native.signTypedData(typedData)).toBe(await viem.signTypedData(typedData));
    }
  });
});
