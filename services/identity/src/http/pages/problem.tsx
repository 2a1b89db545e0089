/**
 * @module http/pages/problem
 * A failed form post of the account page, shown next to the form it came from.
 */
import { useT } from '@xv/platform/pages';
import { errorText, messages } from '../../messages/index.js';
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
  /** The error's code, which picks the page's wording; `message` is the wording when the catalogue has none. */
  code?: string | undefined;
  message: string;
  values?: Record<string, string> | undefined;
}

/** The error of a failed post, when it belongs to `section`; its id is `<section>-error`. */
export function SectionError(props: { problem: AccountProblem | null; section: AccountSection }) {
  const t = useT(messages);
  return props.problem?.section === props.section ? (
    <FormError id={`${props.section}-error`} text={errorText(t, props.problem)} />
  ) : null;
}
