import { fileURLToPath } from 'node:url';

// Resolved from this module, which sits in src/ (tests) or dist/ (built): both are one level down.

/** Where `pnpm build` writes the page bundle, and where the server reads it by default. */
export const defaultPublicDir = fileURLToPath(new URL('../dist/public', import.meta.url));

/** The page's entry point (React + `useChat`), bundled by `buildPage`. */
export const pageEntry = fileURLToPath(new URL('../src/page/app.tsx', import.meta.url));
