import { toApiError, type Api, type ApiError } from '../api/api'
import type { ApprovalDecision, ContextPreview, ForkRequest, HermesEvent, VaultEdit, VaultNote } from '../api/types'
import { createDrawn, type Drawn } from '../lib/drawn'
import { orderEvents } from '../lib/events'
import { nextIterationStart, prevIterationStart, replayTo, type Replay } from '../lib/replay'
import { applyEvents, emptyRun, foldRun, type RunView } from '../lib/timeline'
import type { LoadStatus } from './runs'
import { createStore, type Store } from './store'

export interface ReplayState extends Replay {
  playing: boolean
  /** Events per second while playing. */
  speed: number
}

export interface RunState {
  runId: string
  status: LoadStatus
  /** Every event received, in seq order, each seq once. */
  events: HermesEvent[]
  view: RunView
  error: ApiError | null
  /** A live stream is attached. */
  watching: boolean
  /** Pause or stop was asked and the run has not yet got there. */
  pausing: boolean
  stopping: boolean
  /** The iteration shown in the inspector, or null. */
  selected: number | null
  replay: ReplayState | null
  /** The last control that failed. */
  actionError: ApiError | null
  preview: PreviewState
  /** Messages a pin was asked for, which the run has not yet pinned. */
  pinsAsked: number[]
}

/** PreviewState is what the next compression will fold, as last asked. */
export interface PreviewState {
  status: LoadStatus
  value: ContextPreview | null
  error: ApiError | null
}

/** Ticker calls fn every ms milliseconds until stopped; tests pass one they drive by hand. */
export type Ticker = (fn: () => void, ms: number) => () => void

export const intervalTicker: Ticker = (fn, ms) => {
  const id = setInterval(fn, ms)
  return () => clearInterval(id)
}

/**
 * Frame runs fn once the events that came in the meantime can be folded
 * together: the store's own tests fold each batch at once (sameTick); the
 * page folds at most about once per frame (createFrame), so a live run whose
 * events come every few milliseconds is laid out once a frame, not once an
 * event.
 */
export type Frame = (fn: () => void) => void

export const sameTick: Frame = (fn) => fn()

/**
 * createFrame folds a batch that comes after a frame's time (16 ms) of
 * quiet at once: nothing else is waiting to join it, and a live run's
 * events come in bursts (a step's end and the next one's start, then the
 * model's answer), each of which is one change to lay out anyway. Waiting
 * for the next animation frame held each burst's first card back by half
 * a frame on average, and by more on a busy page. A batch that comes
 * sooner after a fold is folded at the next animation frame, or after a
 * frame's time when none comes by then: a busy page (several run pages
 * drawing on two cores) gets its frames late, and an event should not wait
 * for a frame longer than the frame would have taken.
 *
 * A page that got no frame in that time is not being drawn, and it tells
 * drawn, which the timeline and the lagged shell read too. One whose frames
 * come late but come (a busy page) folds at the next task until a frame
 * comes in time again. One that has had no frame for rareFrameMs is hidden
 * or behind another page (Chromium draws such a page about once a second):
 * it folds at its next frame, when what it folds is seen, or after a second
 * when none comes. Folding there at each event drew nothing sooner, and took
 * the cores from the page in front while it drew the same events.
 */
