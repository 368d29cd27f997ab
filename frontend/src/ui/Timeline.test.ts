import { describe, expect, it, vi } from 'vitest'
import type { Virtualizer } from '@tanstack/react-virtual'
import { atEnd, cardSize, followRange, offsetObserver, type Known } from './Timeline'

describe('followRange', () => {
  const size = () => 100

  it('draws the end of the list while the virtualizer still places the viewport where it was', () => {
    // 50 cards of 100 px in a 300 px viewport; the virtualizer last heard of
    // cards 40 to 42, and a 51st card came: it must be drawn at once.
    const got = followRange({ startIndex: 40, endIndex: 42, overscan: 2, count: 51 }, size, 300)
    expect(got).toContain(50)
    expect(got.slice(-4)).toEqual([47, 48, 49, 50])
    // The cards the virtualizer asked for stay, once each, in order.
    for (const i of [38, 39, 40, 41, 42, 43, 44]) expect(got).toContain(i)
    expect(got).toEqual([...new Set(got)].sort((a, b) => a - b))
  })

  it('adds nothing when the virtualizer already is at the end', () => {
    expect(followRange({ startIndex: 47, endIndex: 49, overscan: 2, count: 50 }, size, 300)).toEqual([45, 46, 47, 48, 49])
  })

  it('lets the cards above go a step at a time as a live run adds cards', () => {
    // A card at each step, the virtualizer a card behind: the cards drawn
    // change at the start only once every 8 new cards.
    const drawn: number[][] = []
    for (let count = 20; count <= 60; count++) drawn.push(followRange({ startIndex: count - 4, endIndex: count - 2, overscan: 2, count }, size, 300, 8))
    let dropped = 0
    for (let i = 1; i < drawn.length; i++) {
      const gone = drawn[i - 1].filter((n) => !drawn[i].includes(n))
      if (gone.length > 0) dropped++
      // The end is always drawn, and what the virtualizer asked for.
      const count = 20 + i
      expect(drawn[i].at(-1)).toBe(count - 1)
      for (let n = count - 6; n < count; n++) expect(drawn[i]).toContain(n)
      expect(drawn[i]).toEqual([...new Set(drawn[i])].sort((a, b) => a - b))
    }
    expect(dropped).toBe(5)
    // With a step of one, the first card goes at each new one.
    const one = [30, 31].map((count) => followRange({ startIndex: count - 4, endIndex: count - 2, overscan: 2, count }, size, 300))
    expect(one[0][0]).toBe(24)
    expect(one[1][0]).toBe(25)
  })

  it('on a page not being drawn, draws the end alone', () => {
    // The virtualizer last heard of cards 30 to 32, a second of cards ago.
    const range = { startIndex: 30, endIndex: 32, overscan: 2, count: 54 }
    // The three cards that fill the viewport at the end, from the step they start in.
    expect(followRange(range, size, 300, 8, false)).toEqual([48, 49, 50, 51, 52, 53])
    expect(followRange(range, size, 300, 1, false)).toEqual([51, 52, 53])
    // Drawn, the overscan and what the virtualizer asked for are there too.
    const drawn = followRange(range, size, 300, 1, true)
    expect(drawn).toContain(30)
    expect(drawn.slice(-5)).toEqual([49, 50, 51, 52, 53])
  })

  it('covers a short list whole and an empty one not at all', () => {
    expect(followRange({ startIndex: 0, endIndex: 1, overscan: 4, count: 2 }, size, 900)).toEqual([0, 1])
    expect(followRange({ startIndex: 0, endIndex: -1, overscan: 4, count: 0 }, size, 900)).toEqual([])
  })
})

describe('cardSize', () => {
  // An element whose height, read, would lay the page out: the test counts the reads.
  const element = () => {
    const el = { reads: 0 }
    Object.defineProperty(el, 'offsetHeight', { get: () => (el.reads++, 120) })
    return el as unknown as HTMLElement & { reads: number }
  }
  const entry = (blockSize: number) => ({ borderBoxSize: [{ blockSize, inlineSize: 600 }] }) as unknown as ResizeObserverEntry

  it('lays nothing out for a new card while the list follows a live run', () => {
    const el = element()
    expect(cardSize(el, undefined, { estimated: 90 }, true)).toBe(90)
    expect(el.reads).toBe(0)
    // The observer then tells its height, from the frame's own layout.
    expect(cardSize(el, entry(132.4), { estimated: 90 }, true)).toBe(132)
    expect(el.reads).toBe(0)
  })

  it('keeps a measured card at its size, and measures a new one at once when not following', () => {
    const el = element()
    expect(cardSize(el, undefined, { measured: 140, estimated: 90 }, false)).toBe(140)
    expect(el.reads).toBe(0)
    // Scrolling a long run: the card is placed at its true height before it is drawn.
    expect(cardSize(el, undefined, { estimated: 90 }, false)).toBe(120)
    expect(el.reads).toBe(1)
  })
})

describe('atEnd', () => {
  it('is the end within 48 px, from the sizes the virtualizer holds', () => {
    expect(atEnd(5000, 4400, 600)).toBe(true)
    expect(atEnd(5000, 4353, 600)).toBe(true)
    expect(atEnd(5000, 4352, 600)).toBe(false)
    // A list shorter than its viewport shows its end.
    expect(atEnd(300, 0, 600)).toBe(true)
  })
})

describe('offsetObserver', () => {
  it('tells the offset the follow scrolled to without reading the element, once; any other scroll is read', () => {
    vi.useFakeTimers()
    try {
      const el = Object.assign(new EventTarget(), { reads: 0, top: 0 })
      Object.defineProperty(el, 'scrollTop', { get: () => (el.reads++, el.top) })
      const instance = { scrollElement: el, options: { isScrollingResetDelay: 150 } } as unknown as Virtualizer<HTMLDivElement, Element>
      const known: Known = { offset: null }
      const told: [number, boolean][] = []
      const stop = offsetObserver(known)(instance, (offset, scrolling) => told.push([offset, scrolling]))

      // The follow scrolled to 900 and said so: the scroll event costs no read, and the jump is over.
      known.offset = 900
      el.top = 900
      el.dispatchEvent(new Event('scroll'))
      expect(told).toEqual([[900, false]])
      expect(el.reads).toBe(0)
      expect(known.offset).toBeNull()
      expect(known.own).toBe(true)

      // A person's scroll is read from the element.
      el.top = 400
      el.dispatchEvent(new Event('scroll'))
      expect(told.at(-1)).toEqual([400, true])
      expect(el.reads).toBe(1)
      expect(known.own).toBe(false)

      // Still for a while: the virtualizer hears the scrolling stopped, where it stopped.
      vi.advanceTimersByTime(150)
      expect(told.at(-1)).toEqual([400, false])
      stop?.()
      el.dispatchEvent(new Event('scroll'))
      expect(told).toHaveLength(3)
    } finally {
      vi.useRealTimers()
    }
  })
})
