import { SERVICE_NAMES, type ServiceName } from '@xv/platform';
import { describe, expect, it } from 'vitest';
import { startBanner } from './banner.js';

const addresses = Object.fromEntries(
  SERVICE_NAMES.map((name, i) => [name, { url: `http://localhost:${4001 + i}` }]),
) as Record<ServiceName, { url: string }>;
const lineOf = (banner: string, text: string) => banner.split('\n').findIndex((line) => line.includes(text));

describe('the start banner', () => {
  it('lists the pages a person opens first, then the APIs and their docs', () => {
    const banner = startBanner({ names: [...SERVICE_NAMES], addresses, env: {} });
    const pages = [
      ['Sign in', `${addresses.identity.url}/login`],
      ['Account', `${addresses.identity.url}/account`],
      ['Knowledge', `${addresses.knowledge.url}/`],
      ['Assistant', `${addresses.agent.url}/`],
      ['Verify', `${addresses.trust.url}/`],
    ];
    const lines = pages.map(([label, url]) => {
      const line = lineOf(banner, url!);
      expect(banner.split('\n')[line]).toContain(label);
      return line;
    });
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
    expect(lines[0]).toBeGreaterThan(-1);
    const firstApi = Math.min(...SERVICE_NAMES.map((name) => lineOf(banner, `${addresses[name].url}/docs`)));
    expect(Math.max(...lines)).toBeLessThan(firstApi);
    expect(banner).toContain('XV is running');
  });

  it('says plainly that the assistant needs a model, and which settings give it one', () => {
    const banner = startBanner({ names: [...SERVICE_NAMES], addresses, env: {} });
    const hint = banner.split('\n').find((line) => line.includes('Assistant: no model configured'));
    expect(hint).toBeDefined();
    for (const name of ['MODEL_BASE_URL', 'MODEL_API_KEY', 'XV_WORKERS_AI_ACCOUNT_ID', 'XV_WORKERS_AI_TOKEN'])
      expect(hint).toContain(name);
    expect(hint).toContain('docs/agent.md');
    // The hint comes after the pages, before the closing line.
    expect(lineOf(banner, 'Assistant: no model')).toBeGreaterThan(lineOf(banner, `${addresses.trust.url}/`));
    expect(lineOf(banner, 'Assistant: no model')).toBeLessThan(lineOf(banner, 'Ctrl-C'));
  });

  it('gives no hint once a model is configured, and shows only the services started', () => {
    const configured = startBanner({
      names: [...SERVICE_NAMES],
      addresses,
      env: { MODEL_BASE_URL: 'https://models.example/v1', MODEL_API_KEY: 'k', MODEL_NAME: 'm' },
    });
    expect(configured).not.toContain('no model configured');
    const workers = startBanner({
      names: [...SERVICE_NAMES],
      addresses,
      env: { XV_WORKERS_AI_ACCOUNT_ID: 'a', XV_WORKERS_AI_TOKEN: 't' },
    });
    expect(workers).not.toContain('no model configured');

    const subset = startBanner({
      names: ['identity', 'chain'],
      addresses,
      env: {},
      chainRpcUrl: 'http://127.0.0.1:8545',
    });
    expect(subset).toContain(`${addresses.identity.url}/login`);
    expect(subset).not.toContain(addresses.agent.url);
    expect(subset).not.toContain('no model configured');
    expect(subset).not.toContain('Knowledge base');
    expect(subset).toContain('http://127.0.0.1:8545');
  });

  it('names the development outbox while no SMTP server is set, and not after', () => {
    const banner = startBanner({ names: [...SERVICE_NAMES], addresses, env: {} });
    const hint = banner.split('\n').find((line) => line.includes('E-mail'));
    expect(hint).toContain('XV_SMTP_URL');
    expect(hint).toContain(`${addresses.identity.url}/dev/outbox`);
    const withSmtp = startBanner({
      names: [...SERVICE_NAMES],
      addresses,
      env: { XV_SMTP_URL: 'smtp://mail.example:25' },
    });
    expect(withSmtp).not.toContain('/dev/outbox');
  });
});
