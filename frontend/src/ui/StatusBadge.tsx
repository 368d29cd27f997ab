import { statusLabel } from '../lib/events'
import type { RunView } from '../lib/timeline'
import { useAppState, useRunState, useT } from './appContext'

export function StatusBadge({ status }: { status: string }) {
  const lang = useAppState((s) => s.lang)
  return (
    <span className={`badge badge-${status}`} data-testid="run-status" data-status={status}>
      {statusLabel(status, lang)}
    </span>
  )
}

/** liveState is what a live run is doing now, as the run page's badge says it. */
export function liveState(view: Pick<RunView, 'paused' | 'pendingApproval'>, pausing: boolean, stopping: boolean): 'stopping' | 'paused' | 'pausing' | 'approval' | 'running' {
  return stopping ? 'stopping' : view.paused ? 'paused' : pausing ? 'pausing' : view.pendingApproval ? 'approval' : 'running'
}

/**
 * RunStatusBadge is the run page's one badge: the run's status, or while it
 * is live what it is doing (running, pausing, paused, awaiting approval,
 * stopping). It reads the run as it stands, never a replay's, so a finished
 * run replayed still says Finished; each a value a fold that changes only
 * cards leaves as it was.
 */
export function RunStatusBadge({ live }: { live: boolean }) {
  const t = useT()
  const status = useRunState((s) => s.view.status)
  const paused = useRunState((s) => s.view.paused)
  const pendingApproval = useRunState((s) => s.view.pendingApproval)
  const pausing = useRunState((s) => s.pausing)
  const stopping = useRunState((s) => s.stopping)
  if (!live) return <StatusBadge status={status} />
  const state = liveState({ paused, pendingApproval }, pausing, stopping)
  return (
    <span className={`badge badge-${status} run-state state-${state}`} data-testid="run-status" data-status={status}>
      <span data-testid="run-state" data-state={state}>
        {t(`state.${state}`)}
      </span>
    </span>
  )
}
