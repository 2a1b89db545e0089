/**
 * @module errors
 * The error codes of the orchestration service, named once. Codes that mean the
 * same as the platform's (`not_found`, `unauthenticated`, `rate_limited`) are the
 * platform's (`platformErrors`).
 */
import { defineErrors } from '@xv/platform';

export const errors = defineErrors('orchestration', {
  empty_prompt: { status: 400, message: 'Send a non-empty prompt.' },
  prompt_too_long: { status: 400, message: 'The prompt is longer than 600 characters.' },
  all_failed: { status: 502, message: 'Every model of the tier failed to answer.' },
  ai_unavailable: { status: 503, message: 'No AI model is configured.' },

  unknown_workflow: { status: 400, message: 'No workflow of that name is registered.' },
  empty_input: { status: 400, message: 'A required input field is missing.' },
  invalid_input: { status: 400, message: 'An input field has the wrong type or size.' },
  idem_key_too_long: { status: 400, message: 'The idempotency key is longer than 120 characters.' },
  idempotency_key_reused: {
    status: 422,
    message: 'This idempotency key was already used with a different input: send a new key.',
  },
  workflow_failed: { status: 502, message: 'A step of the workflow failed.' },

  invalid: { status: 400, message: 'Send a name and a valid e-mail address.' },
  personal_email: {
    status: 400,
    message: 'Use a work e-mail address: personal and disposable addresses are not accepted.',
  },
  challenge_required: { status: 400, message: 'Solve the bot challenge before sending the form.' },
  challenge_failed: { status: 400, message: 'The bot challenge answer is not valid or has expired.' },
  challenge_reused: { status: 400, message: 'This bot challenge answer was already used.' },
  challenge_unavailable: { status: 503, message: 'The bot challenge provider could not be reached.' },
});
