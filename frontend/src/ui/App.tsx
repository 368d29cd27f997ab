import { useEffect, useState } from 'react'
import { langNames, langs, translator, type Lang } from '../i18n/i18n'
import { clusterHref, evalsHref, memoryHref, newRunHref, parseRoute, type Route } from '../lib/route'
import { ClusterPage } from './ClusterPage'
import { Desktop } from './Desktop'
import { EvalsPage } from './EvalsPage'
import type { Theme } from '../store/app'
import { useAppState, useAppStore, useClusterState, useT } from './appContext'
import { MemoryPage } from './MemoryPage'
import { NewRunPage } from './NewRunPage'
import { Notices } from './Notices'
import { RunPage } from './RunPage'
import { RunsPage } from './RunsPage'

function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash))
  useEffect(() => {
    const onHash = () => setRoute(parseRoute(window.location.hash))
    window.addEventListener('hashchange', onHash)
    return () => window.removeEventListener('hashchange', onHash)
  }, [])
  return route
}

const themes: Theme[] = ['system', 'light', 'dark']

export function App() {
  const store = useAppStore()
  const lang = useAppState((s) => s.lang)
  const theme = useAppState((s) => s.theme)
  const t = useT()
  const route = useRoute()
  // The Cluster view is offered when hermes.toml names a cluster.
  const clustered = useClusterState((s) => s.cluster.enabled)
  useEffect(() => {
    void store.cluster.load()
  }, [store])

  useEffect(() => {
    const tr = translator(lang)
    document.documentElement.lang = lang
    const page = route.page === 'runs' ? tr('runs.heading') : route.page === 'new' ? tr('new.heading') : route.page === 'memory' ? tr('memory.heading') : route.page === 'cluster' ? tr('cluster.heading') : route.page === 'evals' ? tr('evals.heading') : tr('run.timeline')
    document.title = `${tr('app.name')} · ${page}`
  }, [lang, route.page])

  // The page always carries the theme it shows, so the stylesheet writes the
  // dark colours once; "system" follows the system's setting as it changes.
  useEffect(() => {
    const systemDark = window.matchMedia('(prefers-color-scheme: dark)')
    const apply = () => {
      document.documentElement.dataset.theme = theme === 'system' ? (systemDark.matches ? 'dark' : 'light') : theme
    }
    apply()
    if (theme !== 'system') return
    systemDark.addEventListener('change', apply)
    return () => systemDark.removeEventListener('change', apply)
  }, [theme])

  const runId = route.page === 'run' ? route.runId : ''
  useEffect(() => {
    if (runId) void store.run.open(runId)
    else store.run.close()
  }, [runId, store])

  return (
    <div className="app">
      <Desktop runId={runId} page={window.location.hash || '#/'} />
      <header className="topbar">
        <a className="brand" href="#/">
          <span className="brand-mark" aria-hidden="true">☿</span>
          <span className="brand-name">{t('app.name')}</span>
          <span className="brand-tagline">{t('app.tagline')}</span>
        </a>
        <a className="button primary new-run-link" href={newRunHref} data-testid="new-run">
          + {t('new.button')}
        </a>
        <a className={`nav-link${route.page === 'memory' ? ' active' : ''}`} href={memoryHref} data-testid="nav-memory">
          {t('memory.heading')}
        </a>
        <a className={`nav-link${route.page === 'evals' ? ' active' : ''}`} href={evalsHref} data-testid="nav-evals">
          {t('evals.heading')}
        </a>
        {(clustered || route.page === 'cluster') && (
          <a className={`nav-link${route.page === 'cluster' ? ' active' : ''}`} href={clusterHref} data-testid="nav-cluster">
            {t('cluster.heading')}
          </a>
        )}
        <div className="topbar-tools">
          <label className="tool">
            <span className="tool-label">{t('lang.label')}</span>
            <select data-testid="lang-select" value={lang} onChange={(e) => store.setLang(e.target.value as Lang)}>
              {langs.map((l) => (
                <option key={l} value={l}>
                  {langNames[l]}
                </option>
              ))}
            </select>
          </label>
          <label className="tool">
            <span className="tool-label">{t('theme.label')}</span>
            <select data-testid="theme-select" value={theme} onChange={(e) => store.setTheme(e.target.value as Theme)}>
              {themes.map((th) => (
                <option key={th} value={th}>
                  {t(`theme.${th}`)}
                </option>
              ))}
            </select>
          </label>
        </div>
      </header>
      <Notices />
      <main className={`content content-${route.page}`}>
        {route.page === 'run' ? (
          <RunPage key={route.runId} runId={route.runId} />
        ) : route.page === 'new' ? (
          <NewRunPage />
        ) : route.page === 'memory' ? (
          <MemoryPage />
        ) : route.page === 'cluster' ? (
          <ClusterPage />
        ) : route.page === 'evals' ? (
          <EvalsPage evalId={route.evalId} />
        ) : (
          <RunsPage />
        )}
      </main>
    </div>
  )
}
