// The subschema walker lives in `@tiny/tools` (the layer below), so every layer recurses the same way.
export { isRecord, mapSubschemas, setOwn } from '@tiny/tools';
