import { type Algorithm, hash, verify } from '@node-rs/argon2'

// The binding's Algorithm is an ambient const enum, which type stripping can't read: 2 is Argon2id.
const ARGON2ID = 2 as Algorithm

export interface PasswordCosts {
  memory_cost_kib: number
  time_cost: number
  parallelism: number
}

export interface PasswordHasher {
  hash(password: string): Promise<string>
  verify(hash: string, password: string): Promise<boolean>
  /** burns the same work as a real verify, for unknown users: login timing must not reveal who exists */
  dummyVerify(password: string): Promise<void>
}

/**
 * argon2id via @node-rs/argon2 (prebuilt N-API binding, runs off the event loop). Costs come from config;
 * a stored hash carries its own parameters, so raising costs later still verifies old hashes.
 */
export async function createPasswordHasher(costs: PasswordCosts): Promise<PasswordHasher> {
  const options = {
    algorithm: ARGON2ID,
    memoryCost: costs.memory_cost_kib,
    timeCost: costs.time_cost,
    parallelism: costs.parallelism,
  }
  const dummy = await hash('switchboard-dummy-password', options)
  return {
    hash: (password) => hash(password, options),
    verify: async (stored, password) => {
      try {
        return await verify(stored, password)
      } catch {
        // A malformed stored hash (a contact account's marker, usernames.ts) is a failed login, not a 500, and
        // costs what a real verify costs: the answer's timing must not tell such an account apart.
        await verify(dummy, password).catch(() => false)
        return false
      }
    },
    dummyVerify: async (password) => {
      await verify(dummy, password).catch(() => false)
    },
  }
}
