import type { RunSummary } from '../api/types'
import type { Translate } from '../i18n/i18n'
import { replicaOf } from '../lib/cluster'
import { useT } from './appContext'

/** ReplicaTag names the hermes bot replica that runs a run of the cluster; nothing for this home's runs. */
export function ReplicaTag({ run }: { run: Pick<RunSummary, 'replica'> }) {
  return <ReplicaLabel run={run} t={useT()} />
}

export function ReplicaLabel({ run, t }: { run: Pick<RunSummary, 'replica'>; t: Translate }) {
  const replica = replicaOf(run)
  if (!replica) return null
  return (
    <span className="tag replica-tag" data-testid="run-replica" title={t('runs.replica_hint', { replica })}>
      {t('runs.replica', { replica })}
    </span>
  )
}
