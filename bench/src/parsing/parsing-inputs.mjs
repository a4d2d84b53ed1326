// Inputs for the parsing workload, built to a target size in bytes (ASCII, so characters = bytes).

/** The tool the tool-call text calls, as a `@tiny/llm` ToolSchema. */
export const addToolSchema = {
  name: 'add',
  description: 'Add two integers.',
  parameters: {
    type: 'object',
    required: ['a', 'b'],
    additionalProperties: false,
    properties: { a: { type: 'integer' }, b: { type: 'integer' } },
  },
};

/**
 * Model text with many Hermes-style `<tool_call>` blocks between lines of prose, and the same
 * content as one valid JSON document (an array of prose and call entries) for `JSON.parse`.
 */
export function toolCallText(bytes) {
  let text = '';
  const entries = [];
  for (let i = 0; text.length < bytes; i++) {
    const prose = `Step ${i}: adding the next pair of numbers.`;
    const call = { name: 'add', arguments: { a: i, b: i + 1 } };
    text += `${prose}\n<tool_call>${JSON.stringify(call)}</tool_call>\n`;
    entries.push({ text: prose }, call);
  }
  return { text, json: JSON.stringify(entries), calls: entries.length / 2 };
}

/**
 * One large arguments object as a model might botch it (bare keys, trailing commas in nested
 * objects and arrays), and the same object as valid JSON.
 */
export function malformedObject(bytes) {
  let malformed = '{';
  let valid = '{';
  for (let i = 0; malformed.length < bytes; i++) {
    malformed += `key${i}: {name: "item ${i}", count: ${i}, tags: ["a", "b",],}, `;
    valid += `"key${i}": {"name": "item ${i}", "count": ${i}, "tags": ["a", "b"]}, `;
  }
  malformed += 'end: 0,}';
  valid += '"end": 0}';
  return { malformed, valid };
}
