function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/**
 * Lists where `actual` differs from the `expected` subset (see `ReplayRequestExpectation.body`
 * for the markers). Empty when it matches. Paths are JSONPath-like (`$.messages[0].role`).
 */
export function subsetMismatches(expected: unknown, actual: unknown, path = '$'): string[] {
  if (expected === '$any') return actual === undefined ? [`${path}: missing`] : [];
  if (isObject(expected) && Object.keys(expected).length === 1 && typeof expected.$contains === 'string') {
    return typeof actual === 'string' && actual.includes(expected.$contains)
      ? []
      : [`${path}: expected a string containing ${describe(expected.$contains)}, got ${describe(actual)}`];
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${path}: expected an array, got ${describe(actual)}`];
    if (actual.length !== expected.length) {
      return [`${path}: expected ${expected.length} elements, got ${actual.length}: ${describe(actual)}`];
    }
    return expected.flatMap((item, index) => subsetMismatches(item, actual[index], `${path}[${index}]`));
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return [`${path}: expected an object, got ${describe(actual)}`];
    return Object.entries(expected).flatMap(([key, value]) => {
      const at = `${path}.${key}`;
      if (isObject(value) && value.$absent === true) {
        return Object.hasOwn(actual, key) ? [`${at}: expected no such key, got ${describe(actual[key])}`] : [];
      }
      if (!Object.hasOwn(actual, key)) return [`${at}: missing`];
      return subsetMismatches(value, actual[key], at);
    });
  }
  return Object.is(expected, actual) ? [] : [`${path}: expected ${describe(expected)}, got ${describe(actual)}`];
}
