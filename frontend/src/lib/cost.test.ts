import { describe, expect, it } from 'vitest'
import { formatCost } from './cost'

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
