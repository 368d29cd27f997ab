import type { Api, EventHandlers } from './api'
import { ApiError } from './api'
import { createSSEParser, type SSEMessage } from './sse'
import type { ApiErrorBody, Artifact, ContextPreview, HermesEvent, MemoryEntry, ModelCheck, Notice, RunSummary, Settings } from './types'

export type FetchFn = (input: string, init?: RequestInit) => Promise<Response>

export interface HttpOptions {
  /** How long to wait before reconnecting a stream that broke, in ms. */
  retryMs?: number
}

/**
 * createHttpApi talks to `hermes serve` at base (an origin, or "" for the
 * page's own). The token travels in the cookie that `hermes serve` set when
 * the page was first opened with ?token=.
 */
export function createHttpApi(base: string, fetchFn: FetchFn, opts: HttpOptions = {}): Api {
  const retryMs = opts.retryMs ?? 1000

  async function request(method: string, path: string, body?: unknown): Promise<Response> {
    const init: RequestInit = { method, headers: { Accept: 'application/json' }, credentials: 'same-origin' }
    // The server takes a change only as JSON, a bodyless one too: a page on
    // another site cannot send that without a preflight it never passes.
    if (method !== 'GET') init.headers = { ...init.headers, 'Content-Type': 'application/json' }
    if (body !== undefined) init.body = JSON.stringify(body)
    let res: Response
    try {
      res = await fetchFn(base + path, init)
    } catch (err) {
      throw new ApiError(err instanceof Error ? err.message : String(err), { code: 'unreachable' })
    }
    if (!res.ok) throw await toError(res)
    return res
  }
  async function json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await request(method, path, body)
    if (res.status === 204) return undefined as T
    const text = await res.text()
    return (text ? JSON.parse(text) : undefined) as T
  }
  const run = (id: string) => `/api/runs/${encodeURIComponent(id)}`

  // stream reads an SSE endpoint until it ends or stop is called; a broken
  // connection is opened again from where it left off (path(after) is asked anew).
  function stream(path: () => string, onMessages: (ms: SSEMessage[]) => boolean): () => void {
    const ctl = new AbortController()
    let stopped = false
    const loop = async () => {
      while (!stopped) {
        let ended = false
        try {
          const res = await fetchFn(base + path(), { headers: { Accept: 'text/event-stream' }, credentials: 'same-origin', signal: ctl.signal })
          if (!res.ok || !res.body) throw await toError(res)
          const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
          let batch: SSEMessage[] = []
          const parse = createSSEParser((m) => batch.push(m))
          for (;;) {
            const { value, done } = await reader.read()
            if (done) break
            parse(value)
            if (batch.length === 0) continue
            const ms = batch
            batch = []
            if (onMessages(ms)) {
              ended = true
              await reader.cancel()
              break
            }
          }
        } catch (err) {
          if (stopped) return
          // A refused request (no token, unknown run) will not get better by retrying.
          if (err instanceof ApiError && err.status >= 400 && err.status < 500) return
        }
        if (ended || stopped) return
        await new Promise((r) => setTimeout(r, retryMs))
      }
    }
    void loop()
    return () => {
      stopped = true
      ctl.abort()
    }
  }

  return {
    listRuns: async () => (await json<RunSummary[] | null>('GET', '/api/runs')) ?? [],
    runEvents: async (id) => (await json<HermesEvent[] | null>('GET', `${run(id)}/events`)) ?? [],
    // A browser follows its own language; the server has no say.
    language: async () => '',
    startRun: async (req) => (await json<{ run_id: string }>('POST', '/api/runs', req)).run_id,
    control: async (id, req) => void (await request('POST', `${run(id)}/control`, req)),
    approve: async (id, approvalId, answer) =>
      void (await request('POST', `${run(id)}/approvals/${encodeURIComponent(approvalId)}`, answer)),
    resumeRun: async (id, req = {}) => (await json<{ run_id: string }>('POST', `${run(id)}/resume`, req)).run_id,
    forkRun: async (id, req) => (await json<{ run_id: string }>('POST', `${run(id)}/fork`, req)).run_id,
    renameRun: async (id, title) => void (await request('PATCH', run(id), { title })),
    deleteRun: async (id) => void (await request('DELETE', run(id))),
    artifact: async (id, ref, offset = 0, limit = 0): Promise<Artifact> => {
      const q = new URLSearchParams({ ref, offset: String(offset) })
      if (limit > 0) q.set('limit', String(limit))
      const res = await request('GET', `${run(id)}/artifacts?${q}`)
      const text = await res.text()
      return { text, total: Number(res.headers.get('X-Total-Size') ?? text.length) }
    },
    settings: () => json<Settings>('GET', '/api/settings'),
    checkModel: (req) => json<ModelCheck>('POST', '/api/model/check', req),
    watchRun(id, after, handlers: EventHandlers) {
      let last = after
      return stream(
        () => `${run(id)}/stream?after=${last}`,
        (ms) => {
          const events: HermesEvent[] = []
          let end = false
          for (const m of ms) {
            if (m.event === 'end') end = true
            else if (m.event === 'hermes') events.push(JSON.parse(m.data) as HermesEvent)
          }
          if (events.length > 0) {
            last = Math.max(last, ...events.map((e) => e.seq))
            handlers.onEvents(events)
          }
          if (end) handlers.onEnd?.()
          return end
        },
      )
    },
    watchRuns(onRun) {
      return stream(
        () => '/api/runs/stream',
        (ms) => {
          for (const m of ms) if (m.event === 'run') onRun(JSON.parse(m.data) as RunSummary)
          return false
        },
      )
    },
    contextPreview: (id) => json<ContextPreview>('GET', `${run(id)}/context/preview`),
    memories: async (limit = 0) => (await json<MemoryEntry[] | null>('GET', `/api/memory${limit > 0 ? `?limit=${limit}` : ''}`)) ?? [],
    pinMemory: async (id, pinned) => void (await request('POST', `/api/memory/${id}/pin`, { pinned })),
    forgetMemory: async (id) => void (await request('DELETE', `/api/memory/${id}`)),
    notices: async () => (await json<Notice[] | null>('GET', '/api/notices')) ?? [],
    watchNotices(onNotice) {
      return stream(
        () => '/api/notices/stream',
        (ms) => {
          for (const m of ms) if (m.event === 'notice') onNotice(JSON.parse(m.data) as Notice)
          return false
        },
      )
    },
    // A browser cannot restart the server it talks to.
    installUpdate: () => Promise.reject(new ApiError('run `hermes update` in a terminal, then start hermes serve again', { code: 'restart_unavailable', messages: restartUnavailable })),
  }
}

const restartUnavailable = {
  en: 'A browser cannot restart hermes serve: run `hermes update` in a terminal, then start hermes serve again.',
  'zh-CN': '浏览器无法重启 hermes serve：请在终端运行 `hermes update`，然后重新启动 hermes serve。',
}

async function toError(res: Response): Promise<ApiError> {
  let body: { error?: ApiErrorBody } = {}
  try {
    body = (await res.json()) as { error?: ApiErrorBody }
  } catch {
    // Not JSON (a proxy's error page, say): fall back to the status line.
  }
  const messages = body.error?.message ?? {}
  const text = messages.en ?? `HTTP ${res.status} ${res.statusText}`.trim()
  return new ApiError(text, { status: res.status, code: body.error?.code ?? '', messages })
}
