import { memo, useMemo, useRef, useState, type RefObject } from 'react'
import { createSearchIndex, facets, filtered, flags, noFilters, search, snippet, step, type Filters, type Hit } from '../lib/search'
import { useRunState, useT } from './appContext'

// Hits listed at most; the counter still counts them all (up to the search's limit).
const listed = 200

interface RunSearchProps {
  inputRef: RefObject<HTMLInputElement | null>
  gotoRef: RefObject<HTMLInputElement | null>
  /** onHit shows a hit (its card selected, scrolled to, the match marked), or none. */
  onHit: (hit: Hit | null) => void
  /** onGoto brings iteration n's card into view. */
  onGoto: (n: number) => void
}

/**
 * RunSearch searches the whole run, rendered or not: the texts are gathered
 * from the folded view only once a query or a filter is set, so opening a
 * long run costs nothing more. Enter and Shift+Enter move between hits.
 * Memoised, and it reads the view only while searching: an idle search bar
 * is not drawn again on each fold of a live run.
 */
export const RunSearch = memo(function RunSearch({ inputRef, gotoRef, onHit, onGoto }: RunSearchProps) {
  const t = useT()
  const [query, setQuery] = useState('')
  const [filters, setFilters] = useState<Filters>(noFilters)
  const [showFilters, setShowFilters] = useState(false)
  const [showList, setShowList] = useState(true)
  const [at, setAt] = useState(-1)
  const index = useRef(createSearchIndex())
  const listRef = useRef<HTMLOListElement>(null)
  const active = query.trim() !== '' || filtered(filters)
  const reading = active || showFilters
  const view = useRunState((s) => (reading ? (s.replay?.view ?? s.view) : null))
  const docs = useMemo(() => (view ? index.current.docs(view) : []), [view])
  const found = useMemo(() => search(docs, query, filters), [docs, query, filters])
  const fac = useMemo(() => (showFilters ? facets(docs) : null), [docs, showFilters])
  const count = found.hits.length

  const go = (i: number) => {
    setAt(i)
    onHit(found.hits[i] ?? null)
    const row = listRef.current?.children[i] as HTMLElement | undefined
    const list = listRef.current
    if (row && list) {
      if (row.offsetTop < list.scrollTop) list.scrollTop = row.offsetTop
      else if (row.offsetTop + row.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = row.offsetTop + row.offsetHeight - list.clientHeight
    }
  }
  const move = (delta: number) => {
    const i = step(at >= count ? -1 : at, delta, count)
    if (i >= 0) go(i)
  }
  const restart = () => {
    setAt(-1)
    onHit(null)
  }
  const setFilter = (f: Partial<Filters>) => {
    setFilters({ ...filters, ...f })
    restart()
  }
  const clear = () => {
    setQuery('')
    setFilters(noFilters)
    restart()
  }

  const counter = !active ? '' : count === 0 ? t('search.none') : at >= 0 && at < count ? t('search.count', { at: at + 1, count: found.more ? `${count}+` : count }) : count === 1 && !found.more ? t('search.one_match') : t(found.more ? 'search.matches_more' : 'search.matches', { count })

  return (
    <div className="run-search" data-testid="run-search">
      <div className="search-row">
        <input
          ref={inputRef}
          type="search"
          className="search-input"
          value={query}
          placeholder={t('search.placeholder')}
          aria-label={t('search.label')}
          data-testid="search-input"
          onChange={(e) => {
            setQuery(e.target.value)
            restart()
          }}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return
            e.preventDefault()
            move(e.shiftKey ? -1 : 1)
          }}
        />
        <span className="muted search-count" data-testid="search-count" aria-live="polite">
          {counter}
        </span>
        <button type="button" className="icon" title={t('search.prev')} aria-label={t('search.prev')} disabled={count === 0} onClick={() => move(-1)} data-testid="search-prev">
          ↑
        </button>
        <button type="button" className="icon" title={t('search.next')} aria-label={t('search.next')} disabled={count === 0} onClick={() => move(1)} data-testid="search-next">
          ↓
        </button>
        {active && (
          <button type="button" className="icon" title={t('search.clear')} aria-label={t('search.clear')} onClick={clear} data-testid="search-clear">
            ×
          </button>
        )}
        <button type="button" className={`link${filtered(filters) ? ' on' : ''}`} aria-expanded={showFilters} onClick={() => setShowFilters(!showFilters)} data-testid="search-filters">
          {t('search.filters')}
        </button>
        {active && count > 0 && (
          <button type="button" className="link" onClick={() => setShowList(!showList)} data-testid="search-list-toggle">
            {showList ? t('search.list_hide') : t('search.list_show')}
          </button>
        )}
        <span className="spacer" />
        <input
          ref={gotoRef}
          type="number"
          min={0}
          className="goto-input"
          placeholder={t('goto.placeholder')}
          title={t('goto.label')}
          aria-label={t('goto.label')}
          data-testid="goto-input"
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return
            const n = Number(e.currentTarget.value)
            if (e.currentTarget.value !== '' && Number.isFinite(n)) onGoto(n)
          }}
        />
      </div>
      {showFilters && fac && (
        <div className="search-row search-filters" data-testid="search-filter-row">
          <select value={filters.type} onChange={(e) => setFilter({ type: e.target.value })} data-testid="filter-type">
            <option value="">{t('search.filter.type')}</option>
            {fac.types.map((x) => (
              <option key={x} value={x}>
                {x}
              </option>
            ))}
          </select>
          <select value={filters.tool} onChange={(e) => setFilter({ tool: e.target.value })} data-testid="filter-tool">
            <option value="">{t('search.filter.tool')}</option>
            {fac.tools.map((x) => (
              <option key={x} value={x}>
                {x}
              </option>
            ))}
          </select>
          <select value={filters.flag} onChange={(e) => setFilter({ flag: e.target.value as Filters['flag'] })} data-testid="filter-flag">
            <option value="">{t('search.filter.flag')}</option>
            {flags.map((x) => (
              <option key={x} value={x}>
                {t(`search.flag.${x}`)}
              </option>
            ))}
          </select>
          {fac.stages.length > 0 && (
            <select value={filters.stage} onChange={(e) => setFilter({ stage: e.target.value })} data-testid="filter-stage">
              <option value="">{t('search.filter.stage')}</option>
              {fac.stages.map((x) => (
                <option key={x} value={x}>
                  {x}
                </option>
              ))}
            </select>
          )}
        </div>
      )}
      {active && showList && count > 0 && (
        <ol className="search-hits" ref={listRef} data-testid="search-hits">
          {found.hits.slice(0, listed).map((h, i) => {
            const d = docs[h.doc]
            const s = snippet(d.text, h.start, h.end)
            return (
              <li key={`${h.doc}:${h.start}`}>
                <button type="button" className={i === at ? 'active' : ''} aria-current={i === at} onClick={() => go(i)} data-testid="search-hit" data-iteration={h.n} data-field={h.field}>
                  <span className="hit-where">
                    #{h.n} · {t(`search.field.${h.field}`)}
                    {d.tool && ` · ${d.tool}`}
                  </span>{' '}
                  <span className="hit-snippet">
                    {s.before}
                    {s.match && <mark>{s.match}</mark>}
                    {s.after}
                  </span>
                </button>
              </li>
            )
          })}
          {count > listed && <li className="muted">{t('search.list_more', { n: count - listed })}</li>}
        </ol>
      )}
    </div>
  )
})
