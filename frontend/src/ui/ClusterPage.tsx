import { useEffect } from 'react'
import type { ApiError } from '../api/api'
import type { ClusterStatus } from '../api/types'
import type { Lang, Translate } from '../i18n/i18n'
import { clusterTasks, replicaStale, sinceMs } from '../lib/cluster'
import { formatDateTime, formatDuration } from '../lib/format'
import type { LoadStatus } from '../store/runs'
import { useAppState, useAppStore, useClusterState, useT } from './appContext'

/** ClusterPage shows the bot replicas of [cluster] nats_url, the tasks each runs and the queue, read every few seconds while shown. */
export function ClusterPage() {
  const { cluster: store } = useAppStore()
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const status = useClusterState((s) => s.status)
  const error = useClusterState((s) => s.error)
  const cluster = useClusterState((s) => s.cluster)
  const now = useClusterState((s) => s.checkedAt)

  useEffect(() => store.watch(), [store])

  return <ClusterView t={t} lang={lang} status={status} error={error} cluster={cluster} now={now} onReload={() => void store.load()} />
}

export interface ClusterViewProps {
  t: Translate
  lang: Lang
  status: LoadStatus
  error: ApiError | null
  cluster: ClusterStatus
  /** now is when the status was read, for "seen … ago". */
  now: number
  onReload: () => void
}

/** ClusterView draws what ClusterPage read. */
export function ClusterView({ t, lang, status, error, cluster, now, onReload }: ClusterViewProps) {
  const tasks = clusterTasks(cluster, now)
  return (
    <section className="page cluster-page" data-testid="cluster-page">
      <div className="page-head">
        <h1>{t('cluster.heading')}</h1>
        <span className="spacer" />
        <button type="button" onClick={onReload} data-testid="cluster-reload">
          {t('runs.reload')}
        </button>
      </div>
      <p className="muted page-intro">{t('cluster.intro')}</p>
      {status === 'loading' && <p className="muted">{t('cluster.loading')}</p>}
      {error && (
        <div className="notice notice-error" role="alert" data-testid="cluster-error">
          {t('cluster.error', { error: error.messageIn(lang) })}
        </div>
      )}
      {cluster.error && (
        <div className="notice notice-error" role="alert" data-testid="cluster-error">
          {t('cluster.error', { error: cluster.error.message[lang] ?? cluster.error.message.en ?? cluster.error.code })}
        </div>
      )}
      {status === 'ready' && !cluster.enabled && (
        <div className="empty" data-testid="cluster-off">
          <h2>{t('cluster.off.title')}</h2>
          <p>{t('cluster.off.body')}</p>
        </div>
      )}
      {cluster.enabled && (
        <>
          <div className="cluster-queue" data-testid="cluster-queue">
            <Figure label={t('cluster.queue.waiting')} value={cluster.queue.waiting} testId="cluster-waiting" />
            <Figure label={t('cluster.queue.running')} value={cluster.queue.running} testId="cluster-running" />
            <Figure label={t('cluster.queue.redelivered')} value={cluster.queue.redelivered} testId="cluster-redelivered" />
          </div>
          <h2>{t('cluster.replicas', { n: cluster.replicas.length })}</h2>
          {cluster.replicas.length === 0 ? (
            <p className="muted">{t('cluster.no_replicas')}</p>
          ) : (
            <table className="runs-table" data-testid="cluster-replicas">
              <thead>
                <tr>
                  <th>{t('cluster.col.replica')}</th>
                  <th>{t('cluster.col.host')}</th>
                  <th>{t('cluster.col.version')}</th>
                  <th>{t('cluster.col.started')}</th>
                  <th>{t('cluster.col.seen')}</th>
                  <th className="num">{t('cluster.col.tasks')}</th>
                </tr>
              </thead>
              <tbody>
                {cluster.replicas.map((r) => (
                  <tr key={r.id} data-testid="cluster-replica" data-replica={r.id}>
                    <td>{r.id}</td>
                    <td>
                      {r.host} · {r.pid}
                    </td>
                    <td>{r.version || '—'}</td>
                    <td className="nowrap">{formatDateTime(r.started, lang)}</td>
                    <td className="nowrap">
                      {t('cluster.seen_ago', { s: Math.round(sinceMs(r.last_seen, now) / 1000) })}
                      {replicaStale(r, now) && <span className="tag warn" title={t('cluster.stale')}>!</span>}
                    </td>
                    <td className="num">{r.tasks.length}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h2>{t('cluster.tasks', { n: tasks.length })}</h2>
          {tasks.length === 0 ? (
            <p className="muted">{t('cluster.no_tasks')}</p>
          ) : (
            <table className="runs-table" data-testid="cluster-tasks">
              <thead>
                <tr>
                  <th>{t('cluster.col.user')}</th>
                  <th>{t('cluster.col.replica')}</th>
                  <th>{t('cluster.col.message')}</th>
                  <th className="num">{t('cluster.col.running')}</th>
                </tr>
              </thead>
              <tbody>
                {tasks.map((task) => (
                  <tr key={`${task.replica}/${task.seq}`} data-testid="cluster-task">
                    <td>{task.user}</td>
                    <td>{task.replica}</td>
                    <td className="muted">{task.id || `#${task.seq}`}</td>
                    <td className="num nowrap">{formatDuration(task.runningMs)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  )
}

function Figure({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <div className="cluster-figure">
      <span className="muted">{label}</span>
      <strong data-testid={testId}>{value}</strong>
    </div>
  )
}
