import { getAddressDecoder, type Address } from '@solana/kit';

/**
 * Reads an instruction's data front to back as the programs lay it out (little-endian integers,
 * 32-byte addresses, `COption` flags, bincode strings). Reading past the end throws, which the
 * parsers turn into "not parsed" (the instruction is then shown partially decoded, as a validator does).
 */
export class SvmInstructionData {
  private at = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  u8(): number {
    this.need(1);
    return this.view.getUint8(this.at++);
  }

  u32(): number {
    this.need(4);
    const value = this.view.getUint32(this.at, true);
    this.at += 4;
    return value;
  }

  u64(): bigint {
    this.need(8);
    const value = this.view.getBigUint64(this.at, true);
    this.at += 8;
    return value;
  }

  address(): Address {
    this.need(32);
    const value = getAddressDecoder().decode(this.bytes.subarray(this.at, this.at + 32));
    this.at += 32;
    return value;
  }

  /** SPL Token's instruction `COption<Pubkey>`: one flag byte, then the address when it is 1. */
  optionalAddress(): Address | null {
    return this.u8() === 1 ? this.address() : null;
  }

  /** A bincode string (u64 length, UTF-8 bytes), as the System program's seeds are written. */
  string(): string {
    const length = Number(this.u64());
    this.need(length);
    const value = new TextDecoder('utf-8', { fatal: true }).decode(this.bytes.subarray(this.at, this.at + length));
    this.at += length;
    return value;
  }

  /** Every byte not read yet. */
  rest(): Uint8Array {
    const value = this.bytes.subarray(this.at);
    this.at = this.bytes.length;
    return value;
  }

  private need(count: number): void {
    if (this.at + count > this.bytes.length) throw new RangeError('instruction data too short');
  }
}

/** An instruction's accounts by position; a missing one throws (too few accounts: not parsed). */
export function accountAt(accounts: readonly Address[], index: number): Address {
  const account = accounts[index];
  if (account === undefined) throw new RangeError(`instruction has no account ${index}`);
  return account;
}
