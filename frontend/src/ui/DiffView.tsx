import { useMemo, useState } from 'react'
import { diffText, type DiffOp } from '../lib/diff'
import { useT } from './appContext'
import './compare.css'

/** DiffView shows a line diff: removed lines in red, added in green, the rest plain. */
export function DiffView({ ops, testId }: { ops: DiffOp<string>[]; testId?: string }) {
  return (
    <pre className="diff" data-testid={testId}>
      {ops.map((d, i) => (
        <div key={i} className={`diff-${d.op}`}>
          <span className="diff-sign">{d.op === 'added' ? '+' : d.op === 'removed' ? '−' : ' '}</span>
          {d.value}
        </div>
      ))}
    </pre>
  )
}

/** A stretch left unchanged is shown whole up to keep characters; a longer one keeps its ends around a fold. */
const keep = 400
const edge = 160

/**
 * TextDiffView shows what changed between two texts in place: the removed
 * words struck out, the added ones marked, the rest as it was (long
 * unchanged stretches folded until opened). It says when a change was too
 * large to compare word by word and was compared by lines.
 */
export function TextDiffView({ a, b, testId }: { a: string; b: string; testId?: string }) {
  const t = useT()
  const d = useMemo(() => diffText(a, b), [a, b])
  const [open, setOpen] = useState(false)
  return (
    <pre className="diff text-diff" data-testid={testId} data-level={d.level}>
      {d.level === 'line' && <span className="muted diff-level">{t('diff.line_level')}</span>}
      {d.ops.map((x, i) => {
        if (x.op === 'removed') return <del key={i} data-testid="diff-removed">{x.value}</del>
        if (x.op === 'added') return <ins key={i} data-testid="diff-added">{x.value}</ins>
        if (open || x.value.length <= keep) return <span key={i}>{x.value}</span>
        const first = i === 0
        const last = i === d.ops.length - 1
        return (
          <span key={i}>
            {!first && x.value.slice(0, edge)}
            <button type="button" className="link diff-fold" onClick={() => setOpen(true)} data-testid="diff-fold">
              {t('diff.unchanged', { n: x.value.length - (first ? 0 : edge) - (last ? 0 : edge) })}
            </button>
            {!last && x.value.slice(-edge)}
          </span>
        )
      })}
    </pre>
  )
}
