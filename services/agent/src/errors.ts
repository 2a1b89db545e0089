/**
 * @module errors
 * The error codes of the agent service, named once. Codes that mean the same as
 * the platform's (`invalid_json`, `invalid_request`, `rate_limited`, …) are the
 * platform's (`guardErrors.not_a_member` for a person outside the organization).
 */
import { defineErrors } from '@xv/platform';

export const errors = defineErrors('agent', {
  empty_message: { status: 400, message: 'The message is empty.' },
  message_too_long: { status: 400, message: 'The message is too long.' },
  session_required: {
    status: 400,
    message: 'Name the session with the `session` query parameter or the `x-agent-session` header.',
  },
  invalid_session: {
    status: 400,
    message: 'A session id is 1 to 128 letters, digits, `-`, `_`, `.` or `:`.',
  },
  session_conflict: {
    status: 400,
    message: 'The `session` query parameter and the `x-agent-session` header name different sessions.',
  },
  no_public_assistant: {
    status: 403,
    message: 'Sign in to use that organization; it has no public assistant.',
  },
  session_busy: { status: 503, message: 'The session is busy with another message; try again shortly.' },
  cancelled: { status: 400, message: 'The request was cancelled by the client.' },
  model_failed: { status: 502, message: 'The model failed before answering.' },
});
