import { toApiError, type Api, type ApiError } from '../api/api'
import type { ClusterStatus } from '../api/types'
import { noCluster } from '../lib/cluster'
import type { Ticker } from './run'
import type { LoadStatus } from './runs'
import { createStore, type Store } from './store'

export interface ClusterState {
  status: LoadStatus
  cluster: ClusterStatus
  error: ApiError | null
  /** checkedAt is when the status was read (ms since the epoch), for "seen … ago". */
  checkedAt: number
}

export interface ClusterStore extends Store<ClusterState> {
  load(): Promise<void>
  /** watch reads the status now and every clusterEvery ms until the returned function is called. */
  watch(): () => void
}

/** clusterEvery is how often the Cluster view reads the status while it is shown. */
export const clusterEvery = 3_000

/** createClusterStore holds the Cluster view: the replicas, their tasks and the queue. */
export function createClusterStore(api: Api, ticker: Ticker, now: () => number = Date.now): ClusterStore {
  const store = createStore<ClusterState>({ status: 'idle', cluster: noCluster, error: null, checkedAt: 0 })
  let ticket = 0

  async function load(): Promise<void> {
    const mine = ++ticket
    if (store.get().status === 'idle') store.set({ status: 'loading' })
    try {
      const cluster = await api.clusterStatus()
      if (mine === ticket) store.set({ status: 'ready', cluster, error: null, checkedAt: now() })
    } catch (err) {
      if (mine === ticket) store.set({ status: 'error', error: toApiError(err) })
    }
  }

  return {
    ...store,
    load,
    watch() {
      void load()
      return ticker(() => void load(), clusterEvery)
    },
  }
}
