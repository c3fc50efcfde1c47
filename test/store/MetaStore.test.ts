import { describe, expect, it } from 'vitest';
import { MetaStore } from '../../src/store/MetaStore';
import { openDatabase } from '../../src/store/openDatabase';

describe('MetaStore.takeCounter', () => {
  it('hands out 1, 2, 3… to concurrent takers before any is stored, and stores the highest taken', () => {
    const db = openDatabase(':memory:');
    const meta = new MetaStore(db);
    const first = meta.takeCounter('n');
    const second = meta.takeCounter('n');
    expect([first.value, second.value]).toEqual([1n, 2n]);
    expect(meta.get('n')).toBeUndefined();
    second.store();
    expect(meta.get('n')).toBe('2');
    first.store(); // never lowers what is stored
    expect(meta.get('n')).toBe('2');
    expect(meta.takeCounter('n').value).toBe(3n);
    db.close();
  });

  it('stores inside the caller\'s transaction (rolled back with it), and a new store after a restart continues from what was stored', () => {
    const db = openDatabase(':memory:');
    const meta = new MetaStore(db);
    const taken = meta.takeCounter('n');
    expect(() =>
      db.transaction(() => {
        taken.store();
        throw new Error('the request could not be written');
      })(),
    ).toThrow();
    expect(meta.get('n')).toBeUndefined();
    taken.store();
    expect(meta.get('n')).toBe('1');
    // another process on the same file: numbers taken and never stored are not known to it
    expect(new MetaStore(db).takeCounter('n').value).toBe(2n);
    db.close();
  });

  it('starts again at 1 after reset', () => {
    const db = openDatabase(':memory:');
    const meta = new MetaStore(db);
    meta.takeCounter('n').store();
    meta.takeCounter('n');
    meta.reset();
    expect(meta.takeCounter('n').value).toBe(1n);
    db.close();
  });
});
