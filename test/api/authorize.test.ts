// covers: endpoint:POST /authorize, endpoint:POST /quote/v2
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { RunningSimulator } from '../../src/simulator';
import { nativeBridgeBody, postJson } from '../support/bridgeClient';
import { sharedTestSimulator } from '../support/sharedTestSimulator';

/**
 * SPEC §4.7 `POST /authorize` and §9 2026-05-21: the exchange flow's nonce mapping, typed-data
 * domain version 2 with `depositor`. Signatures are made by real keys and checked for real;
 * version-1 signatures and bodies are refused; a wallet's nonce maps once.
 */
describe('POST /authorize (nonce mapping, version 2)', () => {
  let sim: RunningSimulator;
  let wallet: PrivateKeyAccount;
  const DEPOSITOR = getAddress('0x00000000000000000000000000000000000d3905');

  beforeAll(async () => {
    sim = await sharedTestSimulator();
    wallet = privateKeyToAccount(sim.accounts[3]!.privateKey as Hex);
  });
  afterAll(async () => {
    await sim?.stop();
  });

  async function newRequestId(): Promise<Hex> {
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, nativeBridgeBody(wallet.address));
    expect(quote.status).toBe(200);
    return quote.body.steps.at(-1).requestId;
  }

  /** The first call: no signature, answers the signature step. */
  async function authorizeStep(requestId: Hex, nonce: string, depositor: Address = DEPOSITOR) {
    const response = await postJson(`${sim.baseUrl}/authorize`, { requestId, wallet: wallet.address, depositor, nonce });
    expect(response.status).toBe(200);
    expect(response.body.steps.map((step: { id: string; kind: string }) => [step.id, step.kind])).toEqual([['authorize', 'signature']]);
    return response.body.steps[0].items[0].data as { sign: { signatureKind: string; domain: any; types: any; primaryType: string; value: any }; post: { endpoint: string; method: string; body: any } };
  }

  /** Posts a signature the way the official SDK's signature step does: `?signature=` on the step's post. */
  const postSigned = (post: { endpoint: string; body: unknown }, signature: Hex) => postJson(`${sim.baseUrl}${post.endpoint}?signature=${signature}`, { ...(post.body as object), referrer: 'intentsim-test' });

  it('answers version-2 typed data with depositor, accepts its real signature, and maps a nonce once', async () => {
    const requestId = await newRequestId();
    const { sign, post } = await authorizeStep(requestId, '7');
    expect(sign.signatureKind).toBe('eip712');
    expect(sign.domain).toEqual({ name: 'NonceMapping', version: '2', chainId: 1 });
    expect(sign.types.NonceMapping.map((field: { name: string }) => field.name)).toEqual(['wallet', 'id', 'nonce', 'depositor']);
    expect(sign.value).toEqual({ wallet: wallet.address, id: requestId, nonce: '7', depositor: DEPOSITOR });
    expect(post).toMatchObject({ endpoint: '/authorize', method: 'POST' });

    const signature = await wallet.signTypedData({ domain: sign.domain, types: sign.types, primaryType: sign.primaryType, message: sign.value });
    const accepted = await postSigned(post, signature);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ message: 'Authorized', requestId, wallet: wallet.address, depositor: DEPOSITOR, nonce: '7' });

    // the same nonce again: refused, whether the same signature or a new mapping to another request
    const replay = await postSigned(post, signature);
    expect(replay.status).toBe(409);
    expect(replay.body).toMatchObject({ errorCode: 'NONCE_ALREADY_USED', requestId });
    const other = await newRequestId();
    const otherStep = await authorizeStep(other, '7');
    const reuse = await postSigned(otherStep.post, await wallet.signTypedData({ ...otherStep.sign, message: otherStep.sign.value } as any));
    expect(reuse.status).toBe(409);
    expect(reuse.body.errorCode).toBe('NONCE_ALREADY_USED');
    // a fresh nonce for the other request is fine (signature in the body works too)
    const fresh = await authorizeStep(other, '8');
    const freshSignature = await wallet.signTypedData({ ...fresh.sign, message: fresh.sign.value } as any);
    const ok = await postJson(`${sim.baseUrl}/authorize`, { ...fresh.post.body, signature: freshSignature });
    expect(ok.status).toBe(200);
    expect(ok.body.nonce).toBe('8');
  });

  it('refuses version-1 signatures (domain version "1", or no depositor) with UNSUPPORTED_AUTHORIZATION_VERSION', async () => {
    const requestId = await newRequestId();
    const body = { requestId, wallet: wallet.address, depositor: DEPOSITOR, nonce: '21' };
    const v1Shape = {
      domain: { name: 'NonceMapping', version: '1', chainId: 1 },
      types: { NonceMapping: [{ name: 'wallet', type: 'address' }, { name: 'id', type: 'bytes32' }, { name: 'nonce', type: 'uint256' }] },
      primaryType: 'NonceMapping',
      message: { wallet: wallet.address, id: requestId, nonce: 21n },
    } as const;
    const v1 = await wallet.signTypedData(v1Shape);
    const refused = await postJson(`${sim.baseUrl}/authorize?signature=${v1}`, body);
    expect(refused.status).toBe(400);
    expect(refused.body.errorCode).toBe('UNSUPPORTED_AUTHORIZATION_VERSION');
    expect(refused.body.message).toContain('version "2"');

    // the new shape signed under domain version "1" is refused the same way
    const { sign } = await authorizeStep(requestId, '21');
    const halfMigrated = await wallet.signTypedData({ ...sign, domain: { ...sign.domain, version: '1' }, message: sign.value } as any);
    const refusedToo = await postJson(`${sim.baseUrl}/authorize?signature=${halfMigrated}`, body);
    expect(refusedToo.status).toBe(400);
    expect(refusedToo.body.errorCode).toBe('UNSUPPORTED_AUTHORIZATION_VERSION');

    // a version-1 body (no depositor), with or without a signature
    for (const url of [`${sim.baseUrl}/authorize`, `${sim.baseUrl}/authorize?signature=${v1}`]) {
      const oldBody = await postJson(url, { requestId, wallet: wallet.address, nonce: '21' });
      expect(oldBody.status).toBe(400);
      expect(oldBody.body.errorCode).toBe('UNSUPPORTED_AUTHORIZATION_VERSION');
      expect(oldBody.body.message).toContain('depositor');
    }

    // none of these took the nonce: the version-2 signature still maps it
    const v2 = await wallet.signTypedData({ ...sign, message: sign.value } as any);
    expect((await postJson(`${sim.baseUrl}/authorize?signature=${v2}`, body)).status).toBe(200);
  });

  it('refuses a signature by anyone else, or over other terms, and bad input, with 4xx errorCodes', async () => {
    const requestId = await newRequestId();
    const { sign, post } = await authorizeStep(requestId, '40');
    const stranger = privateKeyToAccount(sim.accounts[2]!.privateKey as Hex);
    const byStranger = await stranger.signTypedData({ ...sign, message: sign.value } as any);
    const refused = await postSigned(post, byStranger);
    expect(refused.status).toBe(400);
    expect(refused.body.errorCode).toBe('INVALID_SIGNATURE');
    // signed for another depositor than the body names
    const otherTerms = await wallet.signTypedData({ ...sign, message: { ...sign.value, depositor: wallet.address } } as any);
    expect((await postSigned(post, otherTerms)).body.errorCode).toBe('INVALID_SIGNATURE');

    const good = { requestId, wallet: wallet.address, depositor: DEPOSITOR, nonce: '41' };
    const cases: Array<[Record<string, unknown>, string, number, string]> = [
      [{ ...good, depositor: 'not-an-address' }, '', 400, 'INVALID_ADDRESS'],
      [{ ...good, wallet: '0x1234' }, '', 400, 'INVALID_ADDRESS'],
      [{ ...good, requestId: `0x${'00'.repeat(32)}` }, '', 404, 'REQUEST_NOT_FOUND'],
      [{ ...good, nonce: '-1' }, '', 400, 'INVALID_INPUT_PARAMS'],
      [{ ...good, nonce: 1.5 }, '', 400, 'INVALID_INPUT_PARAMS'],
      [good, '?signature=nothex', 400, 'INVALID_INPUT_PARAMS'],
      [good, `?signature=0x${'ab'.repeat(65)}`, 400, 'INVALID_SIGNATURE'],
      [{ ...good, signature: `0x${'cd'.repeat(65)}` }, `?signature=0x${'ab'.repeat(65)}`, 400, 'INVALID_INPUT_PARAMS'],
    ];
    for (const [body, query, status, errorCode] of cases) {
      const response = await postJson(`${sim.baseUrl}/authorize${query}`, body);
      expect(response.status, JSON.stringify(body) + query).toBe(status);
      expect(response.body.errorCode, JSON.stringify(body) + query).toBe(errorCode);
    }
  });
});
