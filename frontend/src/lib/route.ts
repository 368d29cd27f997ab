// Hash routes, so the same build works from the Wails asset server, from
// `hermes serve` and from a file, and the back button works in a browser.

export type Route = { page: 'runs' } | { page: 'new' } | { page: 'memory' } | { page: 'cluster' } | { page: 'run'; runId: string } | { page: 'evals'; evalId: string }

export function parseRoute(hash: string): Route {
  if (/^#\/new\/?$/.test(hash)) return { page: 'new' }
  if (/^#\/memory\/?$/.test(hash)) return { page: 'memory' }
  if (/^#\/cluster\/?$/.test(hash)) return { page: 'cluster' }
  if (/^#\/evals\/?$/.test(hash)) return { page: 'evals', evalId: '' }
  const ev = /^#\/evals\/([^/]+)\/?$/.exec(hash)
  if (ev) {
    try {
      return { page: 'evals', evalId: decodeURIComponent(ev[1]) }
    } catch {
      return { page: 'evals', evalId: '' }
    }
  }
  const m = /^#\/runs\/([^/]+)\/?$/.exec(hash)
  if (m) {
    try {
      return { page: 'run', runId: decodeURIComponent(m[1]) }
    } catch {
      return { page: 'runs' }
    }
  }
  return { page: 'runs' }
}

export function runHref(runId: string): string {
  return `#/runs/${encodeURIComponent(runId)}`
}

export const runsHref = '#/'
export const newRunHref = '#/new'
export const memoryHref = '#/memory'
export const clusterHref = '#/cluster'
export const evalsHref = '#/evals'

export function evalHref(evalId: string): string {
  return `#/evals/${encodeURIComponent(evalId)}`
}
