import type { DiffOp } from '../lib/diff'

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
