import { hash, verify } from '@node-rs/argon2';

// argon2id (the library's default algorithm) with OWASP's minimum parameters: 19 MiB, 2 passes.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Verified against when the account does not exist, so timing does not tell which accounts exist. */
let dummyHash: Promise<string> | undefined;
export const dummyPasswordHash = (): Promise<string> => {
  dummyHash ??= hashPassword('dummy-password-never-matches-0');
  return dummyHash;
};
