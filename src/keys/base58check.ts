import { createHash } from 'node:crypto';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function checksum(payload: Uint8Array): Buffer {
  const once = createHash('sha256').update(payload).digest();
  return createHash('sha256').update(once).digest().subarray(0, 4);
}

/** Base58Check (Bitcoin's encoding of keys and legacy addresses): base58 of payload ‖ sha256d(payload)[0..4]. */
export function encodeBase58check(payload: Uint8Array): string {
  const bytes = Buffer.concat([payload, checksum(payload)]);
  let value = BigInt(`0x${bytes.toString('hex') || '0'}`);
  let text = '';
  while (value > 0n) {
    text = ALPHABET[Number(value % 58n)]! + text;
    value /= 58n;
  }
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  return '1'.repeat(zeros) + text;
}

/** The payload of a Base58Check string; throws on a character outside the alphabet or a wrong checksum. */
export function decodeBase58check(text: string): Buffer {
  let value = 0n;
  for (const char of text) {
    const digit = ALPHABET.indexOf(char);
    if (digit < 0) throw new Error(`not base58: ${JSON.stringify(char)}`);
    value = value * 58n + BigInt(digit);
  }
  let zeros = 0;
  while (zeros < text.length && text[zeros] === '1') zeros++;
  const hex = value === 0n ? '' : value.toString(16);
  const bytes = Buffer.concat([Buffer.alloc(zeros), Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex')]);
  if (bytes.length < 4) throw new Error('base58check text too short');
  const payload = bytes.subarray(0, -4);
  if (!checksum(payload).equals(bytes.subarray(-4))) throw new Error('base58check checksum mismatch');
  return payload;
}
