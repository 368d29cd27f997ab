import type { Api, EventHandlers } from '../api/api'
import { noCluster } from '../lib/cluster'
import type { Labels } from '../lib/evals'
import { pageOf } from '../lib/runs'
import type { ClusterStatus, ContextPreview, HermesEvent, MemoryEntry, Notice, RunSummary } from '../api/types'

// An in-memory transport for the stores' tests: it records every call,
// answers from what the test put in, and lets the test push live events and
// run summaries. Replies can be held and released in any order. Only tests
// import this file.

export interface Watcher {
  runId: string
  after: number
  handlers: EventHandlers
  stopped: boolean
}

export interface TestApi {
  api: Api
  calls: string[]
  watchers: Watcher[]
  runListeners: ((r: RunSummary) => void)[]
  noticeListeners: ((n: Notice) => void)[]
  /** memory is the long-term memory the api serves; forget and pin change it. */
  memory: MemoryEntry[]
  /** hold makes calls of method wait until release(method). */
  hold(method: keyof Api): void
  release(method: keyof Api): Promise<void>
  /** fail makes the next call of method reject with err. */
  fail(method: keyof Api, err: Error): void
  /** push delivers events to the live watchers of their run. */
  push(events: HermesEvent[]): void
}

export interface TestData {
  runs?: RunSummary[]
  events?: Record<string, HermesEvent[]>
  language?: string
  preview?: ContextPreview
  memory?: MemoryEntry[]
  notices?: Notice[]
  cluster?: ClusterStatus
  labels?: Labels
}

