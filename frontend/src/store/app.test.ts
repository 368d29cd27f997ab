import { describe, expect, it } from 'vitest'
import { ApiError, type Api } from '../api/api'
import type { HermesEvent, RunSummary } from '../api/types'
import { sampleEvents } from '../lib/fixture'
import { createAppStore, type KeyValue } from './app'

// An in-memory Api whose replies the test releases one by one, to order them.
function scriptedApi(opts: { runs?: RunSummary[]; events?: Record<string, HermesEvent[]>; language?: string } = {}) {
  const pending: { name: string; arg: string; release: () => void }[] = []
  const wait = <T>(name: string, arg: string, value: () => T): Promise<T> =>
    new Promise((resolve, reject) =>
      pending.push({
        name,
        arg,
        release: () => {
          try {
            resolve(value())
          } catch (err) {
            reject(err)
          }
        },
      }),
    )
  const api: Api = {
    listRuns: () => wait('listRuns', '', () => opts.runs ?? []),
    runEvents: (id) =>
      wait('runEvents', id, () => {
        const ev = opts.events?.[id]
        if (!ev) throw new ApiError('no run', { status: 404, code: 'run_not_found', messages: { en: 'no run', 'zh-CN': '没有此运行' } })
        return ev
      }),
    language: () => wait('language', '', () => opts.language ?? ''),
  }
  const release = async (name: string, arg = '') => {
    const i = pending.findIndex((p) => p.name === name && p.arg === arg)
    if (i < 0) throw new Error(`no pending ${name}(${arg})`)
    pending.splice(i, 1)[0].release()
    await new Promise((r) => setTimeout(r, 0))
  }
  return { api, release, pending }
}

function memoryStorage(init: Record<string, string> = {}): KeyValue & { data: Record<string, string> } {
  const data = { ...init }
  return { data, getItem: (k) => data[k] ?? null, setItem: (k, v) => void (data[k] = v) }
}

const run = (id: string, started: string): RunSummary => ({
  run_id: id, task: id, status: 'finished', model: 'm', workspace: '/w', started,
  iterations: 1, tokens: 5, tool_calls: 0, verified: true, path: id,
})

describe('createAppStore', () => {
  it('loads runs newest first and reports loading then ready', async () => {
    const { api, release } = scriptedApi({ runs: [run('old', '2026-01-01T00:00:00Z'), run('new', '2026-02-01T00:00:00Z')] })
    const store = createAppStore({ api, storage: null, browserLanguages: ['en-US'] })
    const statuses: string[] = []
    store.subscribe(() => statuses.push(store.get().runs.status))
    const done = store.loadRuns()
    await release('listRuns')
    await done
    expect(statuses).toEqual(['loading', 'ready'])
    expect(store.get().runs.index.ids).toEqual(['new', 'old'])
  })

  it('follows the backend language unless the user chose one', async () => {
    const a = scriptedApi({ language: 'zh-CN' })
    const s1 = createAppStore({ api: a.api, storage: memoryStorage(), browserLanguages: ['en-US'] })
    expect(s1.get().lang).toBe('en')
    const started = s1.start()
    await a.release('language')
    await a.release('listRuns')
    await started
    expect(s1.get().lang).toBe('zh-CN')

    const b = scriptedApi({ language: 'zh-CN' })
    const chosen = memoryStorage({ 'hermes.lang': 'en' })
    const s2 = createAppStore({ api: b.api, storage: chosen, browserLanguages: ['zh-CN'] })
    const started2 = s2.start()
    await b.release('listRuns')
    await started2
    expect(b.pending).toHaveLength(0)
    expect(s2.get().lang).toBe('en')
  })

  it('remembers language and theme choices', () => {
    const storage = memoryStorage()
    const store = createAppStore({ api: scriptedApi().api, storage, browserLanguages: [] })
    store.setLang('zh-CN')
    store.setTheme('dark')
    expect(storage.data).toEqual({ 'hermes.lang': 'zh-CN', 'hermes.theme': 'dark' })
    const again = createAppStore({ api: scriptedApi().api, storage, browserLanguages: ['en'] })
    expect(again.get()).toMatchObject({ lang: 'zh-CN', theme: 'dark' })
  })

  it('opens a run in seq order and drops a slower reply for a run no longer open', async () => {
    const { api, release } = scriptedApi({ events: { r1: [...sampleEvents].reverse(), r2: [] } })
    const store = createAppStore({ api, storage: null, browserLanguages: [] })
    const first = store.openRun('r1')
    const second = store.openRun('r2')
    await release('runEvents', 'r2')
    await release('runEvents', 'r1')
    await Promise.all([first, second])
    expect(store.get().open).toMatchObject({ runId: 'r2', status: 'ready', events: [] })

    const third = store.openRun('r1')
    await release('runEvents', 'r1')
    await third
    const open = store.get().open
    expect(open.events.map((e) => e.seq)).toEqual(sampleEvents.map((e) => e.seq))
    expect(open.view.task).toBe('Summarise README.md')
  })

  it('keeps the error of a run that cannot be opened, and closing forgets it', async () => {
    const { api, release } = scriptedApi()
    const store = createAppStore({ api, storage: null, browserLanguages: [] })
    const opening = store.openRun('missing')
    await release('runEvents', 'missing')
    await opening
    const { open } = store.get()
    expect(open.status).toBe('error')
    expect(open.error?.messageIn('zh-CN')).toBe('没有此运行')
    store.closeRun()
    expect(store.get().open.runId).toBe('')
  })

  it('turns a transport failure into an ApiError on the runs list', async () => {
    const api: Api = {
      listRuns: () => Promise.reject(new TypeError('fetch failed')),
      runEvents: () => Promise.resolve([]),
      language: () => Promise.resolve(''),
    }
    const store = createAppStore({ api, storage: null, browserLanguages: [] })
    await store.loadRuns()
    const { runs } = store.get()
    expect(runs.status).toBe('error')
    expect(runs.error).toBeInstanceOf(ApiError)
    expect(runs.error?.message).toBe('fetch failed')
  })

  it('merges filter changes', () => {
    const store = createAppStore({ api: scriptedApi().api, storage: null, browserLanguages: [] })
    store.setFilter({ text: 'readme' })
    store.setFilter({ status: 'failed' })
    expect(store.get().filter).toEqual({ text: 'readme', status: 'failed' })
  })
})