export function createFrame(drawn: Drawn = createDrawn(), now: () => number = () => performance.now()): Frame {
  const frameMs = 16
  const rareFrameMs = 100
  const unseenFoldMs = 1000
  let lastFold = -Infinity
  let lastFrame = -Infinity
  const fold = (fn: () => void) => {
    lastFold = now()
    fn()
  }
  // atFrame folds at the next frame or after ms, whichever comes first, and
  // calls the other off: a timer left to fire for nothing is a task more at
  // every fold. late runs when the timer wins.
  const atFrame = (fn: () => void, ms: number, late?: () => void) => {
    // Neither callback runs before both are set: each calls the other off.
    const timer = setTimeout(() => {
      cancelAnimationFrame(frame)
      late?.()
      fold(fn)
    }, ms)
    const frame = requestAnimationFrame(() => {
      lastFrame = now()
      clearTimeout(timer)
      fold(fn)
    })
  }
  // One frame is asked for at a time, to learn whether the page is drawn:
  // one that has not come within a frame's time says it is not, and so
  // does one that comes late (a page behind another). A late one asks
  // again: a page shown again while its run is paused has no fold to ask
  // for it.
  let probedAt: number | null = null
  const probe = (): void => {
    if (probedAt !== null) {
      if (now() - probedAt > frameMs) drawn.set(false)
      return
    }
    const asked = now()
    probedAt = asked
    requestAnimationFrame(() => {
      lastFrame = now()
      probedAt = null
      const inTime = lastFrame - asked <= frameMs
      drawn.set(inTime)
      if (!inTime) probe()
    })
  }
  return (fn) => {
    if (!drawn.now()) {
      probe()
      if (now() - lastFrame > rareFrameMs) atFrame(fn, unseenFoldMs)
      else setTimeout(() => fold(fn), 0)
      return
    }
    if (now() - lastFold >= frameMs) {
      probe()
      fold(fn)
      return
    }
    atFrame(fn, frameMs, () => {
      drawn.set(false)
      // A frame asked for now says when the page is drawn again, fold or none.
      probe()
    })
  }
}

export interface RunStore extends Store<RunState> {
  open(runId: string): Promise<void>
  close(): void
  /** shown is the view on screen: the replay's when replaying, else the live one. */
  shown(): RunView
  select(n: number | null): void
  /** selectStep moves the selection by delta iterations. */
  selectStep(delta: number): void
  pause(): Promise<boolean>
  resume(): Promise<boolean>
  stop(): Promise<boolean>
  inject(text: string): Promise<boolean>
  edit(task: string, instructions: string): Promise<boolean>
  editCall(callId: string, args: string): Promise<boolean>
  /** pinFact pins a fact into the run's anchor, where it is never folded. */
  pinFact(text: string): Promise<boolean>
  /** pinMessage pins message index of the run's conversation. */
  pinMessage(index: number): Promise<boolean>
  /** loadPreview asks which messages the next compression will fold. */
  loadPreview(): Promise<void>
  /** vaultEdit reads what a vault edit of the run's call changed, and when it was undone. */
  vaultEdit(callId: string): Promise<VaultEdit>
  /** undoVaultEdit puts the edit back; it rejects with the backend's reason when a note changed since. */
  undoVaultEdit(callId: string): Promise<VaultEdit>
  /** vaultNote reads a note of the run's vault by name, as a wikilink in the note at from finds it. */
  vaultNote(name: string, from: string): Promise<VaultNote>
  /**
   * answer decides the approval the person was shown (approvalId), or the
   * run's pending one: the page may draw a newer approval before its store's
   * view has folded it, so the dialog names its own.
   */
  answer(decision: ApprovalDecision, reason?: string, pattern?: string, approvalId?: string): Promise<boolean>
  /** answerQuestion answers the question a run asked (text "": no one can answer, and the model is told not to guess). */
  answerQuestion(questionId: string, text: string): Promise<boolean>
  /** resumeRun continues a stopped or failed run from its checkpoint. */
  resumeRun(): Promise<boolean>
  /** fork starts a new run as req asks; it resolves with the new run's id, or "" on failure (actionError says why). */
  fork(req: ForkRequest): Promise<string>
  startReplay(): void
  stopReplay(): void
  seek(shown: number): void
  stepEvent(delta: number): void
  stepIteration(delta: number): void
  play(): void
  pauseReplay(): void
  setSpeed(speed: number): void
}

const closed: RunState = {
  runId: '',
  status: 'idle',
  events: [],
  view: emptyRun(),
  error: null,
  watching: false,
  pausing: false,
  stopping: false,
  selected: null,
  replay: null,
  actionError: null,
  preview: { status: 'idle', value: null, error: null },
  pinsAsked: [],
}

