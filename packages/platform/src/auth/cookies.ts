/**
 * @module auth/cookies
 * The names of the cookies XV shares across its sites (their attributes:
 * `http/cookies.ts`).
 */
export const SESSION_COOKIE = 'xv_session';
export const MFA_COOKIE = 'xv_mfa';
export const ORG_COOKIE = 'xv_org';
