/** Half of a UTF-16 surrogate pair on its own (not global: `test` keeps no position). */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * `text` with each lone surrogate (half an emoji, cut by a client) made U+FFFD, as a UTF-8 encoder
 * writes it. Stored that way on every database and Node version alike (better-sqlite3 on Node 20 kept
 * the half; PostgreSQL's json refuses its escape).
 */
export const wellFormed = (text: string): string =>
  LONE_SURROGATE.test(text) ? text.replace(/\p{Cs}/gu, '\uFFFD') : text;
