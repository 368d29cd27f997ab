import { describe, expect, it } from 'vitest'
import type { HermesEvent, RunSummary } from './types'
import { createWailsApi } from './wails'

const run = (id: string) => ({ run_id: id }) as RunSummary

describe('createWailsApi listRunsPage', () => {
  it('asks the window for one page, as the HTTP transport asks GET /api/runs', async () => {
    const calls: string[] = []
    const api = createWailsApi({
      go: {
        app: {
          App: {
            ListRuns: () => (calls.push('ListRuns'), Promise.resolve([run('c'), run('b'), run('a')])),
            ListRunsPage: (before: string, limit: number) => {
              calls.push(`ListRunsPage ${before} ${limit}`)
              return Promise.resolve(before ? { runs: [run('a')] } : { runs: [run('c'), run('b')], next: 'b' })
            },
            RunEvents: () => Promise.resolve([]),
            Language: () => Promise.resolve('en'),
          },
        },
      },
    })
    expect(await api.listRunsPage('', 2)).toEqual({ runs: [run('c'), run('b')], next: 'b' })
    expect(await api.listRunsPage('b', 2)).toEqual({ runs: [run('a')], next: '' })
    expect(calls).toEqual(['ListRunsPage  2', 'ListRunsPage b 2'])
  })

  it('cuts the page from the whole list when the window has no paging', async () => {
    const api = createWailsApi({
      go: { app: { App: { ListRuns: () => Promise.resolve([run('c'), run('b'), run('a')]), RunEvents: () => Promise.resolve([]), Language: () => Promise.resolve('en') } } },
    })
    expect(await api.listRunsPage('', 2)).toEqual({ runs: [run('c'), run('b')], next: 'b' })
  })

  it('asks the window for the runs with a label, as GET /api/runs?label= does', async () => {
    const calls: string[] = []
    const api = createWailsApi({
      go: {
        app: {
          App: {
            ListRuns: () => Promise.resolve([]),
            ListRunsPage: (before: string, limit: number, label: string) => (calls.push(`ListRunsPage ${before} ${limit} ${label}`), Promise.resolve({ runs: [run('r500')], next: 'r500' })),
            RunEvents: () => Promise.resolve([]),
            Language: () => Promise.resolve('en'),
          },
        },
      },
    })
    expect(await api.listRunsPage('', 1, 'bad')).toEqual({ runs: [run('r500')], next: 'r500' })
    expect(calls).toEqual(['ListRunsPage  1 bad'])
  })

  it('keeps an older window\'s whole list to the runs with a label', async () => {
    const api = createWailsApi({
      go: {
        app: {
          App: {
            ListRuns: () => Promise.resolve([run('c'), run('b'), run('a')]),
            Labels: () => Promise.resolve({ a: { label: 'bad' }, c: { label: 'bad' }, b: { label: 'good' } }),
            RunEvents: () => Promise.resolve([]),
            Language: () => Promise.resolve('en'),
          },
        },
      },
    })
    expect(await api.listRunsPage('', 1, 'bad')).toEqual({ runs: [run('c')], next: 'c' })
    expect(await api.listRunsPage('c', 1, 'bad')).toEqual({ runs: [run('a')], next: '' })
  })
})

