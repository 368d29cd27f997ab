import type { Api } from './api'
import { ApiError } from './api'
import type { HermesEvent, RunSummary } from './types'

export type FetchFn = (input: string, init?: RequestInit) => Promise<Response>

interface ErrorBody {
  error?: { code?: string; message?: Record<string, string> }
}

/** createHttpApi talks to `hermes serve` at base (an origin, or "" for the page's own). */
export function createHttpApi(base: string, fetchFn: FetchFn): Api {
  async function get<T>(path: string): Promise<T> {
    const res = await fetchFn(base + path, { headers: { Accept: 'application/json' } })
    if (!res.ok) throw await toError(res)
    return (await res.json()) as T
  }
  return {
    listRuns: async () => (await get<RunSummary[] | null>('/api/runs')) ?? [],
    runEvents: async (runId) =>
      (await get<HermesEvent[] | null>(`/api/runs/${encodeURIComponent(runId)}/events`)) ?? [],
    // A browser follows its own language; the server has no say.
    language: async () => '',
  }
}

async function toError(res: Response): Promise<ApiError> {
  let body: ErrorBody = {}
  try {
    body = (await res.json()) as ErrorBody
  } catch {
    // Not JSON (a proxy's error page, say): fall back to the status line.
  }
  const messages = body.error?.message ?? {}
  const text = messages.en ?? `HTTP ${res.status} ${res.statusText}`.trim()
  return new ApiError(text, { status: res.status, code: body.error?.code ?? '', messages })
}
