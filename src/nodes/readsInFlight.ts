/**
 * A fork's reads from its upstream, one at a time per key: a second ask for a key whose read is
 * still running waits for that read instead of sending another (the Bitcoin and Lighter forks).
 */
export class ReadsInFlight {
  private readonly running = new Map<string, Promise<void>>();

  once(key: string, read: () => Promise<void>): Promise<void> {
    const running = this.running.get(key);
    if (running) return running;
    const started = read().finally(() => this.running.delete(key));
    this.running.set(key, started);
    return started;
  }
}
