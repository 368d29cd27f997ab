import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../api/api'
import { planEvents, sampleEvents, steeredEvents } from '../lib/fixture'
import { openQuestion } from '../lib/plan'
import { foldRun } from '../lib/timeline'
import { createDrawn } from '../lib/drawn'
import { createFrame, createRunStore, type Ticker } from './run'
import { testApi } from './testapi'

// A ticker the test advances by hand.
function manualTicker() {
  let fn: (() => void) | null = null
  let ms = 0
  const ticker: Ticker = (f, every) => {
    fn = f
    ms = every
    return () => void (fn = null)
  }
  return { ticker, tick: () => fn?.(), running: () => fn !== null, every: () => ms }
}

const liveHead = steeredEvents.slice(0, 3)

describe('createRunStore', () => {
  it('opens a finished run without watching it', async () => {
    const t = testApi({ events: { r1: [...sampleEvents].reverse() } })
    const store = createRunStore(t.api)
    await store.open('r1')
    expect(store.get()).toMatchObject({ runId: 'r1', status: 'ready', watching: false })
    expect(store.get().view).toEqual(foldRun(sampleEvents, 'r1'))
    expect(t.watchers).toHaveLength(0)
  })

  it('follows a live run from the last seq it read, and folds what comes', async () => {
    const t = testApi({ events: { r2: liveHead } })
    const store = createRunStore(t.api)
    await store.open('r2')
    expect(t.calls).toContain('watchRun("r2", 3)')
    t.push(steeredEvents.slice(3, 6))
    t.push(steeredEvents.slice(2, 8)) // an overlap, as a late joiner may get
    expect(store.get().events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    expect(store.get().view).toEqual(foldRun(steeredEvents.slice(0, 8), 'r2'))
    t.watchers[0].handlers.onEnd?.()
    expect(store.get().watching).toBe(false)
  })

  it('folds the batches that come within one frame together, and none of a run closed before the frame', async () => {
    const t = testApi({ events: { r2: liveHead } })
    const frames: (() => void)[] = []
    const store = createRunStore(t.api, undefined, (fn) => frames.push(fn))
    await store.open('r2')
    let updates = 0
    store.subscribe(() => updates++)
    t.push(steeredEvents.slice(3, 5))
    t.push(steeredEvents.slice(5, 8))
    expect([frames.length, updates, store.get().view.lastSeq]).toEqual([1, 0, 3])
    frames.shift()!()
    expect(updates).toBe(1)
    expect(store.get().view).toEqual(foldRun(steeredEvents.slice(0, 8), 'r2'))

    t.push(steeredEvents.slice(8, 9))
    store.close()
    frames.shift()!()
    expect(store.get().view.lastSeq).toBe(0)
  })

  it('merges a batch that comes before the events it follows, as the window’s events may', async () => {
    const t = testApi({ events: { r2: liveHead } })
    const store = createRunStore(t.api)
    await store.open('r2')
    t.push(steeredEvents.slice(6, 9))
    t.push(steeredEvents.slice(3, 6))
    expect(store.get().view).toEqual(foldRun(steeredEvents.slice(0, 9), 'r2'))
  })

  it('shows "pausing" at once and "paused" when the run gets there', async () => {
    const t = testApi({ events: { r2: liveHead } })
    const store = createRunStore(t.api)
    await store.open('r2')
    const asked = store.pause()
    expect(store.get().pausing).toBe(true)
    await asked
    expect(t.calls).toContain('control("r2", {"kind":"pause"})')
    t.push(steeredEvents.slice(3, 4))
    expect(store.get().pausing).toBe(true)
    t.push(steeredEvents.slice(4, 5))
    expect(store.get()).toMatchObject({ pausing: false, view: { paused: { at: 'decided' } } })
  })

  it('sends edits, call edits, injections and stops as controls', async () => {
    const t = testApi({ events: { r2: liveHead } })
    const store = createRunStore(t.api)
    await store.open('r2')
    await store.edit('New task', 'New rules')
    await store.editCall('w1', '{"path":"x"}')
    await store.inject('Use headings')
    await store.stop()
    expect(store.get().stopping).toBe(true)
    expect(t.calls.filter((c) => c.startsWith('control'))).toEqual([
      'control("r2", {"kind":"edit","task":"New task","instructions":"New rules"})',
      'control("r2", {"kind":"edit_call","call_id":"w1","arguments":"{\\"path\\":\\"x\\"}"})',
      'control("r2", {"kind":"inject","text":"Use headings"})',
      'control("r2", {"kind":"stop"})',
    ])
    t.push(steeredEvents.slice(3, 24))
    expect(store.get().stopping).toBe(false)
  })

  it('takes back "pausing" and keeps the error when the control is refused', async () => {
    const t = testApi({ events: { r1: sampleEvents } })
    const store = createRunStore(t.api)
    await store.open('r1')
    t.fail('control', new ApiError('run r1 is not live', { status: 409, code: 'run_not_live' }))
    expect(await store.pause()).toBe(false)
    expect(store.get()).toMatchObject({ pausing: false, actionError: { code: 'run_not_live' } })
  })

  it('answers a question through the answer control, and the answer closes it', async () => {
    const asked = planEvents.findIndex((e) => e.type === 'question.asked')
    const t = testApi({ events: { r3: planEvents.slice(0, asked + 1) } })
    const store = createRunStore(t.api)
    await store.open('r3')
    expect(openQuestion(store.get().view.plan)?.id).toBe('question_c2')
    expect(await store.answerQuestion('question_c2', 'ORD-7731')).toBe(true)
    expect(t.calls).toContain('control("r3", {"kind":"answer","question_id":"question_c2","text":"ORD-7731"})')
    t.push(planEvents.slice(asked + 1, asked + 2))
    expect(openQuestion(store.get().view.plan)).toBeNull()
  })

  it('answers the pending approval by its id', async () => {
    const t = testApi({ events: { r2: steeredEvents.slice(0, 8) } })
    const store = createRunStore(t.api)
    await store.open('r2')
    expect(await store.answer('deny', 'not now')).toBe(true)
    expect(await store.answer('allow_always', '', 'notes/*')).toBe(true)
    expect(t.calls.filter((c) => c.startsWith('approve'))).toEqual([
      'approve("r2", "a1", {"decision":"deny","reason":"not now"})',
      'approve("r2", "a1", {"decision":"allow_always","pattern":"notes/*"})',
    ])
    t.push(steeredEvents.slice(8, 9))
    expect(await store.answer('allow_once')).toBe(false)
    // The dialog names the approval it showed, whatever the view has folded.
    expect(await store.answer('allow_once', '', '', 'a2')).toBe(true)
    expect(t.calls.filter((c) => c.startsWith('approve')).at(-1)).toBe('approve("r2", "a2", {"decision":"allow_once"})')
  })

  it('resumes a stopped run and reads its log again; forks from an iteration', async () => {
    const t = testApi({ events: { r2: steeredEvents.slice(0, 24) } })
    const store = createRunStore(t.api)
    await store.open('r2')
    expect(store.get().view.status).toBe('stopped')
    expect(await store.resumeRun()).toBe(true)
    expect(t.calls.filter((c) => c.startsWith('resumeRun') || c.startsWith('runEvents'))).toEqual(['runEvents("r2")', 'resumeRun("r2")', 'runEvents("r2")'])
    expect(await store.fork({ iteration: 1, task: 'Other task', instructions: 'Other rules', model: 'qwen3', base_url: 'http://127.0.0.1:8/v1' })).toBe('r2-fork')
    expect(t.calls).toContain('forkRun("r2", {"iteration":1,"task":"Other task","instructions":"Other rules","model":"qwen3","base_url":"http://127.0.0.1:8/v1"})')
  })

  it('keeps why a fork failed, in both languages, for the dialog to show', async () => {
    const t = testApi({ events: { r2: steeredEvents.slice(0, 24) } })
    const store = createRunStore(t.api)
    await store.open('r2')
    t.fail('forkRun', new ApiError('model_unreachable', { status: 502, code: 'model_unreachable', messages: { en: 'the endpoint did not answer', 'zh-CN': '接口没有响应' } }))
    expect(await store.fork({ iteration: 1 })).toBe('')
    expect(store.get().actionError?.code).toBe('model_unreachable')
    expect(store.get().actionError?.messageIn('zh-CN')).toBe('接口没有响应')
    expect(await store.fork({ iteration: 1 })).toBe('r2-fork')
    expect(store.get().actionError).toBeNull()
  })

  it('replays a run step by step and playing, without touching the live view', async () => {
    const clock = manualTicker()
    const t = testApi({ events: { r1: sampleEvents } })
    const store = createRunStore(t.api, clock.ticker)
    await store.open('r1')
    store.startReplay()
    expect(store.shown().iterations).toEqual([])
    store.stepIteration(1)
    expect(store.get().replay?.shown).toBe(2)
    store.stepIteration(1)
    expect(store.shown()).toEqual(foldRun(sampleEvents.slice(0, 11)))
    store.stepEvent(-1)
    expect(store.get().replay?.shown).toBe(10)
    store.setSpeed(20)
    store.play()
    expect(clock.every()).toBe(50)
    for (let i = 0; i < 10; i++) clock.tick()
    expect(store.get().replay).toMatchObject({ shown: sampleEvents.length, playing: false })
    expect(clock.running()).toBe(false)
    expect(store.shown()).toEqual(foldRun(sampleEvents))
    store.seek(4)
    expect(store.shown().iterations[1].streamed).toBe('Let me ')
    expect(store.get().view).toEqual(foldRun(sampleEvents, 'r1'))
    store.stopReplay()
    expect(store.shown()).toBe(store.get().view)
  })

  it('moves the selection between iterations and keeps it in range', async () => {
    const t = testApi({ events: { r1: sampleEvents } })
    const store = createRunStore(t.api)
    await store.open('r1')
    store.selectStep(1)
    expect(store.get().selected).toBe(0)
    store.selectStep(1)
    store.selectStep(1)
    store.selectStep(1)
    expect(store.get().selected).toBe(2)
    store.selectStep(-1)
    expect(store.get().selected).toBe(1)
  })

  it('drops a slower reply for a run no longer open, and stops watching on close', async () => {
    const t = testApi({ events: { r1: sampleEvents, r2: liveHead } })
    const store = createRunStore(t.api)
    t.hold('runEvents')
    const first = store.open('r2')
    const second = store.open('r1')
    await t.release('runEvents')
    await t.release('runEvents')
    await Promise.all([first, second])
    expect(store.get().runId).toBe('r1')
    expect(t.watchers).toHaveLength(0)
    t.hold('runEvents')
    const third = store.open('r2')
    await t.release('runEvents')
    await third
    store.close()
    expect(t.watchers[0].stopped).toBe(true)
    expect(store.get().runId).toBe('')
  })
})

describe('pins and the compression preview', () => {
  it('pins a fact and a message, and loads the preview of the open run', async () => {
    const preview = { tokens: 9000, threshold: 9600, window: 16000, due: false, folded: 0, turns: [{ index: 1, role: 'tool', text: 'x', tokens: 800 }], pinned: [], facts: [] }
    const t = testApi({ events: { r2: liveHead }, preview })
    const store = createRunStore(t.api)
    await store.open('r2')
    expect(await store.pinFact('the budget is 4,500')).toBe(true)
    expect(await store.pinMessage(3)).toBe(true)
    expect(t.calls).toContain('control("r2", {"kind":"pin","text":"the budget is 4,500"})')
    expect(t.calls).toContain('control("r2", {"kind":"pin","message":3})')
    expect(store.get().pinsAsked).toEqual([3])
    await store.loadPreview()
    expect(store.get().preview).toEqual({ status: 'ready', value: preview, error: null })
    t.fail('contextPreview', new ApiError('none', { code: 'no_checkpoint', status: 404 }))
    await store.loadPreview()
    expect(store.get().preview).toMatchObject({ status: 'error', error: { code: 'no_checkpoint' } })
  })
})

describe('createFrame', () => {
  // clock is the time createFrame reads, moved with the fake timers.
  const clock = () => Date.now()

  // framedPage is a page's frames and folding: the frames asked for and not
  // called off are kept, and drawFrame calls them as a frame of the page would.
  const framedPage = () => {
    const frames = new Map<number, () => void>()
    let id = 0
    vi.stubGlobal('requestAnimationFrame', (fn: () => void) => (frames.set(++id, fn), id))
    vi.stubGlobal('cancelAnimationFrame', (n: number) => frames.delete(n))
    const drawFrame = () => {
      const due = [...frames.values()]
      frames.clear()
      for (const fn of due) fn()
    }
    const drawn = createDrawn()
    return { frames, drawFrame, drawn, next: createFrame(drawn, clock) }
  }

  it('folds a batch after a frame’s time of quiet at once, and one sooner after a fold at the next frame', () => {
    vi.useFakeTimers()
    const frames: (() => void)[] = []
    vi.stubGlobal('requestAnimationFrame', (fn: () => void) => frames.push(fn))
    vi.stubGlobal('cancelAnimationFrame', () => {})
    try {
      const frame = createFrame(createDrawn(), clock)
      let calls = 0
      frame(() => calls++)
      expect(calls).toBe(1)
      // The frame asked for with it comes, within a frame's time: the page is drawn.
      frames.shift()!()
      vi.advanceTimersByTime(5)
      frame(() => calls++)
      expect(calls).toBe(1)
      frames.shift()!()
      expect(calls).toBe(2)
      // Quiet again for a frame's time: the next batch waits for nothing.
      vi.advanceTimersByTime(16)
      frame(() => calls++)
      expect(calls).toBe(3)
    } finally {
      vi.unstubAllGlobals()
      vi.useRealTimers()
    }
  })

  it('folds within a frame’s time when a busy page gets no animation frame', () => {
    vi.useFakeTimers()
    vi.stubGlobal('requestAnimationFrame', () => 7)
    const cancelled: number[] = []
    vi.stubGlobal('cancelAnimationFrame', (id: number) => cancelled.push(id))
    try {
      const frame = createFrame(createDrawn(), clock)
      let calls = 0
      frame(() => calls++)
      vi.advanceTimersByTime(1)
      frame(() => calls++)
      vi.advanceTimersByTime(15)
      expect(calls).toBe(1)
      vi.advanceTimersByTime(1)
      expect(calls).toBe(2)
      // The frame that was asked for is called off.
      expect(cancelled).toEqual([7])
      vi.advanceTimersByTime(100)
      expect(calls).toBe(2)
    } finally {
      vi.unstubAllGlobals()
      vi.useRealTimers()
    }
  })

  it('folds once when the frame comes first, and calls its timer off', () => {
    vi.useFakeTimers()
    let frame: () => void = () => {}
    vi.stubGlobal('requestAnimationFrame', (fn: () => void) => ((frame = fn), 1))
    try {
      const next = createFrame(createDrawn(), clock)
      let calls = 0
      next(() => calls++)
      frame()
      next(() => calls++)
      expect(vi.getTimerCount()).toBe(1)
      frame()
      expect(calls).toBe(2)
      // No timer is left to fire for nothing.
      expect(vi.getTimerCount()).toBe(0)
      vi.advanceTimersByTime(100)
      expect(calls).toBe(2)
    } finally {
      vi.unstubAllGlobals()
      vi.useRealTimers()
    }
  })

  it('learns the page is drawn again after a late frame with no fold to ask', () => {
    vi.useFakeTimers()
    const { drawFrame, drawn, next } = framedPage()
    try {
      next(() => {})
      drawFrame()
      // A fold soon after gets no frame in 16 ms, and then the run goes quiet (paused).
      next(() => {})
      vi.advanceTimersByTime(16)
      expect(drawn.now()).toBe(false)
      // The next frame, in time, says the page is drawn: the lagged shell waits on it.
      drawFrame()
      expect(drawn.now()).toBe(true)
    } finally {
      vi.unstubAllGlobals()
      vi.useRealTimers()
    }
  })

  it('folds at the next task while a busy page’s frames come late, and waits for frames again once one comes in time', () => {
    vi.useFakeTimers()
    const { frames, drawFrame, drawn, next } = framedPage()
    try {
      let calls = 0
      next(() => calls++)
      // No frame comes in 16 ms: the page is not drawn.
      drawFrame()
      next(() => calls++)
      vi.advanceTimersByTime(16)
      expect(calls).toBe(2)
      expect(drawn.now()).toBe(false)
      // The next folds wait for no frame, and ask for none more while one is asked for.
      next(() => calls++)
      next(() => calls++)
      expect(frames.size).toBe(1)
      vi.advanceTimersByTime(0)
      expect(calls).toBe(4)
      // The frame comes a second late (a page behind another): still not
      // drawn, and another is asked for at once, with no fold to ask for it.
      vi.advanceTimersByTime(1000)
      drawFrame()
      expect(drawn.now()).toBe(false)
      expect(frames.size).toBe(1)
      // It comes in time: the page is drawn again, and a fold soon after the last waits for a frame.
      drawFrame()
      expect(drawn.now()).toBe(true)
      next(() => calls++)
      expect(calls).toBe(5)
      next(() => calls++)
      vi.advanceTimersByTime(15)
      expect(calls).toBe(5)
      drawFrame()
      expect(calls).toBe(6)
    } finally {
      vi.unstubAllGlobals()
      vi.useRealTimers()
    }
  })

  it('folds a page with no frame for 100 ms (behind another, or hidden) at its next frame, or after a second', () => {
    vi.useFakeTimers()
    const { frames, drawFrame, drawn, next } = framedPage()
    try {
      let calls = 0
      next(() => calls++)
      expect(calls).toBe(1)
      // No frame comes: the page is not drawn, and has had no frame at all.
      next(() => calls++)
      vi.advanceTimersByTime(16)
      expect(calls).toBe(2)
      expect(drawn.now()).toBe(false)
      // What comes now is folded at the page's frame, whenever it comes.
      next(() => calls++)
      next(() => calls++)
      vi.advanceTimersByTime(500)
      expect(calls).toBe(2)
      drawFrame()
      expect(calls).toBe(4)
      // No timer is left to fold twice.
      vi.advanceTimersByTime(1000)
      expect(calls).toBe(4)
      // No frame comes for a second (a hidden tab): the fold does not wait longer.
      next(() => calls++)
      vi.advanceTimersByTime(999)
      expect(calls).toBe(4)
      vi.advanceTimersByTime(1)
      expect(calls).toBe(5)
      expect(drawn.now()).toBe(false)
      expect(frames.size).toBe(1)
    } finally {
      vi.unstubAllGlobals()
      vi.useRealTimers()
    }
  })
})
