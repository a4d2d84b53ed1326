// The page's stylesheet is bundled by esbuild (src/build-page.ts); the import is for its side effect.
declare module '*.css';
