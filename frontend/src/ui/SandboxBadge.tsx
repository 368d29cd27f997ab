import { memo, useMemo } from 'react'
import type { SandboxData } from '../api/types'
import { runSandbox } from '../lib/sandbox'
import { useT } from './appContext'
import { Icon } from './Icon'

/**
 * SandboxBadge says in the run header how the run's commands run: a small
 * badge while they are confined, a warning when they are not. It opens on
 * the mode, the mechanisms and what this machine's sandbox cannot stop.
 * Memoised on run.started's sandbox, which a fold leaves as it was.
 */
export const SandboxBadge = memo(function SandboxBadge({ sandbox }: { sandbox: SandboxData | null }) {
  const t = useT()
  const s = useMemo(() => runSandbox(t, sandbox), [t, sandbox])
  if (!s) return null
  return (
    <details className={`sandbox-badge ${s.enforced ? 'sandbox-on' : 'sandbox-off'}`} data-testid="run-sandbox" data-enforced={s.enforced ? 'true' : 'false'}>
      <summary className="badge" title={`${s.text}\n${s.detail.join('\n')}`}>
        <Icon name={s.enforced ? 'shield' : 'warning'} /> {s.text}
      </summary>
      <div className="sandbox-detail" data-testid="run-sandbox-detail">
        <b>{t('sandbox.title')}</b>
        <p>{s.text}</p>
        {s.detail.map((line, i) => (
          <p key={i} className="muted">
            {line}
          </p>
        ))}
      </div>
    </details>
  )
})
