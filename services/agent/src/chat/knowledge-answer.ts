/**
 * @module chat/knowledge-answer
 * The answer when no model is configured: the knowledge base is searched for the
 * message as the session's principal (the same search the model's tool makes),
 * and the most relevant passages are quoted as written, each with a link to its
 * document in the knowledge reader. It streams through the same outputs as a
 * model's answer (a tool mark with the sources, then the text) and is saved like
 * one, so the page and the history need nothing special.
 */
import type { SessionTurn } from '../sessions/actor.js';
import { searchKnowledgeBase } from '../tools/knowledge-search.js';
import { libraryUrl, sourcesOf } from './sources.js';
import type { ChatDependencies, ChatRequest, TurnCaller, TurnOutput } from './turn.js';
import { saveTurn } from './turn.js';

/** How many passages a knowledge-only answer quotes. */
export const QUOTED_PASSAGES = 3;

export const KNOWLEDGE_ONLY_NOTE =
  'No language model is configured yet, so this answer quotes the most relevant passages of the knowledge base as written.';
export const NO_PASSAGE_FOUND = 'No passage of the knowledge base matches this message.';

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
      return `**Quote ${index + 1}**, from ${link}:\n\n${blockQuote(hit.text)}`;
    });
    answer = [KNOWLEDGE_ONLY_NOTE, ...(quotes.length ? quotes : [NO_PASSAGE_FOUND])].join('\n\n');
  } catch (error) {
    if (signal.aborted) return;
    // A refused or failed search is told to the person, as the model would be told.
    answer = `${KNOWLEDGE_ONLY_NOTE}\n\n${error instanceof Error ? error.message : 'The knowledge base failed.'}`;
  }
  yield { type: 'text', text: answer };
  yield* saveTurn(deps.store, turn, request, startedAt, answer, tools);
}
