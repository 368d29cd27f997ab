import { describe, expect, it } from 'vitest'
import type { RunSummary } from '../api/types'
import { addRuns, filterRuns, forksOf, indexRuns, noFilter, pageOf, upsertRun } from './runs'

function run(id: string, started: string, over: Partial<RunSummary> = {}): RunSummary {
  return {
    run_id: id,
    task: `task ${id}`,
    status: 'finished',
    model: 'gpt-4o-mini',
    workspace: '/w',
    started,
    iterations: 1,
    tokens: 10,
    tool_calls: 0,
    verified: true,
    path: `logs/${id}.jsonl`,
    live: false,
    title: '',
    paused: false,
    sample: false,
    ...over,
  }
}

describe('indexRuns', () => {
  it('orders newest first, ties by run id, and keeps the last of a repeated id', () => {
    const idx = indexRuns([
      run('a', '2026-11-28T10:00:00Z'),
      run('c', '2026-11-30T10:00:00Z'),
      run('b', '2026-11-29T10:00:00Z'),
      run('d', '2026-11-29T10:00:00Z'),
      run('a', '2026-11-28T10:00:00Z', { task: 'newer copy' }),
    ])
    expect(idx.ids).toEqual(['c', 'd', 'b', 'a'])
    expect(idx.byId.a.task).toBe('newer copy')
  })

  it('sorts runs with an unreadable start time last', () => {
    expect(indexRuns([run('x', ''), run('y', '2026-01-01T00:00:00Z')]).ids).toEqual(['y', 'x'])
  })

  it('puts the sample run after the home’s own runs, as the server lists it, whatever its date', () => {
    const idx = indexRuns([run('s', '2026-12-01T10:00:00Z', { sample: true }), run('old', '2026-01-01T00:00:00Z'), run('new', '2026-11-30T10:00:00Z')])
    expect(idx.ids).toEqual(['new', 'old', 's'])
    expect(upsertRun(idx, run('live', '2026-11-29T10:00:00Z', { live: true })).ids).toEqual(['live', 'new', 'old', 's'])
  })
})

describe('filterRuns', () => {
  const idx = indexRuns([
    run('r1', '2026-11-30T10:00:00Z', { task: 'Summarise the README', status: 'finished' }),
    run('r2', '2026-11-29T10:00:00Z', { task: '整理笔记库', status: 'guard', model: 'deepseek-chat' }),
    run('r3', '2026-11-28T10:00:00Z', { task: 'Rename files', status: 'failed' }),
    run('r4', '2026-11-27T10:00:00Z', { task: 'Book a room', origin: 'wecom/zhangsan' }),
  ])
  it.each([
    { filter: noFilter, want: ['r1', 'r2', 'r3', 'r4'] },
    { filter: { text: 'zhangsan', status: '' }, want: ['r4'] },
    { filter: { text: 'readme', status: '' }, want: ['r1'] },
    { filter: { text: '笔记', status: '' }, want: ['r2'] },
    { filter: { text: 'deepseek 整理', status: '' }, want: ['r2'] },
    { filter: { text: 'deepseek readme', status: '' }, want: [] },
    { filter: { text: '', status: 'failed' }, want: ['r3'] },
    { filter: { text: 'r', status: 'guard' }, want: ['r2'] },
  ])('$filter', ({ filter, want }) => {
    expect(filterRuns(idx, filter).map((r) => r.run_id)).toEqual(want)
  })
})

describe('pageOf', () => {
  const runs = [run('a', '2026-01-01T00:00:00Z'), run('c', '2026-01-03T00:00:00Z'), run('b', '2026-01-02T00:00:00Z')]
  it('cuts pages newest first with a cursor, as the API does', () => {
    expect(pageOf(runs, '', 2)).toEqual({ runs: [runs[1], runs[2]], next: 'b' })
    expect(pageOf(runs, 'b', 2)).toEqual({ runs: [runs[0]], next: '' })
    expect(pageOf(runs, '', 0).runs.map((r) => r.run_id)).toEqual(['c', 'b', 'a'])
    expect(pageOf(runs, 'gone', 2)).toEqual({ runs: [], next: '' })
  })
})

describe('addRuns', () => {
  it('adds a page in order and keeps the entry it already had', () => {
    const index = indexRuns([run('c', '2026-01-03T00:00:00Z', { status: 'running', live: true })])
    const next = addRuns(index, [run('c', '2026-01-03T00:00:00Z'), run('a', '2026-01-01T00:00:00Z')])
    expect(next.ids).toEqual(['c', 'a'])
    expect(next.byId.c.live).toBe(true)
  })
})

describe('forksOf', () => {
  it('names the runs forked from a run, in the list’s order, and keeps its value across a live summary', () => {
    const index = indexRuns([
      run('src', '2026-01-01T00:00:00Z', { status: 'running', live: true }),
      run('f1', '2026-01-02T00:00:00Z', { forked_from: { run_id: 'src', iteration: 2 } }),
      run('f2', '2026-01-03T00:00:00Z', { forked_from: { run_id: 'src', iteration: 1 } }),
      run('g', '2026-01-04T00:00:00Z', { forked_from: { run_id: 'f1', iteration: 1 } }),
    ])
    expect(forksOf(index, 'src')).toBe('f2 f1')
    expect(forksOf(index, 'f1')).toBe('g')
    expect(forksOf(index, 'g')).toBe('')
    // The source's next iteration: a new list, the same forks.
    const next = upsertRun(index, { ...index.byId.src, iterations: 2 })
    expect(forksOf(next, 'src')).toBe('f2 f1')
    const forked = upsertRun(next, run('f3', '2026-01-05T00:00:00Z', { forked_from: { run_id: 'src', iteration: 2 } }))
    expect(forksOf(forked, 'src')).toBe('f3 f2 f1')
  })
})

describe('upsertRun', () => {
  it('keeps the order (and the ids’ list) for a summary that keeps its place, and sorts again for one that moves', () => {
    const index = indexRuns([run('a', '2026-01-01T00:00:00Z', { status: 'running', live: true }), run('b', '2026-01-02T00:00:00Z')])
    expect(index.ids).toEqual(['a', 'b'])
    const next = upsertRun(index, { ...index.byId.a, iterations: 5 })
    expect(next.ids).toBe(index.ids)
    expect(next.byId.a.iterations).toBe(5)
    // It ends: no longer live, it goes below the newer run.
    const ended = upsertRun(next, { ...next.byId.a, live: false, status: 'finished' })
    expect(ended.ids).toEqual(['b', 'a'])
    expect(upsertRun(ended, run('c', '2026-01-03T00:00:00Z')).ids).toEqual(['c', 'b', 'a'])
  })
})
