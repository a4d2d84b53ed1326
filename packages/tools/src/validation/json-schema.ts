/**
 * A JSON Schema document as plain data (draft 2020-12 or draft-07).
 * TypeBox schemas are JSON Schema objects too, so they fit this type.
 */
export type JsonSchema = { readonly [key: string]: unknown };

/** A JSON value: what `JSON.parse` can return. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
