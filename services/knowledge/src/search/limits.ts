/**
 * @module search/limits
 * How many passages a search answers with: the default, and the most any caller gets.
 */

export const MAX_TOP_K = 50;
export const DEFAULT_TOP_K = 5;
