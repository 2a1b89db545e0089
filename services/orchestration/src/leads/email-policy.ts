/**
 * @module leads/email-policy
 * Which e-mail addresses a lead may use: a work address, not a free personal
 * mailbox (the shipped list `lists/free-email-providers.txt`) nor a disposable one
 * (the `mailchecker` package's list of about 56,000 throwaway domains).
 */
import { readFileSync } from 'node:fs';
import MailChecker from 'mailchecker';

const FREE_PROVIDERS_FILE = new URL('../../lists/free-email-providers.txt', import.meta.url);

function readDomainList(file: URL): Set<string> {
  return new Set(
    readFileSync(file, 'utf8')
      .split('\n')
      .map((line) => line.replace(/#.*/, '').trim().toLowerCase())
      .filter(Boolean),
  );
}

const freeProviders = readDomainList(FREE_PROVIDERS_FILE);

/** The domain and each parent domain: `eu.mail.example.com` → … → `example.com`. */
function domainAndParents(domain: string): string[] {
  const labels = domain.split('.');
  return labels.slice(0, -1).map((_, i) => labels.slice(i).join('.'));
}

export function isFreeMailDomain(domain: string): boolean {
  return domainAndParents(domain.toLowerCase()).some((d) => freeProviders.has(d));
}

/** True for a free personal mailbox or a disposable address; the address is assumed well-formed. */
export function isPersonalEmail(email: string): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return isFreeMailDomain(domain) || !MailChecker.isValid(email);
}
