/**
 * @module chat/knowledge-answer
 * The answer when no model is configured: the knowledge base is searched for the
 * message as the session's principal (the same search the model's tool makes),
 * and the most relevant passages are quoted as written, each with a link to its
 * document in the knowledge reader. It streams through the same outputs as a
 * model's answer (a tool mark with the sources, then the text) and is saved like
 * one, so the page and the history need nothing special. Its own words (the note,
 * the quotes' labels, why nothing could be searched) are in the language the
 * message was sent in (`ChatRequest.locale`).
 */
import { translator } from '@xv/platform/i18n';
import { messages } from '../messages/index.js';
import type { SessionTurn } from '../sessions/actor.js';
import { KnowledgeSearchError, searchKnowledgeBase } from '../tools/knowledge-search.js';
import { libraryUrl, sourcesOf } from './sources.js';
import type { ChatDependencies, ChatRequest, TurnCaller, TurnOutput } from './turn.js';
import { saveTurn } from './turn.js';

/** How many passages a knowledge-only answer quotes. */
export const QUOTED_PASSAGES = 3;

const english = translator(messages, 'en');
export const KNOWLEDGE_ONLY_NOTE = english('answer.knowledgeOnly');
export const NO_PASSAGE_FOUND = english('answer.noPassage');

/** Markdown's punctuation in a title, escaped so it stays the link's text. */
const escapeMarkdown = (text: string) => text.replace(/[\\`*_[\]<>()#!|~]/g, (ch) => `\\${ch}`);

/** A passage as a Markdown block quote, every line of it quoted. */
const blockQuote = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');

export async function* answerFromKnowledge(
  deps: ChatDependencies,
  turn: SessionTurn,
  caller: TurnCaller,
  request: ChatRequest,
  signal: AbortSignal,
): AsyncGenerator<TurnOutput> {
  const startedAt = Date.now();
  const { kbUrl } = deps.tools;
  const t = translator(messages, request.locale ?? 'en');
  const note = t('answer.knowledgeOnly');
  let answer: string;
  const tools: string[] = [];
  try {
    const query = request.message.trim().slice(0, 500);
    const { hits } = await searchKnowledgeBase(
      { kbUrl, access: caller.access, signal },
      { query, topK: QUOTED_PASSAGES },
    );
    tools.push('knowledgeBaseSearch');
    const sources = sourcesOf({ hits });
    yield { type: 'tool', name: 'knowledgeBaseSearch', ok: true, ...(sources.length ? { sources } : {}) };
    const quotes = hits.map((hit, index) => {
      const where = [hit.title || hit.docId, hit.headingPath].filter(Boolean).join(' › ');
      const link = `[${escapeMarkdown(where)}](${libraryUrl(kbUrl, hit.docId)})`;
      return `${t('answer.quote', { number: index + 1, source: link })}\n\n${blockQuote(hit.text)}`;
    });
    answer = [note, ...(quotes.length ? quotes : [t('answer.noPassage')])].join('\n\n');
  } catch (error) {
    if (signal.aborted) return;
    // A refused or failed search is told to the person, as the model would be told.
    answer = `${note}\n\n${
      error instanceof KnowledgeSearchError
        ? t(`answer.search.${error.reason}`, { status: String(error.status ?? '') })
        : t('answer.search.failed')
    }`;
  }
  yield { type: 'text', text: answer };
  yield* saveTurn(deps.store, turn, request, startedAt, answer, tools);
}
