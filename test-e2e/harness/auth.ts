import type { Client, Reply } from './http.ts'

export interface TokenPair {
  token: string
  refresh_token: string
  expires_in: number
  refresh_expires_in: number
  token_type: string
  user: { id: string; username: string; email: string; role: string; status: string }
}

export async function login(api: Client, username: string, password: string, deviceId?: string): Promise<TokenPair> {
  const res = await api.post<TokenPair>(
    '/api/v1/auth/login',
    { username, password },
    deviceId ? { headers: { 'x-device-id': deviceId } } : {},
  )
  if (res.status !== 200) throw new Error(`login ${username} → ${res.status} ${res.text}`)
  return res.body
}

export async function register(
  api: Client,
  username: string,
  headers: Record<string, string> = {},
): Promise<Reply<TokenPair> & { password: string }> {
  const password = `Pw-${username}-0123456789`
  const res = await api.post<TokenPair>(
    '/api/v1/auth/register',
    { username, email: `${username}@e2e.example.com`, password, name: `E2E ${username}` },
    { headers },
  )
  return { ...res, password }
}
