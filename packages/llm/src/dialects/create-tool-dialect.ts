import { createCodeDialect } from './create-code-dialect.js';
import { createNativeDialect } from './create-native-dialect.js';
import { createPformatDialect } from './create-pformat-dialect.js';
import { createTaggedJsonDialect } from './create-xml-dialect.js';
import type { ToolDialect, ToolDialectKind } from './tool-dialect.js';

/**
 * The dialect of the given kind. `native` sends schemas on the wire; `tagged_json`, `pformat`,
 * `python` and `typescript` put the tools in the system prompt and read calls back from text.
 * `xml` is the deprecated name of `tagged_json` and creates that dialect (its `kind` is `tagged_json`).
 */
export function createToolDialect(kind: ToolDialectKind): ToolDialect {
  switch (kind) {
    case 'native':
      return createNativeDialect();
    case 'tagged_json':
    case 'xml':
      return createTaggedJsonDialect();
    case 'pformat':
      return createPformatDialect();
    case 'python':
    case 'typescript':
      return createCodeDialect(kind);
  }
}