/** createRunStore holds the open run: its events, its view, its live stream, its controls and its replay. */
export function createRunStore(api: Api, ticker: Ticker = intervalTicker, frame: Frame = sameTick): RunStore {
  const store = createStore<RunState>(closed)
  let ticket = 0
  let unwatch: (() => void) | null = null
  let stopTicker: (() => void) | null = null

  const detach = () => {
    unwatch?.()
    unwatch = null
    stopTicker?.()
    stopTicker = null
  }

  // receive merges a batch: events after the last seq are folded on; any
  // other order (a Wails batch before the fetch) merges and folds again.
  let queued: HermesEvent[] = []
  let queuedFor = 0
  const receive = (mine: number, batch: HermesEvent[]) => {
    if (mine !== ticket || batch.length === 0) return
    if (queued.length > 0 && queuedFor === mine) {
      queued = queued.concat(batch)
      return
    }
    queued = batch
    queuedFor = mine
    frame(() => {
      const all = queued
      queued = []
      fold(queuedFor, all)
    })
  }
  const fold = (mine: number, batch: HermesEvent[]) => {
    if (mine !== ticket || batch.length === 0) return
    const s = store.get()
    const last = s.view.lastSeq
    const inOrder = batch.every((e, i) => e.seq > (i === 0 ? last : batch[i - 1].seq))
    let events: HermesEvent[]
    let view: RunView
    if (inOrder) {
      events = s.events.concat(batch)
      view = applyEvents(s.view, batch)
    } else {
      events = orderEvents(s.events.concat(batch))
      if (events.length === s.events.length) return
      view = foldRun(events, s.runId)
    }
    const pausing = s.pausing && !view.paused && view.status === 'running'
    const stopping = s.stopping && view.status === 'running'
    store.set({ events, view, pausing, stopping })
  }

  const watch = (mine: number, runId: string, after: number) => {
    unwatch?.()
    store.set({ watching: true })
    unwatch = api.watchRun(runId, after, {
      onEvents: (batch) => receive(mine, batch),
      onEnd: () => {
        if (mine === ticket) store.set({ watching: false })
      },
    })
  }

  async function open(runId: string): Promise<void> {
    detach()
    const mine = ++ticket
    store.set({ ...closed, runId, status: 'loading', view: emptyRun(runId) })
    try {
      const events = orderEvents(await api.runEvents(runId))
      if (mine !== ticket) return
      const view = foldRun(events, runId)
      store.set({ status: 'ready', events, view })
      // A run that has not finished may be live; the stream says "end" at once if not.
      if (view.status === 'running') watch(mine, runId, view.lastSeq)
    } catch (err) {
      if (mine !== ticket) return
      store.set({ status: 'error', error: toApiError(err) })
    }
  }

  async function act(fn: () => Promise<void>, before: Partial<RunState> = {}, undo: Partial<RunState> = {}): Promise<boolean> {
    store.set({ ...before, actionError: null })
    try {
      await fn()
      return true
    } catch (err) {
      store.set({ ...undo, actionError: toApiError(err) })
      return false
    }
  }
  const id = () => store.get().runId
  const control = (req: Parameters<Api['control']>[1], before?: Partial<RunState>, undo?: Partial<RunState>) =>
    act(() => api.control(id(), req), before, undo)

  const setReplay = (shown: number) => {
    const s = store.get()
    if (!s.replay) return
    const r = replayTo(s.events, s.replay, shown, s.runId)
    const playing = s.replay.playing && r.shown < s.events.length
    if (!playing) {
      stopTicker?.()
      stopTicker = null
    }
    store.set({ replay: { ...s.replay, ...r, playing } })
  }
  const startTicker = () => {
    stopTicker?.()
    const speed = store.get().replay?.speed ?? 10
    stopTicker = ticker(() => setReplay((store.get().replay?.shown ?? 0) + 1), Math.max(1, Math.round(1000 / speed)))
  }

  return {
    ...store,
    open,
    close() {
      detach()
      ticket++
      store.set(closed)
    },
    shown: () => store.get().replay?.view ?? store.get().view,
    select(n) {
      store.set({ selected: n })
    },
    selectStep(delta) {
      const s = store.get()
      const ns = (s.replay?.view ?? s.view).iterations.map((it) => it.n)
      if (ns.length === 0) return
      const at = s.selected === null ? -1 : ns.indexOf(s.selected)
      const i = at < 0 ? (delta > 0 ? 0 : ns.length - 1) : Math.max(0, Math.min(ns.length - 1, at + delta))
      store.set({ selected: ns[i] })
    },
    pause: () => control({ kind: 'pause' }, { pausing: true }, { pausing: false }),
    resume: () => control({ kind: 'resume' }),
    stop: () => control({ kind: 'stop' }, { stopping: true }, { stopping: false }),
    inject: (text) => control({ kind: 'inject', text }),
    answerQuestion: (questionId, text) => control({ kind: 'answer', question_id: questionId, text }),
    edit: (task, instructions) => control({ kind: 'edit', task, instructions }),
    editCall: (callId, args) => control({ kind: 'edit_call', call_id: callId, arguments: args }),
    pinFact: (text) => control({ kind: 'pin', text }),
    async pinMessage(index) {
      const ok = await control({ kind: 'pin', message: index })
      if (ok) store.set((s) => ({ pinsAsked: [...s.pinsAsked, index] }))
      return ok
    },
    async loadPreview() {
      const mine = ticket
      const runId = id()
      store.set((s) => ({ preview: { ...s.preview, status: 'loading' } }))
      try {
        const value = await api.contextPreview(runId)
        if (mine === ticket) store.set({ preview: { status: 'ready', value, error: null } })
      } catch (err) {
        if (mine === ticket) store.set({ preview: { status: 'error', value: null, error: toApiError(err) } })
      }
    },
    vaultEdit: (callId) => api.vaultEdit(id(), callId),
    undoVaultEdit: (callId) => api.undoVaultEdit(id(), callId),
    vaultNote: (name, from) => api.vaultNote(id(), name, from),
    answer(decision, reason, pattern, approvalId) {
      const asked = approvalId || store.get().view.pendingApproval?.approval_id
      if (!asked) return Promise.resolve(false)
      const answer = { decision, ...(reason ? { reason } : {}), ...(pattern ? { pattern } : {}) }
      return act(() => api.approve(id(), asked, answer))
    },
    async resumeRun() {
      const runId = id()
      const ok = await act(() => api.resumeRun(runId).then(() => undefined))
      // The resumed leg continues the same log from its checkpoint: read it again.
      if (ok && runId === id()) await open(runId)
      return ok
    },
    async fork(req) {
      let forked = ''
      await act(async () => {
        forked = await api.forkRun(id(), req)
      })
      return forked
    },
    startReplay() {
      const s = store.get()
      store.set({ replay: { ...replayTo(s.events, null, 0, s.runId), playing: false, speed: 10 }, selected: null })
    },
    stopReplay() {
      stopTicker?.()
      stopTicker = null
      store.set({ replay: null })
    },
    seek: setReplay,
    stepEvent(delta) {
      setReplay((store.get().replay?.shown ?? 0) + delta)
    },
    stepIteration(delta) {
      const s = store.get()
      if (!s.replay) return
      setReplay(delta > 0 ? nextIterationStart(s.events, s.replay.shown) : prevIterationStart(s.events, s.replay.shown))
    },
    play() {
      const s = store.get()
      if (!s.replay) return
      const shown = s.replay.shown >= s.events.length ? 0 : s.replay.shown
      store.set({ replay: { ...s.replay, ...replayTo(s.events, s.replay, shown, s.runId), playing: true } })
      startTicker()
    },
    pauseReplay() {
      const s = store.get()
      stopTicker?.()
      stopTicker = null
      if (s.replay) store.set({ replay: { ...s.replay, playing: false } })
    },
    setSpeed(speed) {
      const s = store.get()
      if (!s.replay) return
      store.set({ replay: { ...s.replay, speed } })
      if (s.replay.playing) startTicker()
    },
  }
}
