import type { RunSummary } from '../api/types'

/** Runs kept normalised, so a live update (issue 3) touches one entry. */
export interface RunIndex {
  ids: string[]
  byId: Record<string, RunSummary>
}

/** compareNewestFirst orders by start time, newest first; the run id breaks ties (ids sort by time too). */
export function compareNewestFirst(a: RunSummary, b: RunSummary): number {
  const ta = Date.parse(a.started) || 0
  const tb = Date.parse(b.started) || 0
  if (ta !== tb) return tb - ta
  return a.run_id < b.run_id ? 1 : a.run_id > b.run_id ? -1 : 0
}

/** indexRuns normalises a list of runs, newest first; a repeated id keeps its last entry. */
export function indexRuns(runs: readonly RunSummary[]): RunIndex {
  const byId: Record<string, RunSummary> = {}
  for (const r of runs) byId[r.run_id] = r
  const ids = Object.values(byId)
    .sort(compareNewestFirst)
    .map((r) => r.run_id)
  return { ids, byId }
}

export interface RunFilter {
  /** Words that must all appear in the task, model, workspace or run id (case-insensitive). */
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
      const hay = `${r.task}\n${r.model}\n${r.workspace}\n${r.run_id}`.toLowerCase()
      if (!words.every((w) => hay.includes(w))) continue
    }
    out.push(r)
  }
  return out
}
