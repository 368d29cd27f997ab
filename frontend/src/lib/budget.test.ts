import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { HermesEvent } from '../api/types'
import { axisTicks, budgetSeries, budgetSplit, iterationTicks } from './budget'
import { foldRun } from './timeline'
import { sampleEvents, steeredEvents } from './fixture'

describe('budgetSplit', () => {
  it.each([
    {
      name: 'layers against the window',
      layers: { system: 100, tool_schemas: 200, recent: 300, tool_results: 400 },
      window: 2000,
      total: 1000,
      want: { used: 1000, free: 1000, fill: 0.5, system: 0.05, tool_results: 0.2 },
    },
    {
      name: 'a total above the named layers wins',
      layers: { system: 100 },
      window: 1000,
      total: 400,
      want: { used: 400, free: 600, fill: 0.4, system: 0.1, tool_results: 0 },
    },
    {
      name: 'an overflow',
      layers: { recent: 1500 },
      window: 1000,
      total: 0,
      want: { used: 1500, free: 0, fill: 1.5, system: 0, tool_results: 0 },
    },
    { name: 'no window known', layers: { system: 10 }, window: 0, total: 0, want: { used: 10, free: 0, fill: 0, system: 0, tool_results: 0 } },
  ])('$name', ({ layers, window, total, want }) => {
    const s = budgetSplit(layers, window, total)
    expect(s.layers.map((l) => l.layer)).toEqual(['system', 'tool_schemas', 'task_anchor', 'summary', 'memory', 'recent', 'tool_results'])
    const share = Object.fromEntries(s.layers.map((l) => [l.layer, l.share]))
    expect({ used: s.used, free: s.free, fill: s.fill, system: share.system, tool_results: share.tool_results }).toEqual(want)
  })
})

describe('budgetSeries', () => {
  it('has one point per request, with the compressions marked', () => {
    expect(budgetSeries(foldRun(sampleEvents)).map((p) => [p.iteration, p.total, p.window, p.compressed])).toEqual([
      [1, 900, 128000, false],
      [2, 1000, 128000, false],
    ])
    const steered = budgetSeries(foldRun(steeredEvents))
    expect(steered.map((p) => p.compressed)).toEqual([false, true])
    expect(steered[1].layers).toMatchObject({ system: 200, task_anchor: 60, summary: 40, recent: 0 })
  })
})

describe('the chart and the card of the recorded sample', () => {
  // Iteration 1 of the recorded sample: the chart draws Hermes's estimate of
  // the request (848 tokens, 653 of them tool schemas), the card the prompt
  // tokens the provider reported (872, schemas included, as providers count
  // them). The two agree within a few percent; the chart names the first and
  // shows the second on hover, and later requests say the ratio they were
  // scaled by.
  it('carries Hermes\u2019s estimate and the provider\u2019s count for each request', () => {
    const events = readFileSync(new URL('../../../backend/runner/sample/sample.jsonl', import.meta.url), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as HermesEvent)
    const view = foldRun(events)
    const first = budgetSeries(view)[0]
    expect([first.iteration, first.total, first.layers.tool_schemas, first.provider]).toEqual([1, 848, 653, 872])
    expect(Math.abs(first.total - first.provider) / first.provider).toBeLessThan(0.1)
    expect(first.provider).toBe(view.iterations.find((it) => it.n === 1)?.tokensIn)
  })
})

describe('axes', () => {
  it('steps tokens in round numbers', () => {
    expect(axisTicks(1000)).toEqual([0, 250, 500, 750, 1000])
    expect(axisTicks(1100)).toEqual([0, 500, 1000])
    expect(axisTicks(0)).toEqual([0])
  })
  it('labels at most a few iterations, the first and the last among them', () => {
    expect(iterationTicks(3)).toEqual([0, 1, 2])
    expect(iterationTicks(301)).toEqual([0, 60, 120, 180, 240, 300])
    expect(iterationTicks(8)).toEqual([0, 2, 4, 7])
    expect(iterationTicks(0)).toEqual([])
  })
})
