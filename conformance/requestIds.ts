/** Hex ids compare case-insensitively. */
export function sameId(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** A short form of an id for failure details. */
export function shortId(id: string): string {
  return id.length > 14 ? `${id.slice(0, 10)}…` : id;
}
