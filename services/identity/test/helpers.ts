/**
 * Small helpers for the identity service's own HTTP tests.
 */
import type { DatabaseTarget, RunningService } from '@xv/platform/testing';
import { type SignedIn, signUp, startIdentity } from '../src/testing/index.js';

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

let counter = 0;
/** A fresh e-mail address, unique within the run. */
export function email(label = 'user'): string {
  counter += 1;
  return `${label}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** The password of the people `signUpAdmin` registers. */
export const PASSWORD = 'secret1';

export interface Admin extends SignedIn {
  /** The organization they founded. */
  orgId: string;
}

/** Registers a new person with `PASSWORD`, founding a new organization (so they are its admin). */
export async function signUpAdmin(
  identityUrl: string,
  person: { email?: string; name?: string; orgName?: string } = {},
): Promise<Admin> {
  const signedIn = await signUp(identityUrl, {
    email: person.email ?? email(),
    password: PASSWORD,
    name: person.name ?? 'A',
    orgName: person.orgName ?? 'O',
  });
  return { ...signedIn, orgId: signedIn.session.memberships[0]!.org_id };
}

/** The identity service on `target`, with the admin of one organization. */
export async function startWithAdmin(
  target: DatabaseTarget,
  person: { email?: string; name?: string; orgName?: string },
): Promise<{ svc: RunningService; admin: Admin; orgId: string }> {
  const svc = await startIdentity(await target.open('identity'));
  const admin = await signUpAdmin(svc.url, person);
  return { svc, admin, orgId: admin.orgId };
}

export function postForm(svc: RunningService, path: string, fields: Record<string, string>, cookie?: string) {
  return svc.fetch(path, {
    method: 'POST',
    headers: { ...FORM, ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

export function postJson(
  svc: RunningService,
  path: string,
  body: unknown,
  cookie?: string,
  headers: Record<string, string> = {},
) {
  return svc.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...headers },
    body: JSON.stringify(body),
  });
}

/** The `name=value` of a cookie set by a response, or undefined. */
export function setCookie(response: Response, name: string): string | undefined {
  return setCookieLine(response, name)?.split(';')[0];
}

export function setCookieLine(response: Response, name: string): string | undefined {
  return response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`));
}

export function location(response: Response): string {
  return response.headers.get('location') ?? '';
}

/** The links of the newest development-outbox e-mail to `to` (whose subject matches, when given). */
export async function outboxLinks(svc: RunningService, to: string, subject?: RegExp): Promise<string[]> {
  const html = await (await svc.fetch('/dev/outbox')).text();
  for (const article of html.split('<article').slice(1)) {
    if (!article.includes(`>${to}</strong>`)) continue;
    if (subject && !subject.test(article.slice(0, article.indexOf('</h2>')))) continue;
    return [...article.matchAll(/<a href="([^"]+)"/g)].map((match) => match[1]!.replaceAll('&amp;', '&'));
  }
  return [];
}

/** The path of the newest e-mailed link to `to` that starts with `prefix` (e.g. `/invitations/`). */
export async function mailedPath(svc: RunningService, to: string, prefix: string): Promise<string> {
  const link = (await outboxLinks(svc, to)).find((href) => new URL(href).pathname.startsWith(prefix));
  if (!link) throw new Error(`no e-mail to ${to} with a ${prefix} link`);
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}
