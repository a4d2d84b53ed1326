export { makeWidget } from './widget.js';
// A mention of './widget.js' in a comment or a string is not an import: "import './index.js'".
