/**
 * What the agent's pages say, in English: the chat page, its script, and the
 * labels of an answer written without a model (the knowledge base quoted).
 */
export const en = {
  // The chat page.
  'chat.title': 'Chat',
  'chat.conversation': 'Conversation',
  'chat.newConversation': 'New conversation',
  'chat.who.anonymous': 'Not signed in: the assistant answers from public information only.',
  'chat.who.signIn': 'Sign in',
  'chat.who.signedInAs': 'Signed in as',
  'chat.who.forOrganization': 'for',
  'chat.who.account': 'Account and organization',
  'chat.message': 'Your message',
  'chat.placeholder': 'Ask about your documents, the value of AI for a team, or ask for a call back…',
  'chat.send': 'Send',
  // Without a model: a short notice for everyone, the settings for an organization's admins.
  'chat.noModel.notice':
    'The assistant is not connected to a language model yet, so for now it answers with passages quoted from the knowledge base, each with a link to its document.',
  'chat.noModel.title': 'No language model is configured',
  'chat.noModel.intro':
    'Until one is, answers quote the most relevant passages of the knowledge base. To have the assistant write answers, give the agent service one of these and restart it:',
  'chat.noModel.openAi': 'an OpenAI-compatible endpoint:',
  'chat.noModel.workersAi': 'Cloudflare Workers AI:',
  'chat.noModel.optionally': 'optionally',
  'chat.noModel.docs': 'The settings are described in the agent’s documentation (docs/agent.md, “Settings”).',
  // The chat page's script.
  'chat.you': 'You',
  'chat.agent': 'Agent',
  'chat.toolsUsed': 'Tools used',
  'chat.sources': 'Sources',
  'chat.tool.knowledgeBaseSearch': 'Searched the knowledge base',
  'chat.tool.estimateAiRoi': 'Estimated the AI return on investment',
  'chat.tool.createTicket': 'Opened a ticket',
  'chat.tool.failed': '{tool} (failed)',
  'chat.loadFailed': 'Could not load the conversation.',
  'chat.answering': 'The agent is answering…',
  'chat.started': 'A new conversation has started.',
  'chat.connectionLost': '[The connection was lost.]',
  'chat.answerStopped':
    'The answer stopped before it was finished. Nothing of this message was saved; send it again.',
  // Why a message was not answered, by the API's error code.
  'chat.error.http': 'The agent could not answer (HTTP {status}).',
  'chat.error.empty_message': 'The message is empty.',
  'chat.error.message_too_long': 'The message is too long.',
  'chat.error.invalid_session': 'This conversation cannot be used; start a new conversation.',
  'chat.error.rate_limited': 'Too many messages from this address. Please try again in a minute.',
  'chat.error.session_busy': 'The conversation is busy with another message; try again shortly.',
  'chat.error.model_failed': 'The model failed before answering. Please try again.',
  'chat.error.ai_unavailable': 'No language model is available for this conversation.',
  'chat.error.not_a_member': 'You are no longer a member of this conversation’s organization.',
  'chat.error.no_public_assistant': 'Sign in to use that organization; it has no public assistant.',
  // An answer written without a model, and the note when a model stops without a final answer.
  'answer.knowledgeOnly':
    'No language model is configured yet, so this answer quotes the most relevant passages of the knowledge base as written.',
  'answer.quote': '**Quote {number}**, from {source}:',
  'answer.noPassage': 'No passage of the knowledge base matches this message.',
  'answer.search.not_available':
    'The knowledge base is not available to this conversation: sign in, or talk to an organization that offers a public assistant.',
  'answer.search.timeout': 'The knowledge base did not answer in time.',
  'answer.search.unreachable': 'The knowledge base is unreachable.',
  'answer.search.refused': 'The knowledge base answered HTTP {status}.',
  'answer.search.malformed': 'The knowledge base sent an answer without hits.',
  'answer.search.failed': 'The knowledge base failed.',
  'answer.stepLimit': '[The agent stopped after {steps} tool steps without a final answer.]',
} as const;
