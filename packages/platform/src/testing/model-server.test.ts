import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, type ModelServer, reply, startModelServer } from './model-server.js';

describe('the scripted model server', () => {
  let model: ModelServer;
  beforeAll(async () => {
    model = await startModelServer({ apiKey: 'k' });
  });
  afterAll(() => model.close());

  const chat = async (messages: unknown[]) => {
    const response = await fetch(`${model.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'scripted', messages }),
    });
    return (await response.json()).choices[0].message.content as string;
  };

  it('builds a reply step from the messages of the request it answers', async () => {
    model.script(
      reply(({ messages }) => answer(`You said: ${messages.at(-1).content}`)),
      reply(async () => reply(() => answer('nested'))),
    );
    expect(await chat([{ role: 'user', content: 'twenty-five days' }])).toBe('You said: twenty-five days');
    expect(await chat([{ role: 'user', content: 'x' }])).toBe('nested');
    expect(model.requests[0]!.step).toEqual(answer('You said: twenty-five days'));
  });
});
