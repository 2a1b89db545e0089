import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOrCreateSecretFile } from './secret-file.js';
import { tempDir } from './testing/index.js';

describe('readOrCreateSecretFile', () => {
  it('creates the secret once, readable by the owner only, and returns it on later calls', () => {
    const file = join(tempDir(), 'nested', 'secret');
    let generated = 0;
    const make = () => `value-${++generated}`;
    expect(readOrCreateSecretFile(file, make)).toBe('value-1');
    expect(readOrCreateSecretFile(file, make)).toBe('value-1');
    expect(generated).toBe(1);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe('value-1\n');
  });

  it('keeps a value someone else wrote first', () => {
    const file = join(tempDir(), 'secret');
    writeFileSync(file, 'theirs\n', { mode: 0o600 });
    expect(readOrCreateSecretFile(file, () => 'mine')).toBe('theirs');
  });

  it('refuses an empty secret file', () => {
    const file = join(tempDir(), 'secret');
    writeFileSync(file, '\n');
    expect(() => readOrCreateSecretFile(file, () => 'mine')).toThrow(/empty/);
  });
});
