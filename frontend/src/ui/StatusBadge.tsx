import { statusLabel } from '../lib/events'
import { useAppState } from './context'

export function StatusBadge({ status }: { status: string }) {
  const lang = useAppState((s) => s.lang)
  return (
    <span className={`badge badge-${status}`} data-testid="run-status" data-status={status}>
      {statusLabel(status, lang)}
    </span>
  )
}
