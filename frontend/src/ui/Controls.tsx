import { memo, useState } from 'react'
import { Icon } from './Icon'
import { useAppStore, useRunState, useT } from './appContext'

export interface ControlsProps {
  /** What of the run the controls show, so a fold that changes none of it leaves them as they are. */
  paused: boolean
  awaitingApproval: boolean
  hasEvents: boolean
  live: boolean
  canResume: boolean
  canFork: boolean
  injectRef: React.RefObject<HTMLInputElement | null>
  onEdit: () => void
  onFork: () => void
  onApproval: () => void
  onHelp: () => void
}

/** Controls steer a live run (pause, resume, edit, inject, stop) or open a past one (replay, fork, resume); the run's state is the header's badge (RunStatusBadge). */
export const Controls = memo(function Controls({ paused, awaitingApproval, hasEvents, live, canResume, canFork, injectRef, onEdit, onFork, onApproval, onHelp }: ControlsProps) {
  const { run } = useAppStore()
  const t = useT()
  const pausing = useRunState((s) => s.pausing)
  const stopping = useRunState((s) => s.stopping)
  const replaying = useRunState((s) => s.replay !== null)
  const [text, setText] = useState('')
  const [fact, setFact] = useState<string | null>(null)

  const pinFact = async (e: React.FormEvent) => {
    e.preventDefault()
    if (fact?.trim() && (await run.pinFact(fact.trim()))) setFact(null)
  }

  const inject = async (e: React.FormEvent) => {
    e.preventDefault()
    if (text.trim() && (await run.inject(text.trim()))) setText('')
  }

  return (
    <div className="controls" data-testid="controls">
      {live && !paused && (
        <button type="button" onClick={() => void run.pause()} disabled={pausing || stopping} data-testid="pause" title="Space">
          <Icon name="pause" /> {t('control.pause')}
        </button>
      )}
      {live && paused && (
        <>
          <button type="button" className="primary" onClick={() => void run.resume()} data-testid="resume" title="Space">
            <Icon name="play" /> {t('control.resume')}
          </button>
          <button type="button" onClick={onEdit} data-testid="edit">
            ✎ {t('control.edit')}
          </button>
        </>
      )}
      {live && awaitingApproval && (
        <button type="button" className="warn" onClick={onApproval} data-testid="open-approval">
          {t('control.answer')}
        </button>
      )}
      {live && (
        <form className="inject" onSubmit={(e) => void inject(e)}>
          <input ref={injectRef} value={text} onChange={(e) => setText(e.target.value)} placeholder={t('control.inject_hint')} data-testid="inject-input" />
          <button type="submit" disabled={!text.trim()} data-testid="inject">
            {t('control.inject')}
          </button>
        </form>
      )}
      {live && fact === null && (
        <button type="button" onClick={() => setFact('')} title={t('pin.fact_hint')} data-testid="pin-fact">
          {t('pin.fact')}
        </button>
      )}
      {live && fact !== null && (
        <form className="inject" onSubmit={(e) => void pinFact(e)}>
          <input autoFocus value={fact} onChange={(e) => setFact(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && setFact(null)} placeholder={t('pin.fact_placeholder')} data-testid="pin-fact-input" />
          <button type="submit" disabled={!fact.trim()} data-testid="pin-fact-save">
            {t('pin.pin')}
          </button>
        </form>
      )}
      {live && (
        <button type="button" className="danger" onClick={() => void run.stop()} disabled={stopping} data-testid="stop">
          ■ {t('control.stop')}
        </button>
      )}
      {/* A stopped or failed run resumes from here, beside Fork, whatever its panels show. */}
      {!live && canResume && (
        <button type="button" className="primary" onClick={() => void run.resumeRun()} data-testid="resume-run">
          <Icon name="play" /> {t('control.resume_run')}
        </button>
      )}
      {!live && !replaying && hasEvents && (
        <button type="button" onClick={() => run.startReplay()} data-testid="replay">
          ⟲ {t('control.replay')}
        </button>
      )}
      {canFork && (
        <button type="button" onClick={onFork} data-testid="fork">
          <Icon name="fork" /> {t('control.fork')}
        </button>
      )}
      <button type="button" className="icon" onClick={onHelp} title={t('help.title')} aria-label={t('help.title')} data-testid="help-button">
        ?
      </button>
    </div>
  )
})