export function testApi(data: TestData = {}): TestApi {
  const calls: string[] = []
  const noticeListeners: ((n: Notice) => void)[] = []
  const memory = (data.memory ?? []).map((e) => ({ ...e }))
  const labels: Labels = { ...data.labels }
  const watchers: Watcher[] = []
  const runListeners: ((r: RunSummary) => void)[] = []
  const held = new Map<string, (() => void)[]>()
  const holding = new Set<string>()
  const failures = new Map<string, Error>()
  const flush = () => new Promise((r) => setTimeout(r, 0))

  const answer = <T>(method: string, args: unknown[], value: () => T): Promise<T> => {
    calls.push(`${method}(${args.map((a) => JSON.stringify(a)).join(', ')})`)
    const failure = failures.get(method)
    failures.delete(method)
    const settle = () => (failure !== undefined ? Promise.reject(failure) : Promise.resolve().then(value))
    if (!holding.has(method)) return settle()
    return new Promise<T>((resolve, reject) => {
      const list = held.get(method) ?? []
      list.push(() => void settle().then(resolve, reject))
      held.set(method, list)
    })
  }

  const api: Api = {
    listRuns: () => answer('listRuns', [], () => data.runs ?? []),
    listRunsPage: (before, limit, label = '') =>
      answer('listRunsPage', label ? [before, limit, label] : [before, limit], () =>
        pageOf((data.runs ?? []).filter((r) => !label || labels[r.run_id]?.label === label), before, limit),
      ),
    runEvents: (id) =>
      answer('runEvents', [id], () => {
        const ev = data.events?.[id]
        if (!ev) throw new Error(`no run ${id}`)
        return ev
      }),
    language: () => answer('language', [], () => data.language ?? ''),
    startRun: (req) => answer('startRun', [req], () => 'new-run'),
    control: (id, req) => answer('control', [id, req], () => undefined),
    approve: (id, approvalId, a) => answer('approve', [id, approvalId, a], () => undefined),
    resumeRun: (id) => answer('resumeRun', [id], () => id),
    forkRun: (id, req) => answer('forkRun', [id, req], () => `${id}-fork`),
    renameRun: (id, title) => answer('renameRun', [id, title], () => undefined),
    deleteRun: (id) => answer('deleteRun', [id], () => undefined),
    artifact: (id, ref, offset, limit) => answer('artifact', [id, ref, offset, limit], () => ({ text: 'full', total: 4 })),
    settings: () =>
      answer('settings', [], () => ({ model: 'm', base_url: 'http://127.0.0.1:1/v1', has_key: false, key_env: 'OPENAI_API_KEY', workspace: '/w', language: 'en', home: '/h', config_path: '/h/hermes.toml' })),
    setVault: (vault) =>
      answer('setVault', [vault], () => ({ model: 'm', base_url: 'http://127.0.0.1:1/v1', has_key: false, key_env: 'OPENAI_API_KEY', workspace: '/w', language: 'en', home: '/h', config_path: '/h/hermes.toml', tools: { vault, skills: [] } })),
    checkModel: (req) => answer('checkModel', [req], () => ({ ok: true, key_sent: false })),
    watchRun(runId, after, handlers) {
      calls.push(`watchRun(${JSON.stringify(runId)}, ${after})`)
      const w: Watcher = { runId, after, handlers, stopped: false }
      watchers.push(w)
      return () => void (w.stopped = true)
    },
    watchRuns(onRun) {
      runListeners.push(onRun)
      return () => runListeners.splice(runListeners.indexOf(onRun), 1)
    },
    contextPreview: (id) =>
      answer('contextPreview', [id], () => data.preview ?? { tokens: 0, threshold: 0, window: 0, due: false, folded: 0, turns: [], pinned: [], facts: [] }),
    vaultEdit: (id, callId) => answer('vaultEdit', [id, callId], () => ({ call_id: callId, change: null })),
    undoVaultEdit: (id, callId) => answer('undoVaultEdit', [id, callId], () => ({ call_id: callId, change: null, undone_at: '2026-01-02T03:04:05Z' })),
    vaultNote: (id, name, from) => answer('vaultNote', [id, name, from], () => ({ path: `${name}.md`, text: `# ${name}\n`, vault: 'Vault', backlinks: [] })),
    memories: (limit) => answer('memories', [limit], () => memory.map((e) => ({ ...e }))),
    pinMemory: (id, pinned) =>
      answer('pinMemory', [id, pinned], () => {
        const e = memory.find((x) => x.id === id)
        if (!e) throw new Error(`no memory ${id}`)
        e.pinned = pinned
      }),
    forgetMemory: (id) =>
      answer('forgetMemory', [id], () => {
        const i = memory.findIndex((x) => x.id === id)
        if (i < 0) throw new Error(`no memory ${id}`)
        memory.splice(i, 1)
      }),
    notices: () => answer('notices', [], () => data.notices ?? []),
    watchNotices(onNotice) {
      calls.push('watchNotices()')
      noticeListeners.push(onNotice)
      return () => noticeListeners.splice(noticeListeners.indexOf(onNotice), 1)
    },
    installUpdate: () => answer('installUpdate', [], () => undefined),
    clusterStatus: () => answer('clusterStatus', [], () => data.cluster ?? noCluster),
    evals: () => answer('evals', [], () => []),
    evalDetail: (id) =>
      answer('evalDetail', [id], () => {
        throw new Error(`no eval ${id}`)
      }),
    labels: () => answer('labels', [], () => ({ ...labels })),
    setLabel: (id, label, note) =>
      answer('setLabel', [id, label, note], () => {
        if (label) labels[id] = { label, note }
        else delete labels[id]
      }),
    runCase: (id) => answer('runCase', [id], () => ({ task_id: 'case', toml: '[[task]]\n', files: [], home: '/h', suite: 'suites/cases.toml' })),
    saveCase: (id, req) => answer('saveCase', [id, req], () => ({ suite: `/h/${req.suite}`, files: 0 })),
  }
  return {
    api,
    calls,
    watchers,
    runListeners,
    noticeListeners,
    memory,
    hold: (m) => void holding.add(m),
    async release(m) {
      const next = held.get(m)?.shift()
      if (!next) throw new Error(`no held call of ${m}`)
      next()
      await flush()
    },
    fail: (m, err) => void failures.set(m, err),
    push(events) {
      for (const w of watchers) {
        if (w.stopped) continue
        const mine = events.filter((e) => e.run_id === w.runId)
        if (mine.length > 0) w.handlers.onEvents(mine)
      }
    },
  }
}
