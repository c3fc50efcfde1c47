import { toHex, type Hex } from 'viem';
import { sign, signAuthorization, signMessage, signTransaction, signTypedData, toAccount, type PrivateKeyAccount } from 'viem/accounts';
import { publicKeyToAddress } from 'viem/utils';
import { uncompressedPublicKey } from './secp256k1PublicKeys';

/** A viem account that also tells its private key (the start's signature cache is keyed by it). */
export type KeyedPrivateKeyAccount = PrivateKeyAccount & { privateKey: Hex };

/**
 * viem's `privateKeyToAccount`, with the public key from Node's native secp256k1: viem derives it in
 * pure JavaScript, whose first use builds the curve's tables (~25 ms) on the start path. Signing is
 * viem's own, with the same private key (test/keys/nativeKeyAccount.test.ts compares the two).
 * `knownPublicKey` (65 bytes, uncompressed) spares deriving it when the caller has it.
 */
export function nativeKeyAccount(privateKey: Hex, knownPublicKey?: Uint8Array): KeyedPrivateKeyAccount {
  const publicKey = toHex(knownPublicKey ?? uncompressedPublicKey(Buffer.from(privateKey.slice(2), 'hex')));
  const account = toAccount({
    address: publicKeyToAddress(publicKey),
    sign: async ({ hash }) => sign({ hash, privateKey, to: 'hex' }),
    signAuthorization: async (authorization) => signAuthorization({ ...authorization, privateKey }),
    signMessage: async ({ message }) => signMessage({ message, privateKey }),
    signTransaction: async (transaction, { serializer } = {}) => signTransaction({ privateKey, transaction, serializer }),
    signTypedData: async (typedData) => signTypedData({ ...typedData, privateKey } as Parameters<typeof signTypedData>[0]),
  });
  return { ...account, publicKey, source: 'privateKey', privateKey } as KeyedPrivateKeyAccount;
}
