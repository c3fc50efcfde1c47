/** hash-wasm's keccak alone (its package entry loads every algorithm: ~40 ms more at start). */
declare module 'hash-wasm/dist/keccak.umd.min.js' {
  import type { IHasher } from 'hash-wasm';
  const keccakModule: { createKeccak(bits?: 224 | 256 | 384 | 512): Promise<IHasher> };
  export default keccakModule;
}
