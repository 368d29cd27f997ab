import type { RunPage, RunSummary } from '../api/types'

/** Runs kept normalised, so a live update (issue 3) touches one entry. */
export interface RunIndex {
  ids: string[]
  byId: Record<string, RunSummary>
}

/**
 * compareNewestFirst puts live runs first, then orders by start time, newest
 * first; the run id breaks ties (ids sort by time too). The sample run ends
 * the list, as the server lists it, after the home's own runs.
 */
export function compareNewestFirst(a: RunSummary, b: RunSummary): number {
  if (!!a.live !== !!b.live) return a.live ? -1 : 1
  if (!!a.sample !== !!b.sample) return a.sample ? 1 : -1
  const ta = Date.parse(a.started) || 0
  const tb = Date.parse(b.started) || 0
  if (ta !== tb) return tb - ta
  return a.run_id < b.run_id ? 1 : a.run_id > b.run_id ? -1 : 0
}

/** indexRuns normalises a list of runs, live then newest first; a repeated id keeps its last entry. */
export function indexRuns(runs: readonly RunSummary[]): RunIndex {
  const byId: Record<string, RunSummary> = {}
  for (const r of runs) byId[r.run_id] = r
  const ids = Object.values(byId)
    .sort(compareNewestFirst)
    .map((r) => r.run_id)
  return { ids, byId }
}

export interface RunFilter {
  /** Words that must all appear in the title, task, model, workspace, origin or run id (case-insensitive). */
  text: string
  /** A status to keep, or "" for all. */
  status: string
}

export const noFilter: RunFilter = { text: '', status: '' }

/** filterRuns returns the runs of index that pass filter, in index order. */
export function filterRuns(index: RunIndex, filter: RunFilter): RunSummary[] {
  const words = filter.text.toLowerCase().split(/\s+/).filter(Boolean)
  const out: RunSummary[] = []
  for (const id of index.ids) {
    const r = index.byId[id]
    if (filter.status && r.status !== filter.status) continue
    if (words.length > 0) {
      const hay = `${r.title ?? ''}\n${r.task}\n${r.model}\n${r.workspace}\n${r.origin ?? ''}\n${r.run_id}`.toLowerCase()
      if (!words.every((w) => hay.includes(w))) continue
    }
    out.push(r)
  }
  return out
}

/** upsertRun returns index with run added or replaced, in order. */
export function upsertRun(index: RunIndex, run: RunSummary): RunIndex {
  const byId = { ...index.byId, [run.run_id]: run }
  // A live run's summary at each iteration keeps its place: the list's order
  // is not sorted again (thousands of dates parsed) for it.
  const had = index.byId[run.run_id]
  if (had && !!had.live === !!run.live && had.started === run.started) return { ids: index.ids, byId }
  const ids = index.byId[run.run_id] ? index.ids.slice() : [...index.ids, run.run_id]
  ids.sort((a, b) => compareNewestFirst(byId[a], byId[b]))
  return { ids, byId }
}

const forksByIndex = new WeakMap<RunIndex, Map<string, string>>()

/**
 * forksOf is the ids of the runs forked from runId, in the list's order, as
 * one string (space-separated; "" for none), so a page that selects it from
 * the runs list is drawn again only when the forks change, not at each live
 * summary. Each list is read once, however many times it is asked.
 */
export function forksOf(index: RunIndex, runId: string): string {
  let bySource = forksByIndex.get(index)
  if (!bySource) {
    const lists = new Map<string, string[]>()
    for (const id of index.ids) {
      const from = index.byId[id].forked_from?.run_id
      if (!from) continue
      const list = lists.get(from)
      if (list) list.push(id)
      else lists.set(from, [id])
    }
    bySource = new Map([...lists].map(([from, ids]) => [from, ids.join(' ')]))
    forksByIndex.set(index, bySource)
  }
  return bySource.get(runId) ?? ''
}

/** removeRun returns index without the run. */
export function removeRun(index: RunIndex, runId: string): RunIndex {
  if (!index.byId[runId]) return index
  const byId = { ...index.byId }
  delete byId[runId]
  return { ids: index.ids.filter((id) => id !== runId), byId }
}

/** runLabel is what lists show of a run: its title when it has one, else its task. */
export function runLabel(run: Pick<RunSummary, 'title' | 'task'>): string {
  return run.title?.trim() || run.task
}

/** pageOf cuts a page out of a whole list, newest first, as GET /api/runs?limit=&before= does. */
export function pageOf(runs: readonly RunSummary[], before: string, limit: number): RunPage {
  const all = [...runs].sort(compareNewestFirst)
  const from = before ? all.findIndex((r) => r.run_id === before) + 1 : 0
  if (before && from === 0) return { runs: [], next: '' }
  const page = limit > 0 ? all.slice(from, from + limit) : all.slice(from)
  const next = limit > 0 && from + limit < all.length ? page[page.length - 1].run_id : ''
  return { runs: page, next }
}

/** addRuns returns index with a loaded page's runs added, in order; a run it holds already stays as it is (the live stream's is newer). */
export function addRuns(index: RunIndex, runs: readonly RunSummary[]): RunIndex {
  return indexRuns([...runs, ...index.ids.map((id) => index.byId[id])])
}
