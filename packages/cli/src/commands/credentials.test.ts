import { tempDir } from '@xv/platform/testing';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../launcher/start.js';
import { credentialsCommand } from './credentials.js';

describe('xv credentials', () => {
  it('rotates the issuer key, keeping the old one listed as retired', async () => {
    const env = { XV_DATA_DIR: tempDir(), XV_IDENTITY_KEK: Buffer.alloc(32, 3).toString('base64') };
    const lines: string[] = [];
    const out = (line: string) => lines.push(line);
    expect(await credentialsCommand(['rotate-key'], env, out)).toBe(0);
    expect(await credentialsCommand(['rotate-key'], env, out)).toBe(0);
    lines.length = 0;
    expect(await credentialsCommand(['keys'], env, out)).toBe(0);
    expect(lines.map((l) => l.split('\t')[1])).toEqual(['active', 'retired']);
  });

  it('refuses to rotate with a key-encryption key that does not open the current key', async () => {
    const dir = tempDir();
    await credentialsCommand(
      ['rotate-key'],
      { XV_DATA_DIR: dir, XV_IDENTITY_KEK: Buffer.alloc(32, 3).toString('base64') },
      () => {},
    );
    await expect(
      credentialsCommand(
        ['rotate-key'],
        { XV_DATA_DIR: dir, XV_IDENTITY_KEK: Buffer.alloc(32, 4).toString('base64') },
        () => {},
      ),
    ).rejects.toThrow(/key-encryption key/);
  });

  it('explains its usage', async () => {
    await expect(credentialsCommand(['spin'], {}, () => {})).rejects.toThrow(UsageError);
  });
});
