import { describe, expect, it } from 'vitest';
import { shownUpstream } from '../../src/config/shownUpstream';

describe('shownUpstream: a fork upstream as messages, the summary and --json show it', () => {
  it('is the origin alone for a bare URL, and the origin with /… when a path or query could hold a key', () => {
    expect(['http://127.0.0.1:8545', 'http://127.0.0.1:8545/', 'https://rpc.example/v2/SECRETKEY', 'https://esplora.example/api', 'https://rpc.example/?key=SECRET'].map(shownUpstream)).toEqual([
      'http://127.0.0.1:8545',
      'http://127.0.0.1:8545',
      'https://rpc.example/…',
      'https://esplora.example/…',
      'https://rpc.example/…',
    ]);
  });
});
