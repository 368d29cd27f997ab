import { describe, expect, it } from 'vitest'
import type { RunSummary } from './types'
import { createWailsApi } from './wails'

const run = (id: string) => ({ run_id: id }) as RunSummary

describe('createWailsApi listRunsPage', () => {
  it('asks the window for one page, as the HTTP transport asks GET /api/runs', async () => {
    const calls: string[] = []
    const api = createWailsApi({
      go: {
        app: {
          App: {
            ListRuns: async () => (calls.push('ListRuns'), [run('c'), run('b'), run('a')]),
            ListRunsPage: async (before: string, limit: number) => {
              calls.push(`ListRunsPage ${before} ${limit}`)
              return before ? { runs: [run('a')] } : { runs: [run('c'), run('b')], next: 'b' }
            },
            RunEvents: async () => [],
            Language: async () => 'en',
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
      go: { app: { App: { ListRuns: async () => [run('c'), run('b'), run('a')], RunEvents: async () => [], Language: async () => 'en' } } },
    })
    expect(await api.listRunsPage('', 2)).toEqual({ runs: [run('c'), run('b')], next: 'b' })
  })
})