describe('createWailsApi watchRun', () => {
  const ev = (seq: number) => ({ v: 1, run_id: 'r1', seq, time: '', iteration: 1, type: 'tool.finished', data: {} }) as HermesEvent

  // A window whose runtime keeps its listeners by name and whose WatchRun
  // records the order of calls, as Wails would see them.
  function window(watchRun: (watchId: string, runId: string, after: number) => Promise<void>) {
    const listeners = new Map<string, (d: unknown) => void>()
    const calls: string[] = []
    const api = createWailsApi({
      runtime: {
        EventsOn: (name, cb) => {
          calls.push(`on ${name}`)
          listeners.set(name, cb)
          return () => {
            calls.push(`off ${name}`)
            listeners.delete(name)
          }
        },
      },
      go: {
        app: {
          App: {
            ListRuns: () => Promise.resolve([]),
            RunEvents: () => Promise.resolve([]),
            Language: () => Promise.resolve('en'),
            WatchRun: (watchId, runId, after) => {
              calls.push(`WatchRun ${watchId} ${runId} ${after}`)
              return watchRun(watchId, runId, after)
            },
            UnwatchRun: (watchId) => {
              calls.push(`UnwatchRun ${watchId}`)
              return Promise.resolve()
            },
          },
        },
      },
    })
    return { api, listeners, calls }
  }

  it('listens on its own watch, then asks; gets the batches, then the end', () => {
    const w = window(() => Promise.resolve())
    const got: number[] = []
    let ended = 0
    w.api.watchRun('r1', 2, { onEvents: (es) => got.push(...es.map((e) => e.seq)), onEnd: () => ended++ })
    expect(w.calls).toEqual(['on hermes:watch:1', 'WatchRun 1 r1 2'])
    const send = w.listeners.get('hermes:watch:1')!
    send({ events: [ev(3), ev(4)] })
    send({ events: [ev(5)] })
    send({ end: true })
    expect(got).toEqual([3, 4, 5])
    expect(ended).toBe(1)
    expect(w.listeners.size).toBe(0)
  })

  it('gives each watch its own name and stops one without the other', async () => {
    const w = window(() => Promise.resolve())
    const a: number[] = []
    const b: number[] = []
    const stopA = w.api.watchRun('r1', 0, { onEvents: (es) => a.push(...es.map((e) => e.seq)) })
    w.api.watchRun('r2', 0, { onEvents: (es) => b.push(...es.map((e) => e.seq)) })
    stopA()
    expect(w.calls).toContain('off hermes:watch:1')
    await Promise.resolve()
    expect(w.calls).toContain('UnwatchRun 1')
    w.listeners.get('hermes:watch:2')!({ events: [ev(1)] })
    expect([a, b]).toEqual([[], [1]])
  })

  it('ends a watch the window refuses', async () => {
    const w = window(() => Promise.reject(new Error(JSON.stringify({ error: { code: 'run_not_found', message: { en: 'no run r9' } } }))))
    const ended = new Promise<void>((resolve) => w.api.watchRun('r9', 0, { onEvents: () => {}, onEnd: resolve }))
    await ended
    expect(w.listeners.size).toBe(0)
  })
})

describe('createWailsApi evals and labels', () => {
  it('calls the window\'s bindings, and says to update an older window that has none', async () => {
    const calls: string[] = []
    const base = { ListRuns: () => Promise.resolve([]), RunEvents: () => Promise.resolve([]), Language: () => Promise.resolve('en') }
    const api = createWailsApi({
      go: {
        app: {
          App: {
            ...base,
            Evals: () => Promise.resolve(null),
            Labels: () => Promise.resolve(null),
            SetLabel: (id: string, label: string, note: string) => (calls.push(`SetLabel ${id} ${label} ${note}`), Promise.resolve()),
            SaveCase: () => Promise.reject(new Error('{"error":{"code":"bad_suite_path","message":{"en":"outside the home","zh-CN":"不在主目录"}}}')),
          },
        },
      },
    })
    expect(await api.evals()).toEqual([])
    expect(await api.labels()).toEqual({})
    await api.setLabel('r1', 'bad', 'made it up')
    expect(calls).toEqual(['SetLabel r1 bad made it up'])
    await expect(api.saveCase('r1', { suite: '/etc/x.toml', toml: '' })).rejects.toMatchObject({ code: 'bad_suite_path', messages: { 'zh-CN': '不在主目录' } })
    await expect(api.runCase('r1')).rejects.toThrow('this build of Hermes has no RunCase; update Hermes')
  })
})
