import { changedLinks, showValue, type ChangeView as Change } from '../lib/notechange'
import { TextDiffView } from './DiffView'
import { useT } from './appContext'
import './change.css'

/**
 * ChangeView shows what a vault edit would change, Markdown-aware: for each
 * note, its properties and links before → after, the sections it adds or
 * removes, and its changed lines word by word (the Compare diff).
 */
export function ChangeView({ change }: { change: Change }) {
  const t = useT()
  const reach = changedLinks(change)
  return (
    <div className="note-change" data-testid="approval-change" aria-label={t('change.heading')}>
      {change.folder && <p data-testid="change-folder">{t('change.folder', { from: change.folder.from, to: change.folder.to })}</p>}
      {change.tool === 'rename_note' && reach.links > 0 && <p data-testid="change-reach">{t('change.links_count', { links: reach.links, notes: reach.notes })}</p>}
      {change.notes.map((n) => (
        <div className="change-note" key={n.path} data-testid="change-note">
          <div className="change-path">
            {n.newPath ? `${n.path} → ${n.newPath}` : n.path}
            {n.created && <span className="tag">{t('change.created')}</span>}
          </div>
          {n.properties.length > 0 && (
            <ul className="change-rows" aria-label={t('change.properties')} data-testid="change-properties">
              {n.properties.map((p) => (
                <li key={p.name}>
                  <b>{p.name}</b>: {!p.added && <span className="change-before">{showValue(p.before)}</span>}
                  {!p.added && ' → '}
                  {p.removed ? t('change.removed') : showValue(p.after)}
                </li>
              ))}
            </ul>
          )}
          {n.links.length > 0 && (
            <ul className="change-rows" aria-label={t('change.links')} data-testid="change-links">
              {n.links.map((l, i) => (
                <li key={i}>
                  <span className="change-line">{t('change.line', { n: l.line })}</span> {l.before && <code className="change-before">{l.before}</code>}
                  {l.before && l.after && ' → '}
                  {l.after && <code>{l.after}</code>}
                </li>
              ))}
            </ul>
          )}
          {n.sectionsAdded.length > 0 && <div className="change-rows">{t('change.sections_added', { list: n.sectionsAdded.join(', ') })}</div>}
          {n.sectionsRemoved.length > 0 && <div className="change-rows">{t('change.sections_removed', { list: n.sectionsRemoved.join(', ') })}</div>}
          {n.hunks.slice(0, 20).map((h, i) => (
            <div key={i}>
              <span className="change-line">{t('change.line', { n: h.line })}</span>
              <TextDiffView a={h.before} b={h.after} testId="change-diff" />
            </div>
          ))}
        </div>
      ))}
    </div>
  )
}
