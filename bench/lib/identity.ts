/**
 * @module bench/lib/identity
 * What benchmarks need from a running identity service, through its HTTP API as a
 * browser would: a signed-in person.
 */

/** Registers someone (with an organization): their `xv_session` cookie, e-mail and name. */
export async function signUp(url: string): Promise<{ cookie: string; email: string; name: string }> {
  const email = `bench-${Date.now()}@example.test`;
  const name = 'Bench Person';
  const response = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      email,
      password: 'benchmark-password',
      name,
      orgName: 'Bench Org',
    }),
    redirect: 'manual',
  });
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .find((pair) => pair.startsWith('xv_session='));
  if (!cookie) throw new Error(`registration failed with ${response.status}`);
  return { cookie, email, name };
}
