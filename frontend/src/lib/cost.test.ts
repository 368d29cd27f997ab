import { describe, expect, it } from 'vitest'
import { formatCost, runCost } from './cost'
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
