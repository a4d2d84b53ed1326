export { makeWidget } from './widget.js';
