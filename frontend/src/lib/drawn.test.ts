import { describe, expect, it } from 'vitest'
import { createDrawn } from './drawn'

describe('createDrawn', () => {
  it('tells those waiting each time the page is drawn again, not while it stays drawn', () => {
    const drawn = createDrawn()
    let woke = 0
    const off = drawn.onDrawn(() => woke++)
    drawn.set(true)
    expect(woke).toBe(0)
    drawn.set(false)
    expect(drawn.now()).toBe(false)
    drawn.set(true)
    expect(woke).toBe(1)
    off()
    drawn.set(false)
    drawn.set(true)
    expect(woke).toBe(1)
  })
})
