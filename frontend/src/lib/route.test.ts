import { describe, expect, it } from 'vitest'
import { parseRoute, runHref } from './route'

describe('routes', () => {
  it.each([
    ['', { page: 'runs' }],
    ['#/', { page: 'runs' }],
    ['#/runs/20261130-013501-abc123', { page: 'run', runId: '20261130-013501-abc123' }],
    ['#/runs/a%2Fb/', { page: 'run', runId: 'a/b' }],
    ['#/runs/%E0%A4%A', { page: 'runs' }],
    ['#/elsewhere', { page: 'runs' }],
    ['#/new', { page: 'new' }],
    ['#/memory', { page: 'memory' }],
    ['#/cluster', { page: 'cluster' }],
    ['#/evals', { page: 'evals', evalId: '' }],
    ['#/evals/ev-20261205-1', { page: 'evals', evalId: 'ev-20261205-1' }],
  ])('%s', (hash, want) => {
    expect(parseRoute(hash)).toEqual(want)
  })

  it('round-trips run ids through links', () => {
    for (const id of ['r1', 'a/b', '运行 1']) expect(parseRoute(runHref(id))).toEqual({ page: 'run', runId: id })
  })
})
