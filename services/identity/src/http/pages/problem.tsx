/**
 * @module http/pages/problem
 * A failed form post of the account page, shown next to the form it came from.
 */
import { FormError } from './frame.js';

/** The forms of the page a failed post can point at. */
export type AccountSection =
  | 'profile'
  | 'password'
  | 'sessions'
  | 'apps'
  | 'oidc-apps'
  | 'invitations'
  | 'totp'
  | 'passkeys'
  | 'members'
  | 'clients';

/** A failed form post of the page: which form, what went wrong, and what was typed (never a password). */
export interface AccountProblem {
  section: AccountSection;
  message: string;
  values?: Record<string, string> | undefined;
}

/** The error of a failed post, when it belongs to `section`; its id is `<section>-error`. */
export function SectionError(props: { problem: AccountProblem | null; section: AccountSection }) {
  return props.problem?.section === props.section ? (
    <FormError id={`${props.section}-error`} text={props.problem.message} />
  ) : null;
}
