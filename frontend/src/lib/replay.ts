import type { HermesEvent } from '../api/types'
import { applyEvents, emptyRun, type RunView } from './timeline'

// Replay draws a past run as it stood after its first `shown` events: the
// same fold as live, cut at a point, so it costs no tokens and no tool runs.

export interface Replay {
  /** How many of the run's events are shown, 0..events.length. */
  shown: number
  view: RunView
}

/**
 * replayTo moves a replay to shown events. Forward it folds only the events
 * in between (views are immutable, so the earlier one is still valid);
 * backward it folds again from the start.
 */
export function replayTo(events: readonly HermesEvent[], from: Replay | null, shown: number, runId = ''): Replay {
  const to = Math.max(0, Math.min(events.length, Math.round(shown)))
  if (from && to >= from.shown) return { shown: to, view: applyEvents(from.view, events.slice(from.shown, to)) }
  return { shown: to, view: applyEvents(emptyRun(runId), events.slice(0, to)) }
}

/** nextIterationStart is the number of events shown once the iteration after the one at shown has started. */
export function nextIterationStart(events: readonly HermesEvent[], shown: number): number {
  const current = shown > 0 ? events[shown - 1].iteration : -1
  for (let i = shown; i < events.length; i++) if (events[i].iteration > current && events[i].type === 'iteration.started') return i + 1
  return events.length
}

/** prevIterationStart is the number of events shown at the start of the iteration before the one at shown. */
export function prevIterationStart(events: readonly HermesEvent[], shown: number): number {
  let starts = 0
  for (let i = shown - 1; i >= 0; i--) {
    if (events[i].type === 'iteration.started' && ++starts === 2) return i + 1
  }
  return 0
}

/** replayIteration is the card a replay stands at: the iteration of its last event shown, if the view has that card. */
export function replayIteration(view: RunView, events: readonly HermesEvent[], shown: number): number | null {
  if (shown <= 0) return null
  const n = events[shown - 1].iteration
  return view.iterations.some((it) => it.n === n) ? n : null
}
