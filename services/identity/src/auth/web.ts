/** Moved to `http/forms.ts`; kept for the credentials module (see `http/compat.ts`). */
export { readForm, withQuery } from '../http/compat.js';
