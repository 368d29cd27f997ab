import { describe, expect, it } from 'vitest'
import { lagDue, lagged, type Shown } from './lag'

describe('lagged', () => {
  it('shows each value at once when not lagging', () => {
    let s: Shown<number> = { v: 1, at: 0 }
    s = lagged(s, 2, 1000, 500, false)
    expect(s).toEqual({ v: 2, at: 0 })
    s = lagged(s, 3, 1001, 500, false)
    expect(s.v).toBe(3)
  })

  it('while lagging, shows the first change at once, then the newest at most once per period', () => {
    let s: Shown<number> = { v: 0, at: 0 }
    const shown: number[] = []
    // A value every 40 ms for a second, as a live run's events come.
    for (let t = 1000, v = 1; t <= 2000; t += 40, v++) {
      const next = lagged(s, v, t, 500, true)
      if (next !== s) shown.push(next.v)
      s = next
    }
    expect(shown).toEqual([1, 14])
    // The newest value's turn: due when the period since the last shown is over.
    expect(lagDue(s, 2000, 500)).toBe(20)
    s = lagged(s, 26, 2020, 500, true)
    expect(s.v).toBe(26)
  })

  it('keeps what it shows when the value did not change', () => {
    const s: Shown<string> = { v: 'a', at: 1000 }
    expect(lagged(s, 'a', 9000, 500, true)).toBe(s)
    const still: Shown<string> = { v: 'a', at: 0 }
    expect(lagged(still, 'a', 9000, 500, false)).toBe(still)
  })
})
