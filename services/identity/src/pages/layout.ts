/** Moved to `http/legacy-layout.tsx`; kept for the credentials page (see `http/compat.ts`). */
export { Layout } from '../http/compat.js';
