import { useEffect } from 'react'
import { replayIteration } from '../lib/replay'
import { Icon } from './Icon'
import { useAppStore, useRunState, useT } from './appContext'

const speeds = [2, 10, 50, 250]

/** ReplayBar scrubs through a past run: event by event, iteration by iteration, or playing. */
export function ReplayBar() {
  const { run } = useAppStore()
  const t = useT()
  const replay = useRunState((s) => s.replay)
  const total = useRunState((s) => s.events.length)
  const events = useRunState((s) => s.events)
  const n = replay ? replayIteration(replay.view, events, replay.shown) : null
  // The replay's card is selected as it moves, so the timeline scrolls to
  // it and the inspector shows it.
  useEffect(() => {
    if (n !== null) run.select(n)
  }, [run, n])
  if (!replay) return null
  const at = replay.shown > 0 ? events[replay.shown - 1] : undefined
  return (
    <div className="replay-bar" data-testid="replay-bar">
      <span className="replay-label">⟲ {t('replay.label')}</span>
      <button type="button" className="icon" onClick={() => run.stepIteration(-1)} title={t('replay.prev_iteration')} data-testid="replay-prev-iteration">
        <Icon name="skip-back" />
      </button>
      <button type="button" className="icon" onClick={() => run.stepEvent(-1)} title={t('replay.prev_event')} data-testid="replay-prev">
        <Icon name="step-back" />
      </button>
      {replay.playing ? (
        <button type="button" className="icon" onClick={() => run.pauseReplay()} title={t('replay.pause')} data-testid="replay-pause">
          <Icon name="pause" />
        </button>
      ) : (
        <button type="button" className="icon" onClick={() => run.play()} title={t('replay.play')} data-testid="replay-play">
          <Icon name="play" />
        </button>
      )}
      <button type="button" className="icon" onClick={() => run.stepEvent(1)} title={t('replay.next_event')} data-testid="replay-next">
        <Icon name="step-forward" />
      </button>
      <button type="button" className="icon" onClick={() => run.stepIteration(1)} title={t('replay.next_iteration')} data-testid="replay-next-iteration">
        <Icon name="skip-forward" />
      </button>
      <input
        type="range"
        className="scrubber"
        min={0}
        max={total}
        value={replay.shown}
        onChange={(e) => run.seek(Number(e.target.value))}
        aria-label={t('replay.scrubber')}
        data-testid="replay-scrubber"
      />
      <span className="muted nowrap" data-testid="replay-position">
        {t('replay.position', { shown: replay.shown, total, type: at?.type ?? '–', n: at?.iteration ?? 0 })}
      </span>
      <select value={replay.speed} onChange={(e) => run.setSpeed(Number(e.target.value))} aria-label={t('replay.speed')}>
        {speeds.map((s) => (
          <option key={s} value={s}>
            {t('replay.per_second', { n: s })}
          </option>
        ))}
      </select>
      <button type="button" onClick={() => run.stopReplay()} data-testid="replay-exit">
        {t('replay.exit')}
      </button>
    </div>
  )
}
