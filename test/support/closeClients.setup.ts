import { afterAll } from 'vitest';
import { closeSolanaConnections } from './solanaConnections';

// every test file: the clients it opened with sockets that would outlive it are closed at its end
// (the worker runs the next file in the same process, `isolate: false`)
afterAll(() => {
  closeSolanaConnections();
});
