/** What the orchestration service's pages say, in English: the lead form. */
export const en = {
  'lead.title': 'Talk to us',
  'lead.intro': 'Leave your work e-mail and we will get back to you within one business day.',
  'lead.name': 'Name',
  'lead.email': 'Work e-mail',
  'lead.emailHint': 'Personal and disposable addresses are not accepted.',
  'lead.company': 'Company (optional)',
  'lead.send': 'Send',
  'lead.sent': 'Thank you! We will be in touch.',
  'lead.checking': 'Checking that you are not a robot…',
  'lead.sending': 'Sending…',
  'lead.checkFailed': 'The robot check failed. Please try again.',
  // The form's errors, by the API's error code.
  'lead.error.invalid': 'Enter your name and a valid e-mail address.',
  'lead.error.personal_email':
    'Use a work e-mail address: personal and disposable addresses are not accepted.',
  'lead.error.challenge_required': 'Please wait for the robot check to finish, then send the form again.',
  'lead.error.challenge_failed': 'The robot check has expired. Please send the form again.',
  'lead.error.challenge_reused': 'The robot check has expired. Please send the form again.',
  'lead.error.rate_limited': 'Too many messages from this address. Please try again later.',
} as const;
