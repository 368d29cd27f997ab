import type { Api } from './api'
import { ApiError } from './api'
import { createMux } from './mux'
import type { VaultEdit, VaultNote } from './types'
import type { EvalDetail, EvalRow, Labels } from '../lib/evals'
import type { ApiErrorBody, Artifact, CaseProposal, CaseSaved, ClusterStatus, ContextPreview, HermesEvent, MemoryEntry, ModelCheck, Notice, RunPage, RunSummary, Settings } from './types'

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

  // Every live thing the page watches comes on one stream (./mux.ts).
  const mux = createMux({ base, fetchFn, retryMs, post: async (path, body) => void (await request('POST', path, body)), toError })

  return {
    listRuns: async () => (await json<RunSummary[] | null>('GET', '/api/runs')) ?? [],
    listRunsPage: async (before, limit, label = '') => {
      const q = new URLSearchParams({ limit: String(limit) })
      if (before) q.set('before', before)
      if (label) q.set('label', label)
      const page = await json<Partial<RunPage> | null>('GET', `/api/runs?${q}`)
      return { runs: page?.runs ?? [], next: page?.next ?? '' }
    },
    runEvents: async (id) => (await json<HermesEvent[] | null>('GET', `${run(id)}/events`)) ?? [],
    // A browser follows its own language; the server has no say.
    language: () => Promise.resolve(''),
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
    setVault: (vault) => json<Settings>('PUT', '/api/settings/vault', { vault }),
    checkModel: (req) => json<ModelCheck>('POST', '/api/model/check', req),
    watchRun: (id, after, handlers) => mux.watchRun(id, after, handlers),
    watchRuns: (onRun) => mux.watchRuns(onRun),
    contextPreview: (id) => json<ContextPreview>('GET', `${run(id)}/context/preview`),
    vaultEdit: (id, callId) => json<VaultEdit>('GET', `${run(id)}/calls/${encodeURIComponent(callId)}/edit`),
    undoVaultEdit: (id, callId) => json<VaultEdit>('POST', `${run(id)}/calls/${encodeURIComponent(callId)}/undo`),
    vaultNote: (id, name, from) => json<VaultNote>('GET', `${run(id)}/note?${new URLSearchParams(from ? { name, from } : { name })}`),
    memories: async (limit = 0) => (await json<MemoryEntry[] | null>('GET', `/api/memory${limit > 0 ? `?limit=${limit}` : ''}`)) ?? [],
    pinMemory: async (id, pinned) => void (await request('POST', `/api/memory/${id}/pin`, { pinned })),
    forgetMemory: async (id) => void (await request('DELETE', `/api/memory/${id}`)),
    notices: async () => (await json<Notice[] | null>('GET', '/api/notices')) ?? [],
    watchNotices: (onNotice) => mux.watchNotices(onNotice),
    clusterStatus: () => json<ClusterStatus>('GET', '/api/cluster'),
    evals: async () => (await json<EvalRow[] | null>('GET', '/api/evals')) ?? [],
    evalDetail: (id) => json<EvalDetail>('GET', `/api/evals/${encodeURIComponent(id)}`),
    labels: async () => (await json<Labels | null>('GET', '/api/labels')) ?? {},
    setLabel: async (id, label, note) => void (await request('PUT', `${run(id)}/label`, { label, note })),
    runCase: (id) => json<CaseProposal>('GET', `${run(id)}/case`),
    saveCase: (id, req) => json<CaseSaved>('POST', `${run(id)}/case`, req),
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
