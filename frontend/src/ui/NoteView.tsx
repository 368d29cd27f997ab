import { memo, useEffect, useMemo, useState } from 'react'
import { toApiError } from '../api/api'
import type { VaultNote } from '../api/types'
import { parseMarkdown } from '../lib/markdown'
import { backlinksByNote, hideBlockIds, obsidianOpen, splitFrontMatter, type NoteAsked } from '../lib/notes'
import { mdElements, mdLabels } from './Markdown'
import { useAppState, useAppStore, useT } from './appContext'
import './note.css'

/** A note on the way through the vault: by name, as a wikilink in the note at from finds it. */
interface Step {
  name: string
  from: string
}

type Loaded = { step: Step; note: VaultNote; error: '' } | { step: Step; note: null; error: string }

/**
 * NoteView is a note of the run's vault, rendered (lib/markdown.ts, its
 * front matter apart): its [[wikilinks]] and backlinks lead to other notes
 * of the vault, each read through the local API as the vault's tools read
 * them (confined to the vault), Back returns, and "Open in Obsidian" hands
 * the note to Obsidian (in the window, through the system's opener).
 */
export const NoteView = memo(function NoteView({ asked }: { asked: NoteAsked }) {
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const { run } = useAppStore()
  const [trail, setTrail] = useState<Step[]>([{ name: asked.name, from: asked.from }])
  const step = trail[trail.length - 1]
  const [loaded, setLoaded] = useState<Loaded | null>(null)
  useEffect(() => {
    let live = true
    run.vaultNote(step.name, step.from).then(
      (note) => live && setLoaded({ step, note, error: '' }),
      (err: unknown) => live && setLoaded({ step, note: null, error: toApiError(err).messageIn(lang) }),
    )
    return () => {
      live = false
    }
  }, [run, step, lang])
  const shown = loaded?.step === step ? loaded : null
  const note = shown?.note ?? null
  const parts = useMemo(() => splitFrontMatter(note?.text ?? ''), [note])
  const go = (name: string, from: string) => setTrail((tr) => [...tr, { name, from }])
  const labels = useMemo(() => ({ ...mdLabels(t), wikilink: (target: string) => go(target, note?.path ?? '') }), [t, note])
  const nodes = useMemo(() => parseMarkdown(hideBlockIds(parts.body), { wikilinks: true }), [parts.body])
  const linking = useMemo(() => backlinksByNote(note?.backlinks ?? []), [note])
  return (
    <div className="note-view" data-testid="note-view" data-path={note?.path}>
      <div className="note-head">
        {trail.length > 1 && (
          <button type="button" className="link" data-testid="note-back" onClick={() => setTrail((tr) => tr.slice(0, -1))}>
            {t('note.back')}
          </button>
        )}
        <b className="note-path" data-testid="note-path">
          {note?.path ?? step.name}
        </b>
        {note && (
          <a className="note-obsidian" href={obsidianOpen(note.vault, note.path)} data-testid="note-obsidian">
            {t('note.obsidian')}
          </a>
        )}
      </div>
      {!shown && <p className="muted">{t('note.loading')}</p>}
      {shown?.error && (
        <p className="notice notice-error" role="alert" data-testid="note-error">
          {shown.error}
        </p>
      )}
      {note && (
        <>
          {parts.front && (
            <details className="note-front" data-testid="note-front">
              <summary>{t('note.properties')}</summary>
              <pre>{parts.front}</pre>
            </details>
          )}
          <div className="md note-md" data-testid="note-text">
            <div className="md-body">{mdElements(nodes, labels)}</div>
          </div>
          <div className="note-backlinks" data-testid="note-backlinks">
            <h3>{linking.length > 0 ? t('note.backlinks', { n: linking.length }) : t('note.backlinks_none')}</h3>
            <ul>
              {linking.map((b) => (
                <li key={b.from}>
                  <button type="button" className="link" data-testid="note-backlink" onClick={() => go(b.from, '')}>
                    {b.from}
                  </button>{' '}
                  <span className="muted">{t(b.lines.length > 1 ? 'note.lines' : 'note.line', { n: b.lines.join(', ') })}</span>
                </li>
              ))}
            </ul>
          </div>
        </>
      )}
    </div>
  )
})
