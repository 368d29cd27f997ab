import { describe, expect, it } from 'vitest'
import { percentile } from './stats'

describe('percentile', () => {
  it.each([
    [[], 95, NaN],
    [[5], 95, 5],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95, 10],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50, 5],
    [Array.from({ length: 100 }, (_, i) => 100 - i), 95, 95],
  ])('%j p%d = %d', (xs, p, want) => {
    expect(percentile(xs, p)).toEqual(want)
  })
})
