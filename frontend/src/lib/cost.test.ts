import { describe, expect, it } from 'vitest'
import { createCostIndex, formatCost, runCost } from './cost'
import { planEvents, sampleEvents, steeredEvents } from './fixture'
import { foldRun } from './timeline'

describe('formatCost', () => {
  it.each([
    [undefined, '—'],
    [{}, '—'],
    [{ cost: null, currency: 'USD' }, '—'],
    [{ cost: 0, currency: 'USD' }, '$0.0000'],
    [{ cost: 0.01234, currency: 'USD' }, '$0.0123'],
    [{ cost: 1.2, currency: 'CNY' }, '¥1.20'],
    [{ cost: 3, currency: 'EUR' }, '3.00 EUR'],
  ])('%j is %s, as hermes runs writes it', (p, want) => {
    expect(formatCost(p)).toBe(want)
  })
})

describe('runCost', () => {
  const decided = (cost?: number, currency = 'USD') => ({ type: 'model.decided', data: cost === undefined ? {} : { cost, currency } })
  it('sums the turns of a live run', () => {
    expect(runCost([decided(0.001), decided(), decided(0.002)])).toEqual({ cost: 0.003, currency: 'USD' })
  })
  it('takes the finished run\u2019s totals, which count the stages\u2019 calls too', () => {
    expect(runCost([decided(0.001), { type: 'run.finished', data: { totals: { cost: 0.0015, currency: 'USD' } } }])).toEqual({ cost: 0.0015, currency: 'USD' })
  })
  it('is unknown when no call had a price', () => {
    expect(formatCost(runCost([decided(), { type: 'run.finished', data: { totals: {} } }]))).toBe('—')
  })
})

describe('a card\u2019s cost', () => {
  it('is its turn\u2019s, from model.decided, and unknown without a price', () => {
    const ev = (seq: number, iteration: number, type: string, data: unknown) => ({ v: 1, run_id: 'r', seq, time: '2026-11-30T01:35:00Z', iteration, type, data })
    const view = foldRun([
      ev(1, 0, 'run.started', { task: 't' }),
      ev(2, 1, 'model.decided', { thought: 'a', usage: { prompt_tokens: 10 }, cost: 0.0012, currency: 'USD' }),
      ev(3, 2, 'model.decided', { final_answer: 'b', usage: { prompt_tokens: 10 } }),
    ])
    const card = (n: number) => view.iterations.find((it) => it.n === n)!
    expect([formatCost(card(1)), formatCost(card(2))]).toEqual(['$0.0012', '—'])
  })
})

describe('createCostIndex', () => {
  const decided = (cost?: number, currency = 'USD') => ({ type: 'model.decided', data: cost === undefined ? {} : { cost, currency } })
  const finished = (cost?: number) => ({ type: 'run.finished', data: { totals: cost === undefined ? {} : { cost, currency: 'USD' } } })
  const logs = {
    live: [decided(0.001), { type: 'tool.finished', data: {} }, decided(), decided(0.002), decided(0.5, 'CNY'), decided(0.003)],
    finished: [decided(0.001), decided(0.002), finished(0.004)],
    unpriced: [decided(), finished()],
    resumed: [decided(0.001), finished(0.001), { type: 'run.resumed', data: {} }, decided(0.002), finished(0.004)],
    empty: [],
  }
  it.each(Object.entries(logs))('gives runCost’s answer at every event of a %s run, reading each event once', (_, log) => {
    const index = createCostIndex()
    let last = index.update([])
    for (let i = 0; i <= log.length; i++) {
      const got = index.update(log.slice(0, i))
      expect(got).toEqual(runCost(log.slice(0, i)))
      // The same answer keeps its identity (a run's end answers with its totals).
      if (got.cost === last.cost && got.currency === last.currency && log[i - 1]?.type !== 'run.finished') expect(got).toBe(last)
      last = got
    }
  })
  it('folds a log it did not grow from anew', () => {
    const index = createCostIndex()
    index.update(logs.finished)
    expect(index.update(logs.live)).toEqual(runCost(logs.live))
    expect(index.update(logs.live.slice(0, 2))).toEqual(runCost(logs.live.slice(0, 2)))
  })
  it('gives runCost’s answer on the fixtures’ runs, event by event', () => {
    for (const log of [sampleEvents, steeredEvents, planEvents]) {
      const index = createCostIndex()
      for (let i = 0; i <= log.length; i++) expect(index.update(log.slice(0, i))).toEqual(runCost(log.slice(0, i)))
    }
  })
})
