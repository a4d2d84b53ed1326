/** A JSON document of about `bytes` bytes shaped like a typical structured answer (records with text, numbers, flags). */
export function createFixture(bytes: number): string {
  const items: unknown[] = [];
  const document = { title: 'Quarterly report', generatedAt: '2025-01-01T00:00:00Z', items };
  for (let n = 0; JSON.stringify(document).length < bytes; n += 1) {
    items.push({
      id: n,
      name: `Item number ${n}`,
      description: `A short description of item ${n}, with "quotes", a tab\tand unicode \u00e9.`,
      price: Math.round(n * 137.31) / 100,
      inStock: n % 3 !== 0,
      tags: ['alpha', 'beta', n % 2 === 0 ? 'even' : 'odd'],
      dimensions: { width: n % 17, height: (n * 7) % 23, unit: 'cm' },
      discontinued: null,
    });
  }
  return JSON.stringify(document);
}

/** Splits `text` into `count` pieces of nearly equal length. */
export function splitInto(text: string, count: number): string[] {
  const size = Math.ceil(text.length / count);
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}
