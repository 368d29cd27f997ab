import { describe, expect, it } from 'vitest'
import { ApiError } from '../api/api'
import type { RunSummary } from '../api/types'
import { createRunsStore, runsPageSize } from './runs'
import { testApi } from './testapi'

const run = (id: string, started: string, over: Partial<RunSummary> = {}): RunSummary => ({
  run_id: id, task: `task ${id}`, status: 'finished', model: 'm', workspace: '/w', started,
  iterations: 1, tokens: 5, tool_calls: 0, verified: true, path: '', live: false, title: '', paused: false, sample: false, ...over,
})

describe('createRunsStore', () => {
  it('loads live runs first, then the others newest first, reporting loading then ready', async () => {
    const t = testApi({ runs: [run('old', '2026-01-01T00:00:00Z'), run('live', '2025-01-01T00:00:00Z', { live: true, status: 'running' }), run('new', '2026-02-01T00:00:00Z')] })
    const store = createRunsStore(t.api)
    const statuses: string[] = []
    store.subscribe(() => statuses.push(store.get().status))
    await store.load()
    expect(statuses).toEqual(['loading', 'ready'])
    expect(store.get().index.ids).toEqual(['live', 'new', 'old'])
  })

  it('keeps a live run’s update that arrives while the list loads, and drops a stale load', async () => {
    const t = testApi({ runs: [run('a', '2026-01-01T00:00:00Z', { live: true, status: 'running', iterations: 1 })] })
    const store = createRunsStore(t.api)
    store.watch()
    t.hold('listRunsPage')
    const first = store.load()
    const second = store.load()
    t.runListeners[0](run('a', '2026-01-01T00:00:00Z', { live: true, status: 'running', iterations: 4 }))
    await t.release('listRunsPage')
    await t.release('listRunsPage')
    await Promise.all([first, second])
    expect(store.get().index.byId.a.iterations).toBe(4)
  })

  it('adds and reorders runs from the live stream', async () => {
    const t = testApi({ runs: [run('a', '2026-01-01T00:00:00Z')] })
    const store = createRunsStore(t.api)
    await store.load()
    const stop = store.watch()
    t.runListeners[0](run('b', '2025-01-01T00:00:00Z', { live: true, status: 'running' }))
    expect(store.get().index.ids).toEqual(['b', 'a'])
    t.runListeners[0](run('b', '2025-01-01T00:00:00Z', { live: false, status: 'finished' }))
    expect(store.get().index.ids).toEqual(['a', 'b'])
    stop()
    expect(t.runListeners).toHaveLength(0)
  })

  it('renames and deletes, and keeps the error of a refused delete', async () => {
    const t = testApi({ runs: [run('a', '2026-01-01T00:00:00Z'), run('b', '2026-01-02T00:00:00Z')] })
    const store = createRunsStore(t.api)
    await store.load()
    expect(await store.rename('a', 'My title')).toBe(true)
    expect(store.get().index.byId.a.title).toBe('My title')
    store.setFilter({ text: 'my title' })
    expect(store.get().filter).toEqual({ text: 'my title', status: '' })

    t.fail('deleteRun', new ApiError('run b is live', { status: 409, code: 'run_live', messages: { en: 'run b is live', 'zh-CN': '运行 b 正在进行' } }))
    expect(await store.remove('b')).toBe(false)
    expect(store.get().actionError?.messageIn('zh-CN')).toBe('运行 b 正在进行')
    expect(store.get().index.ids).toEqual(['b', 'a'])
    expect(await store.remove('a')).toBe(true)
    expect(store.get().index.ids).toEqual(['b'])
    expect(store.get().actionError).toBeNull()
    expect(t.calls).toContain('renameRun("a", "My title")')
  })

  it('loads the newest page first, then older pages on asking, keeping live updates', async () => {
    const runs = Array.from({ length: runsPageSize * 2 + 5 }, (_, i) => run(`r${String(i).padStart(3, '0')}`, new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString()))
    const t = testApi({ runs })
    const store = createRunsStore(t.api)
    await store.load()
    const newest = runs.map((r) => r.run_id).reverse()
    expect(store.get().index.ids).toEqual(newest.slice(0, runsPageSize))
    expect(store.get().next).toBe(newest[runsPageSize - 1])
    store.watch()
    // The live stream's summary is newer than the page's copy of the run.
    t.runListeners[0]({ ...runs[2], status: 'running', live: true, iterations: 9 })
    await Promise.all([store.more(), store.more()]) // the second waits for nothing: one page at a time
    expect(store.get().index.ids.length).toBe(runsPageSize * 2 + 1) // and the live run, older than both pages
    await store.more()
    await store.more()
    expect(store.get().next).toBe('')
    expect(store.get().index.ids).toEqual(['r002', ...newest.filter((id) => id !== 'r002')])
    expect(store.get().index.byId.r002.iterations).toBe(9)
    expect(t.calls.filter((c) => c.startsWith('listRunsPage'))).toEqual([
      `listRunsPage("", ${runsPageSize})`,
      `listRunsPage("${newest[runsPageSize - 1]}", ${runsPageSize})`,
      `listRunsPage("${newest[2 * runsPageSize - 1]}", ${runsPageSize})`,
    ])
  })

  it('asks the server for the runs with a label, so one far down the list is found at once', async () => {
    const runs = Array.from({ length: 2000 }, (_, i) => run(`r${String(i).padStart(4, '0')}`, new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString()))
    const t = testApi({ runs, labels: { r1500: { label: 'bad', note: 'made it up' }, r0007: { label: 'good' } } })
    const store = createRunsStore(t.api)
    await store.load()
    expect(store.get().index.ids).not.toContain('r1500') // the 500th newest: not on the first page
    await store.setLabel('bad')
    expect(store.get().label).toBe('bad')
    expect(store.get().index.ids).toEqual(['r1500'])
    expect(store.get().next).toBe('')
    expect(t.calls.at(-1)).toBe(`listRunsPage("", ${runsPageSize}, "bad")`)
    await store.load() // a reload keeps the label
    expect(t.calls.at(-1)).toBe(`listRunsPage("", ${runsPageSize}, "bad")`)
    await store.setLabel('')
    expect(store.get().index.ids.length).toBe(runsPageSize)
    expect(t.calls.at(-1)).toBe(`listRunsPage("", ${runsPageSize})`)
    const asked = t.calls.length
    await store.setLabel('')
    expect(t.calls.length).toBe(asked) // the same label: nothing to ask
  })

  it('turns a transport failure into an ApiError', async () => {
    const t = testApi()
    t.fail('listRunsPage', new TypeError('fetch failed'))
    const store = createRunsStore(t.api)
    await store.load()
    expect(store.get().status).toBe('error')
    expect(store.get().error).toBeInstanceOf(ApiError)
    expect(store.get().error?.message).toBe('fetch failed')
  })
})
