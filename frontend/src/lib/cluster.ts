import type { ClusterReplica, ClusterStatus, ClusterTask, RunSummary } from '../api/types'

// The Cluster view: the `hermes bot` replicas that share [cluster]
// nats_url, the chat tasks each runs and the task queue, as `hermes bot
// --cluster-status` prints them (GET /api/cluster).

/** noCluster is the status of a home whose hermes.toml names no cluster. */
export const noCluster: ClusterStatus = { enabled: false, replicas: [], queue: { waiting: 0, running: 0, redelivered: 0 } }

/** replicaOf is the replica that runs a run of the cluster, "" for this home's runs. */
export function replicaOf(run: Pick<RunSummary, 'replica'>): string {
  return run.replica ?? ''
}

/** ClusterTaskRow is one task a replica runs, with how long it has run. */
export interface ClusterTaskRow extends ClusterTask {
  replica: string
  runningMs: number
}

/** clusterTasks lists every replica's tasks, the longest running first. */
export function clusterTasks(st: ClusterStatus, now: number): ClusterTaskRow[] {
  const rows: ClusterTaskRow[] = []
  for (const r of st.replicas ?? []) {
    for (const task of r.tasks ?? []) {
      rows.push({ ...task, replica: r.id, runningMs: Math.max(0, now - Date.parse(task.started)) })
    }
  }
  return rows.sort((a, b) => b.runningMs - a.runningMs || a.seq - b.seq)
}

/** sinceMs is how long ago iso was, 0 for a time to come or none. */
export function sinceMs(iso: string | undefined, now: number): number {
  const t = iso ? Date.parse(iso) : NaN
  return Number.isNaN(t) ? 0 : Math.max(0, now - t)
}

/** replicaStale reports whether a replica has missed beats: its announcement is older than three. */
export function replicaStale(r: Pick<ClusterReplica, 'last_seen'>, now: number, beatMs = 10_000): boolean {
  return sinceMs(r.last_seen, now) > 3 * beatMs
}
