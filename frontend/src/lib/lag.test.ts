import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createStore } from '../store/store'
import { createDrawn } from './drawn'
import { createLag, lagDue, lagged, shownTimeout, type Shown, type Visibility } from './lag'

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

describe('createLag', () => {
  // A clock and timers driven by hand.
  const hand = () => {
    let now = 1000
    const timers: { at: number; fn: () => void; live: boolean }[] = []
    return {
      clock: () => now,
      timer: (fn: () => void, ms: number) => {
        const t = { at: now + ms, fn, live: true }
        timers.push(t)
        return () => void (t.live = false)
      },
      pending: () => timers.filter((t) => t.live).length,
      advance(ms: number) {
        now += ms
        for (const t of timers.filter((t) => t.live && t.at <= now)) {
          t.live = false
          t.fn()
        }
      },
    }
  }

  it('notifies at each change and shows it at once when not lagging', () => {
    const store = createStore({ n: 0 })
    const h = hand()
    const lag = createLag(store, 500, h.clock, h.timer)
    let woke = 0
    const off = lag.subscribe(() => woke++, false)
    store.set({ n: 1 })
    store.set({ n: 2 })
    expect(woke).toBe(2)
    expect(lag.snapshot(false).n).toBe(2)
    off()
    store.set({ n: 3 })
    expect(woke).toBe(2)
  })

  it('while lagging, wakes once per period for the changes in it, and shows the newest state', () => {
    const store = createStore({ n: 0 })
    const h = hand()
    const lag = createLag(store, 500, h.clock, h.timer)
    expect(lag.snapshot(true).n).toBe(0)
    let woke = 0
    const off = lag.subscribe(() => {
      woke++
      lag.snapshot(true)
    }, true)
    // The first change after a quiet while shows on the next task.
    store.set({ n: 1 })
    expect(woke).toBe(0)
    h.advance(0)
    expect(woke).toBe(1)
    expect(lag.snapshot(true).n).toBe(1)
    // A change every 40 ms: one timer, one wake when the period is over.
    for (let i = 2; i <= 10; i++) {
      h.advance(40)
      store.set({ n: i })
      expect(lag.snapshot(true).n).toBe(1)
    }
    expect(h.pending()).toBe(1)
    expect(woke).toBe(1)
    h.advance(500)
    expect(woke).toBe(2)
    expect(lag.snapshot(true).n).toBe(10)
    // Unsubscribed, no timer is left to fire.
    store.set({ n: 11 })
    off()
    expect(h.pending()).toBe(0)
  })

  it('a timer that fires early waits again instead of losing the change', () => {
    const store = createStore({ n: 0 })
    const h = hand()
    // Timers that fire 5 ms before their time, as a browser's may by the clock.
    const lag = createLag(store, 500, h.clock, (fn, ms) => h.timer(fn, Math.max(0, ms - 5)))
    let woke = 0
    lag.subscribe(() => woke++, true)
    lag.snapshot(true)
    store.set({ n: 1 })
    h.advance(0)
    expect(lag.snapshot(true).n).toBe(1)
    store.set({ n: 2 })
    h.advance(495)
    expect(woke).toBe(1)
    expect(h.pending()).toBe(1)
    h.advance(5)
    expect(woke).toBe(2)
    expect(lag.snapshot(true).n).toBe(2)
  })
})

describe('shownTimeout', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1000 }))
  afterEach(() => vi.useRealTimers())

  // A page whose visibility the test sets, as a browser does when a tab is left or come back to.
  const page = (state: DocumentVisibilityState) => {
    const listeners = new Set<() => void>()
    return {
      visibilityState: state,
      addEventListener: (_: string, fn: () => void) => void listeners.add(fn),
      removeEventListener: (_: string, fn: () => void) => void listeners.delete(fn),
      listening: () => listeners.size,
      set(s: DocumentVisibilityState) {
        this.visibilityState = s
        for (const fn of [...listeners]) fn()
      },
    }
  }

  it('calls fn on time while the page is shown', () => {
    let calls = 0
    shownTimeout(page('visible') as unknown as Visibility)(() => calls++, 500)
    vi.advanceTimersByTime(499)
    expect(calls).toBe(0)
    vi.advanceTimersByTime(1)
    expect(calls).toBe(1)
  })

  it('waits while the page is hidden, and calls fn once when it is shown', () => {
    const p = page('hidden')
    let calls = 0
    shownTimeout(p as unknown as Visibility)(() => calls++, 500)
    vi.advanceTimersByTime(10_000)
    expect(calls).toBe(0)
    p.set('hidden')
    expect(calls).toBe(0)
    p.set('visible')
    expect(calls).toBe(1)
    expect(p.listening()).toBe(0)
    p.set('hidden')
    p.set('visible')
    expect(calls).toBe(1)
  })

  it('waits while the page is not drawn, and calls fn once when it is shown and drawn', () => {
    const p = page('hidden')
    const drawn = createDrawn()
    drawn.set(false)
    let calls = 0
    const off = shownTimeout(p as unknown as Visibility, drawn)(() => calls++, 500)
    vi.advanceTimersByTime(10_000)
    p.set('visible')
    expect(calls).toBe(0)
    drawn.set(true)
    expect(calls).toBe(1)
    expect(p.listening()).toBe(0)
    drawn.set(false)
    drawn.set(true)
    expect(calls).toBe(1)
    off()
  })

  it('is called off before its time and while it waits to be shown', () => {
    const p = page('hidden')
    let calls = 0
    const timer = shownTimeout(p as unknown as Visibility)
    timer(() => calls++, 500)()
    vi.advanceTimersByTime(500)
    expect(p.listening()).toBe(0)
    const off = timer(() => calls++, 500)
    vi.advanceTimersByTime(500)
    expect(p.listening()).toBe(1)
    off()
    expect(p.listening()).toBe(0)
    p.set('visible')
    expect(calls).toBe(0)
  })

  it('lets a lagging view of a hidden page wake once, when it is shown', () => {
    const p = page('hidden')
    const store = createStore({ n: 0 })
    const lag = createLag(store, 500, Date.now, shownTimeout(p as unknown as Visibility))
    let woke = 0
    lag.subscribe(() => woke++, true)
    lag.snapshot(true)
    store.set({ n: 1 })
    store.set({ n: 2 })
    vi.advanceTimersByTime(5000)
    expect(woke).toBe(0)
    p.set('visible')
    expect(woke).toBe(1)
    expect(lag.snapshot(true).n).toBe(2)
  })
})
