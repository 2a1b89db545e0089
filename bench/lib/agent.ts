/**
 * @module bench/lib/agent
 * The agent for a benchmark, with the scripted model server as its model, and the
 * one-message request that asks that model directly: the baseline the agent's
 * figures are measured against.
 */
import { agentService } from '@xv/agent';
// The model server alone: the testing entry point pulls in vitest.
import { answer, startModelServer } from '@xv/platform/model-server';
import { serveForBench } from './services.js';

const KEY = 'bench-model-key';

/** Starts the scripted model (answering `reply` to everything) and the agent using it, chat limit off. */
export async function agentOverScriptedModel(reply: string) {
  const model = await startModelServer({ apiKey: KEY, record: false, fallback: answer(reply) });
  const agent = await serveForBench(agentService, {
    MODEL_BASE_URL: model.baseUrl,
    MODEL_API_KEY: KEY,
    MODEL_NAME: 'scripted',
    XV_AGENT_CHAT_PER_MINUTE: '1000000',
  });
  /** `hi`, streamed, straight to the model server. */
  const direct = {
    url: `${model.baseUrl}/chat/completions`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
    body: JSON.stringify({ model: 'scripted', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
  };
  return {
    agent,
    direct,
    async close() {
      await agent.close();
      await model.close();
    },
  };
}
